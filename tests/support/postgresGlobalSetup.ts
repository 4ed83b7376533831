import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '#db/migrate.ts';
import { createPool, startEmbedded } from '#db/postgres.ts';

/**
 * One real PostgreSQL for the run (DATABASE_URL when given, else an embedded one in a temp dir), and
 * on it one database migrated once: each test file's database is a copy of it (freshDatabase), which
 * is much quicker than running every migration again.
 */
export default async function setup(project: TestProject) {
  let url = process.env.DATABASE_URL;
  let stop = async () => {};
  const external = !!url;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-pg-'));
    fs.chmodSync(dir, 0o777);
    const db = await startEmbedded(path.join(dir, 'data'));
    url = db.url;
    stop = async () => {
      await db.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const template = await migratedTemplate(url);
  project.provide('postgresUrl', url);
  project.provide('templateDatabase', template);
  // On the embedded server, whose whole cluster is removed at the end, a file's database is left
  // until then (a DROP DATABASE costs about a second of a busy disk); on an external one it is dropped.
  project.provide('dropDatabases', external);
  return async () => {
    await dropTemplate(url, template);
    await stop();
  };
}

/**
 * A migrated database that only serves as a template. CREATE DATABASE … TEMPLATE refuses while anyone
 * is connected to the template, so it is closed to connections once migrated.
 */
async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = `template_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 1);
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
  await onServer(serverUrl, (c) => c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`));
  return name;
}

async function dropTemplate(serverUrl: string, name: string) {
  await onServer(serverUrl, async (c) => {
    await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
    await c.query(`DROP DATABASE IF EXISTS ${name}`);
  });
}

async function onServer<T>(serverUrl: string, use: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await use(c);
  } finally {
    await c.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** a migrated database to copy (CREATE DATABASE … TEMPLATE), closed to connections */
    templateDatabase: string;
    /** whether a file's database is dropped when it is done with, or left for the end of the run */
    dropDatabases: boolean;
  }
}
