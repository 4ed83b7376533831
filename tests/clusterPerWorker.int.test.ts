import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { serverUrl } from './support/database.ts';

/**
 * Test files run two at a time (vitest.config.ts) because each vitest worker has a PostgreSQL cluster
 * of its own: the chain sealer waits for pg_snapshot_xmin, which is cluster-wide, so a transaction
 * open in one file's database must not hold back the horizon of a file running beside it.
 */
describe('a PostgreSQL cluster per vitest worker', () => {
  const urls = () => inject('postgresUrls');

  it('gives each worker a server of its own, so no two files running at once share a cluster', async () => {
    expect(urls()).toContain(serverUrl());
    if (process.env.DATABASE_URL) return expect(urls()).toEqual([process.env.DATABASE_URL]);
    const directories = await Promise.all(urls().map((url) => query(url, 'SHOW data_directory')));
    expect(new Set(directories.map((rows) => rows[0]!.data_directory)).size).toBe(urls().length);
  });
});

async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}
