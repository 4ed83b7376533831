import type pg from 'pg';
import { inTransaction } from '#db/postgres.ts';
import { WAKE_CHANNEL, type EventStore, type StoredEvent } from '#events/store.ts';
import type { Projection } from './projection.ts';
import { decodeFor, lockCheckpoint } from './runner.ts';
import { createScratch, dropAbandonedScratch, dropScratch, enterScratch, type Scratch } from './scratch.ts';

const REPLAY_BATCH = 5000;
/** Rounds of committed replay after a live checkpoint that keeps moving, before the short last step. */
const CHASES = 5;

/**
 * Sealed events after `fromSeq` up to `uptoSeq`, a page at a time. Each page is read on another of the
 * pool's connections while the one before it folds: sealed events never change, so any connection
 * reads the same pages (decision 027).
 */
async function* pages(store: EventStore, fromSeq: number, uptoSeq: number): AsyncGenerator<StoredEvent[]> {
  const read = (after: number) => {
    const events = store.readSealed(after, REPLAY_BATCH, store.pool, uptoSeq);
    // a page read ahead and never awaited (the fold before it failed) is no unhandled rejection
    events.catch(() => {});
    return events;
  };
  let next = fromSeq < uptoSeq ? read(fromSeq) : undefined;
  while (next) {
    const events = await next;
    if (events.length === 0) return;
    const seq = events.at(-1)!.seq!;
    next = seq < uptoSeq ? read(seq) : undefined;
    yield events;
  }
}

async function fold(projection: Projection, events: readonly StoredEvent[], db: pg.PoolClient) {
  const relevant = (await decodeFor(projection.name, events, db)).filter((e) => projection.canHandle.includes(e.type));
  if (relevant.length) await projection.apply(relevant, db);
}

/** The live checkpoint as it stands, read without a lock or a transaction id. */
async function checkpointSeq(db: pg.Pool | pg.PoolClient, name: string): Promise<number> {
  const { rows } = await db.query<{ seq: number }>(`SELECT seq FROM projection_checkpoints WHERE name = $1`, [name]);
  return rows[0]?.seq ?? 0;
}

/**
 * Folds sealed events up to the live checkpoint into the scratch schema, one committed transaction per
 * page. A transaction that writes holds back the horizon below which the chain sealer takes events
 * (`readCommitted`), so a replay in one long transaction stopped sealing, and with it the catalog and
 * live delivery, for as long as it ran; a page holds it for a fraction of a second, and its commit
 * wakes the runners, which back off while the horizon is held. The checkpoint moves while the replay
 * runs: it is followed for a few rounds, each shorter than the one before. Returns the seq reached.
 */
async function replayCommitted(store: EventStore, projection: Projection, scratch: Scratch): Promise<number> {
  let reached = 0;
  for (let round = 0; round < CHASES; round++) {
    const live = await checkpointSeq(store.pool, projection.name);
    if (live <= reached) break;
    for await (const events of pages(store, reached, live)) {
      await inTransaction(store.pool, async (db) => {
        await enterScratch(db, scratch);
        await fold(projection, events, db);
        await db.query(`SELECT pg_notify($1, '')`, [WAKE_CHANNEL]);
      });
      reached = events.at(-1)!.seq!;
    }
  }
  return reached;
}

/** Folds the few events from `fromSeq` to `uptoSeq` into the scratch schema inside the caller's transaction. */
async function replayTail(
  store: EventStore,
  projection: Projection,
  scratch: Scratch,
  db: pg.PoolClient,
  fromSeq: number,
  uptoSeq: number,
) {
  if (uptoSeq < fromSeq) throw new Error(`${projection.name}'s checkpoint went back from ${fromSeq} to ${uptoSeq}`);
  await enterScratch(db, scratch);
  for await (const events of pages(store, fromSeq, uptoSeq)) await fold(projection, events, db);
}

/**
 * Rebuilds a read model from the log without stopping the show: the replay runs into a scratch
 * schema in short committed transactions while the live model keeps serving and moving; then, holding
 * the checkpoint for a moment, the last few events are replayed and the rows are swapped in. Readers
 * see the old rows until that transaction commits (DELETE and INSERT, not TRUNCATE, so nobody waits on
 * a table lock).
 *
 * It replays up to the live checkpoint, never further: what lies beyond is the runner's, which also
 * writes the live messages for it. Returns the chain seq the rebuilt model stands at.
 */
export async function rebuild(store: EventStore, projection: Projection): Promise<number> {
  if (!projection.rebuildable) throw new Error(`${projection.name} is never rebuilt`);
  await dropAbandonedScratch(store.pool);
  const scratch = await createScratch(store.pool, projection.tables);
  try {
    const reached = await replayCommitted(store, projection, scratch);
    return await inTransaction(store.pool, async (db) => {
      const { seq: live } = await lockCheckpoint(db, projection.name);
      await replayTail(store, projection, scratch, db, reached, live);
      for (const t of projection.tables) {
        await db.query(`DELETE FROM public.${t}`);
        await db.query(`INSERT INTO public.${t} SELECT * FROM ${scratch.name}.${t}`);
      }
      return live;
    });
  } finally {
    await dropScratch(store.pool, scratch);
  }
}

export type CheckResult = { ok: true } | { ok: false; table: string; difference: string };

/**
 * Replays the log into a scratch schema up to the live checkpoint and compares table by table. The
 * bulk of the replay commits page by page, as rebuild's does; then one REPEATABLE READ snapshot reads
 * the checkpoint, folds the few events since into the scratch and compares, so the live tables are
 * seen exactly at their checkpoint and nothing is locked: the live model goes on moving meanwhile.
 * Nothing of the check is kept, not even the events it would set aside (`quarantined_events` is
 * shadowed in the scratch schema).
 */
export async function check(store: EventStore, projection: Projection): Promise<CheckResult> {
  await dropAbandonedScratch(store.pool);
  const scratch = await createScratch(store.pool, [...projection.tables, 'quarantined_events']);
  try {
    const reached = await replayCommitted(store, projection, scratch);
    const client = await store.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const live = await checkpointSeq(client, projection.name);
      // caught up already, the snapshot writes nothing and so takes no transaction id at all
      if (live !== reached) await replayTail(store, projection, scratch, client, reached, live);
      for (const t of projection.tables) {
        const { rows: diff } = await client.query<{ side: string; row: unknown }>(
          `(SELECT 'live only' AS side, to_jsonb(x) AS row FROM (TABLE public.${t} EXCEPT ALL TABLE ${scratch.name}.${t}) x LIMIT 1)
           UNION ALL
           (SELECT 'replay only', to_jsonb(y) FROM (TABLE ${scratch.name}.${t} EXCEPT ALL TABLE public.${t}) y LIMIT 1)`,
        );
        if (diff[0]) return { ok: false, table: t, difference: `${diff[0].side}: ${JSON.stringify(diff[0].row)}` };
      }
      return { ok: true };
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  } finally {
    await dropScratch(store.pool, scratch);
  }
}
