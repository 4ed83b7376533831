import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '#db/postgres.ts';

/**
 * The PostgreSQL server of this vitest worker (tests/support/postgresGlobalSetup.ts): files running
 * at the same time never share a cluster, so neither its transaction ids nor its snapshot horizon.
 */
export function serverUrl(): string {
  const urls = inject('postgresUrls');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return urls[(worker - 1) % urls.length]!;
}

/**
 * A new, migrated database of its own for one test file, on this worker's server: a copy of the
 * template the global setup migrated.
 */
export async function freshDatabase(): Promise<{ url: string; pool: pg.Pool; drop(): Promise<void> }> {
  const base = new URL(serverUrl());
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
