import type pg from 'pg';

/** An event one or more projections could not read and set aside (quarantined_events). */
export interface QuarantinedEvent {
  seq: number;
  position: number;
  projections: string[];
  reason: string;
  at: string;
}

/**
 * The events set aside by projections, oldest first, one entry per event. They stay in the log and
 * its chain; only the read models skipped them, so an auditor and an admin must be able to see them.
 */
export async function listQuarantined(
  pool: pg.Pool,
  limit = 50,
): Promise<{ count: number; events: QuarantinedEvent[] }> {
  const { rows } = await pool.query<QuarantinedEvent & { count: number }>(
    `SELECT seq::int, position::int, array_agg(projection ORDER BY projection) AS projections,
            min(reason) AS reason, min(at) AS at, count(*) OVER ()::int AS count
       FROM quarantined_events GROUP BY seq, position ORDER BY seq LIMIT $1`,
    [limit],
  );
  return {
    count: rows[0]?.count ?? 0,
    events: rows.map(({ seq, position, projections, reason, at }) => ({
      seq,
      position,
      projections,
      reason,
      at: new Date(at).toISOString(),
    })),
  };
}
