import type pg from 'pg';

/**
 * Waits until the catalog has applied the event at a position, so that a request answers with what
 * it just wrote. Gives up after a short while: the answer is then merely a moment old.
 */
export async function catalogReached(db: Pick<pg.Pool, 'query'>, position: number | undefined, timeoutMs = 2000) {
  if (position === undefined) return true;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ reached: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM events e, projection_checkpoints c
         WHERE e.position = $1 AND c.name = 'catalog'
           AND (e.transaction_id, e.position) <= (c.transaction_id, c.position)) AS reached`,
      [position],
    );
    if (rows[0]!.reached) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
}
