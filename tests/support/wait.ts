/** Polls until the probe gives something truthy, and returns it; fails after the timeout. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until the log holds `count` events of a type (in one stream, if given). A job's event, such
 * as an artwork's renditions or a processed medium, is appended when the job is done: nothing orders
 * it before what a test does next, so a test that reads the log's head or counts events waits for it.
 */
export async function appended(
  pool: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> },
  type: string,
  count: number,
  streamId?: string,
): Promise<void> {
  await waitFor(async () => {
    const { rows } = await pool.query(`SELECT 1 FROM events WHERE type = $1 AND ($2::text IS NULL OR stream_id = $2)`, [
      type,
      streamId ?? null,
    ]);
    return rows.length === count;
  }, 60_000);
}

/**
 * Waits until the catalog projection has read every event now in the log. Events appended one after
 * another may be projected in different batches: a test that saw the read model take the first has
 * not seen it take the next. Counted as the app counts lag (api/observability/metrics.ts): the
 * events in the log against the catalog's chain seq. Not by position: the last event sealed is the last
 * to commit, which need not hold the highest position when several appended at once.
 */
export async function projected(pool: {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}): Promise<void> {
  const { rows } = await pool.query(`SELECT count(*)::bigint::text AS events FROM events`);
  const events = BigInt((rows[0] as { events: string }).events);
  await waitFor(async () => {
    const { rows: at } = await pool.query(
      `SELECT coalesce((SELECT seq FROM projection_checkpoints WHERE name = 'catalog'), 0)::bigint::text AS seq`,
    );
    return BigInt((at[0] as { seq: string }).seq) >= events;
  }, 60_000);
}

/**
 * Wakes a test server's projection runner and waits until the catalog has folded every event now in
 * the log, and the server knows it (its gallery pages are answered at the position it knows, decision
 * 028). A wake alone returns once the events under the snapshot horizon are folded: an event whose
 * transaction is younger than one still open anywhere in the cluster (the sealer's, a job's, another
 * request's) is left for a later pass (projections/runner.ts, `#eventsInFlight`), and a test that read
 * the gallery or the chain's head right after the wake saw the log without it (`gallery.int` in a
 * shuffled run: 35 items of 36).
 */
export async function caughtUp(t: {
  server: {
    runner?: { wake(): Promise<void> };
    deps: { realtime: { reach(position: number, timeoutMs?: number): Promise<boolean>; known: { at: number } } };
  };
  db: { pool: Parameters<typeof projected>[0] };
}): Promise<void> {
  await t.server.runner?.wake();
  await projected(t.db.pool);
  const { rows } = await t.db.pool.query(`SELECT catalog_position()::bigint::text AS at`);
  const position = Number((rows[0] as { at: string }).at);
  const { realtime } = t.server.deps;
  await realtime.reach(position, 30_000);
  if (realtime.known.at < position)
    throw new Error(`the server knows the catalog at ${realtime.known.at}, not ${position}`);
}
