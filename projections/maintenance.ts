import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '#api/db/postgres.ts';
import { START, type Checkpoint, type EventStore } from '#events/store.ts';
import type { Projection } from './projection.ts';
import { lockCheckpoint } from './runner.ts';

const REPLAY_BATCH = 2000;

async function replay(store: EventStore, projection: Projection, db: pg.PoolClient, until?: Checkpoint) {
  let checkpoint = START;
  for (;;) {
    const events = await store.readAfter(checkpoint, REPLAY_BATCH, db, until);
    if (events.length === 0) return checkpoint;
    const relevant = events.filter((e) => projection.canHandle.includes(e.type));
    if (relevant.length) await projection.apply(relevant, db);
    const last = events.at(-1)!;
    checkpoint = { transactionId: last.transactionId, position: last.position };
  }
}

/** Empties a read model and replays the whole log into it, in one transaction. */
export async function rebuild(store: EventStore, projection: Projection): Promise<Checkpoint> {
  if (!projection.rebuildable) throw new Error(`${projection.name} is never rebuilt`);
  return inTransaction(store.pool, async (db) => {
    await lockCheckpoint(db, projection.name);
    await db.query(`TRUNCATE ${projection.tables.join(', ')}`);
    const reached = await replay(store, projection, db);
    await db.query(
      `UPDATE projection_checkpoints SET transaction_id = $2::xid8, position = $3, updated_at = now() WHERE name = $1`,
      [projection.name, reached.transactionId, reached.position],
    );
    return reached;
  });
}

export type CheckResult = { ok: true } | { ok: false; table: string; difference: string };

/**
 * Replays the log into a scratch schema up to the live checkpoint and compares table by table.
 * The checkpoint row is held FOR SHARE meanwhile, so the live model cannot move under the comparison.
 */
export async function check(store: EventStore, projection: Projection): Promise<CheckResult> {
  const scratch = `check_${randomBytes(6).toString('hex')}`;
  return inTransaction(store.pool, async (db) => {
    await db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [projection.name]);
    const { rows } = await db.query<{ transaction_id: string; position: number }>(
      `SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = $1 FOR SHARE`,
      [projection.name],
    );
    const live = { transactionId: rows[0]!.transaction_id, position: rows[0]!.position };
    await db.query(`CREATE SCHEMA ${scratch}`);
    for (const t of projection.tables) {
      await db.query(`CREATE TABLE ${scratch}.${t} (LIKE public.${t} INCLUDING ALL)`);
    }
    await db.query(`SET LOCAL search_path TO ${scratch}, public`);
    await replay(store, projection, db, live);
    try {
      for (const t of projection.tables) {
        const { rows: diff } = await db.query<{ side: string; row: unknown }>(
          `(SELECT 'live only' AS side, to_jsonb(x) AS row FROM (TABLE public.${t} EXCEPT ALL TABLE ${scratch}.${t}) x LIMIT 1)
           UNION ALL
           (SELECT 'replay only', to_jsonb(y) FROM (TABLE ${scratch}.${t} EXCEPT ALL TABLE public.${t}) y LIMIT 1)`,
        );
        if (diff[0]) return { ok: false, table: t, difference: `${diff[0].side}: ${JSON.stringify(diff[0].row)}` };
      }
      return { ok: true };
    } finally {
      await db.query(`SET LOCAL search_path TO public`);
      await db.query(`DROP SCHEMA ${scratch} CASCADE`);
    }
  });
}
