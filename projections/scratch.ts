import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '#db/postgres.ts';

/**
 * A schema of its own where a replay folds beside the live read model. Its name carries the database
 * clock's time of creation (`scratch_<epoch seconds>_<random>`), so a scratch schema left behind by a
 * process that died mid-replay can be told from one still in use by another process.
 */
export interface Scratch {
  name: string;
  /** The tables it holds: the projection's, then any shadowed ones. */
  tables: readonly string[];
}

/**
 * Older than this, a scratch schema is taken for abandoned. A rebuild or check of the whole log runs
 * at over 10,000 events/s (decision 027): six hours would be some 200 million events.
 */
const ABANDONED_AFTER_S = 6 * 3600;
const NAME = /^scratch_(\d+)_[0-9a-f]+$/;

const now = async (db: pg.Pool | pg.PoolClient) =>
  Number(
    (await db.query<{ at: string }>(`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint::text AS at`)).rows[0]!
      .at,
  );

/**
 * Creates the scratch schema with empty copies of `tables`, committed at once so that replays can
 * fold into it in transactions of their own. The copies are unlogged: they are thrown away at the end,
 * and a crash empties them anyway.
 */
export async function createScratch(pool: pg.Pool, tables: readonly string[]): Promise<Scratch> {
  return inTransaction(pool, async (db) => {
    const name = `scratch_${await now(db)}_${randomBytes(6).toString('hex')}`;
    await db.query(`CREATE SCHEMA ${name}`);
    for (const t of tables) await db.query(`CREATE UNLOGGED TABLE ${name}.${t} (LIKE public.${t} INCLUDING ALL)`);
    return { name, tables };
  });
}

/**
 * Puts the scratch schema first on the search path for the rest of this transaction, so a projection's
 * SQL writes there. Its tables are locked first: were the schema gone (dropped as abandoned), the
 * projection's SQL would find the live tables behind it on the path, so a missing table must fail here.
 */
export async function enterScratch(db: pg.PoolClient, scratch: Scratch): Promise<void> {
  await db.query(`SET LOCAL search_path TO ${scratch.name}, public`);
  await db.query(`LOCK TABLE ${scratch.tables.map((t) => `${scratch.name}.${t}`).join(', ')} IN ACCESS SHARE MODE`);
}

export async function dropScratch(pool: pg.Pool, scratch: Scratch): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS ${scratch.name} CASCADE`);
}

/** Drops the scratch schemas of replays that died long ago (a process killed mid-rebuild or mid-check). */
export async function dropAbandonedScratch(pool: pg.Pool): Promise<string[]> {
  const at = await now(pool);
  const { rows } = await pool.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'scratch\\_%'`,
  );
  const abandoned = rows
    .map((r) => r.name)
    .filter((name) => {
      const created = NAME.exec(name)?.[1];
      return created !== undefined && at - Number(created) > ABANDONED_AFTER_S;
    });
  for (const name of abandoned) await pool.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  return abandoned;
}
