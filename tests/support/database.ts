import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '#db/postgres.ts';

/**
 * A new, migrated database of its own for one test file, on the run's shared server: a copy of the
 * template the global setup migrated (tests/support/postgresGlobalSetup.ts).
 */
export async function freshDatabase(): Promise<{ url: string; pool: pg.Pool; drop(): Promise<void> }> {
  const base = new URL(inject('postgresUrl'));
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 30);
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      if (!inject('dropDatabases')) return;
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
