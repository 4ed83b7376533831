import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { inTransaction } from './postgres.ts';

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../migrations');
const MIGRATION_LOCK = 7_301_001;

/** Applies each numbered SQL file once, in order, recording it in schema_migrations. */
export async function migrate(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: string }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const fresh = files.filter((f) => !applied.has(f));
    for (const file of fresh) {
      await client.query(fs.readFileSync(path.join(dir, file), 'utf8'));
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
    }
    // a database restored from a cluster that had used more transaction ids opens a new era of the
    // log here, before anything reads the order (decision 076)
    const { rows: era } = await client.query<{ known: boolean }>(`SELECT to_regproc('log_era') IS NOT NULL AS known`);
    if (era[0]!.known) await client.query('SELECT log_era()');
    return fresh;
  });
}
