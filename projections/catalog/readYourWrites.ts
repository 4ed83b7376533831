import type pg from 'pg';

/**
 * Waits until the catalog has applied the event at a position, so that a request answers with what
 * it just wrote. Resolves to the catalog's position (chain seq) then, which is at or after the
 * event's; 0 when there is nothing to wait for; null when it gave up after a short while (the answer
 * is then merely a moment old).
 */
export async function catalogReached(
  db: Pick<pg.Pool, 'query'>,
  position: number | undefined,
  timeoutMs = 2000,
): Promise<number | null> {
  if (position === undefined) return 0;
  // a timeout: elapsed time, not domain time (decision 147)
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ at: string }>(
      `SELECT c.seq AS at FROM events e, projection_checkpoints c
       WHERE e.position = $1 AND c.name = 'catalog'
         AND (e.era, e.transaction_id, e.position) <= (c.era, c.transaction_id, c.position)`,
      [position],
    );
    if (rows[0]) return Number(rows[0].at);
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 5));
  }
}
