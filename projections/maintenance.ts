import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '#db/postgres.ts';
import type { EventStore } from '#events/store.ts';
import type { Projection } from './projection.ts';
import { decodeFor, lockCheckpoint } from './runner.ts';

const REPLAY_BATCH = 5000;

/**
 * Folds sealed events after `fromSeq` up to `uptoSeq` into the tables on the search path. Each page
 * is read on another of the pool's connections while the one before it folds: sealed events never
 * change, so any connection reads the same pages (decision 027).
 */
async function replay(store: EventStore, projection: Projection, db: pg.PoolClient, fromSeq: number, uptoSeq: number) {
  const page = (after: number) => {
    const events = store.readSealed(after, REPLAY_BATCH, store.pool, uptoSeq);
    // a page read ahead and never awaited (the fold before it failed) is no unhandled rejection
    events.catch(() => {});
    return events;
  };
  let seq = fromSeq;
  let next = seq < uptoSeq ? page(seq) : undefined;
  while (next) {
    const events = await next;
    if (events.length === 0) break;
    seq = events.at(-1)!.seq!;
    next = seq < uptoSeq ? page(seq) : undefined;
    const relevant = (await decodeFor(projection.name, events, db)).filter((e) =>
      projection.canHandle.includes(e.type),
    );
    if (relevant.length) await projection.apply(relevant, db);
  }
  return seq;
}

async function liveSeq(db: pg.PoolClient, name: string): Promise<number> {
  await db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [name]);
  const { rows } = await db.query<{ seq: number }>(`SELECT seq FROM projection_checkpoints WHERE name = $1`, [name]);
  return rows[0]!.seq;
}

async function createScratch(db: pg.PoolClient, projection: Projection): Promise<string> {
  const scratch = `scratch_${randomBytes(6).toString('hex')}`;
  await db.query(`CREATE SCHEMA ${scratch}`);
  for (const t of projection.tables) await db.query(`CREATE TABLE ${scratch}.${t} (LIKE public.${t} INCLUDING ALL)`);
  return scratch;
}

/** Runs `work` with the scratch schema first on the search path, so the projection's SQL writes there. */
async function inScratch<T>(db: pg.PoolClient, scratch: string, work: () => Promise<T>): Promise<T> {
  await db.query(`SET LOCAL search_path TO ${scratch}, public`);
  try {
    return await work();
  } finally {
    await db.query(`SET LOCAL search_path TO public`);
  }
}

/**
 * Rebuilds a read model from the log without stopping the show: the replay runs into a scratch
 * schema while the live model keeps serving and moving; then, holding the checkpoint for a moment,
 * the last few events are replayed and the rows are swapped in. Readers see the old rows until that
 * transaction commits (DELETE and INSERT, not TRUNCATE, so nobody waits on a table lock).
 *
 * It replays up to the live checkpoint, never further: what lies beyond is the runner's, which also
 * writes the live messages for it. Returns the chain seq the rebuilt model stands at.
 */
export async function rebuild(store: EventStore, projection: Projection): Promise<number> {
  if (!projection.rebuildable) throw new Error(`${projection.name} is never rebuilt`);
  const { scratch, reached } = await inTransaction(store.pool, async (db) => {
    const scratch = await createScratch(db, projection);
    const upto = await liveSeq(db, projection.name);
    return { scratch, reached: await inScratch(db, scratch, () => replay(store, projection, db, 0, upto)) };
  });
  try {
    return await inTransaction(store.pool, async (db) => {
      const { seq: live } = await lockCheckpoint(db, projection.name);
      await inScratch(db, scratch, () => replay(store, projection, db, reached, live));
      for (const t of projection.tables) {
        await db.query(`DELETE FROM public.${t}`);
        await db.query(`INSERT INTO public.${t} SELECT * FROM ${scratch}.${t}`);
      }
      return live;
    });
  } finally {
    await store.pool.query(`DROP SCHEMA IF EXISTS ${scratch} CASCADE`);
  }
}

export type CheckResult = { ok: true } | { ok: false; table: string; difference: string };

/**
 * Replays the log into a scratch schema up to the live checkpoint and compares table by table. One
 * REPEATABLE READ snapshot sees the live tables exactly at their checkpoint, so nothing is locked:
 * the live model goes on moving while the comparison runs.
 */
export async function check(store: EventStore, projection: Projection): Promise<CheckResult> {
  const client = await store.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const live = await liveSeq(client, projection.name);
    const scratch = await createScratch(client, projection);
    await inScratch(client, scratch, () => replay(store, projection, client, 0, live));
    for (const t of projection.tables) {
      const { rows: diff } = await client.query<{ side: string; row: unknown }>(
        `(SELECT 'live only' AS side, to_jsonb(x) AS row FROM (TABLE public.${t} EXCEPT ALL TABLE ${scratch}.${t}) x LIMIT 1)
         UNION ALL
         (SELECT 'replay only', to_jsonb(y) FROM (TABLE ${scratch}.${t} EXCEPT ALL TABLE public.${t}) y LIMIT 1)`,
      );
      if (diff[0]) return { ok: false, table: t, difference: `${diff[0].side}: ${JSON.stringify(diff[0].row)}` };
    }
    return { ok: true };
  } finally {
    // nothing of the check is kept: the scratch schema goes with the transaction
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}
