import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '#db/migrate.ts';
import { createPool } from '#db/postgres.ts';

/** A new, migrated database of its own for one test file, on the run's shared server. */
export async function freshDatabase(): Promise<{ url: string; pool: pg.Pool; drop(): Promise<void> }> {
  const base = new URL(inject('postgresUrl'));
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 30);
  await migrate(pool);
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
