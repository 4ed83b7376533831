import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '#db/migrate.ts';
import { createPool, startEmbedded } from '#db/postgres.ts';

/**
 * A real PostgreSQL cluster for each vitest worker, and in each one database migrated once: a test
 * file's database is a copy of it (freshDatabase), much quicker than running every migration again.
 *
 * One cluster per worker, not one for the run: transaction ids and the snapshot horizon
 * (pg_snapshot_xmin, which the chain sealer waits on) are cluster-wide, so a transaction open in one
 * file's database would hold back sealing in a file running beside it. The cluster is made once
 * (initdb and migrations) and its stopped data directory copied for each worker.
 *
 * With DATABASE_URL there is one external server for every worker: vitest.config.ts then runs one
 * file at a time.
 */
export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL;
  if (external) {
    const template = await migratedTemplate(external);
    provide(project, [external], template, true);
    return () => dropTemplate(external, template);
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-pg-'));
  // the embedded server runs as another user when the tests run as root
  fs.chmodSync(dir, 0o777);
  const first = path.join(dir, 'worker-1');
  const made = await startEmbedded(first);
  let template: string;
  try {
    template = await migratedTemplate(made.url);
  } finally {
    await made.stop();
  }
  const workers = Math.max(1, project.globalConfig.maxWorkers);
  for (let i = 2; i <= workers; i++) copyCluster(first, path.join(dir, `worker-${i}`));
  const started = await Promise.allSettled(
    Array.from({ length: workers }, (_, i) => startEmbedded(path.join(dir, `worker-${i + 1}`))),
  );
  const clusters = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    // the ones that did start are stopped, not left running after the run
    await Promise.all(clusters.map((c) => c.stop()));
    throw failed.reason;
  }
  provide(
    project,
    clusters.map((c) => c.url),
    template,
    false,
  );
  return async () => {
    await Promise.all(clusters.map((c) => c.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

function provide(project: TestProject, urls: string[], template: string, dropDatabases: boolean) {
  project.provide('postgresUrls', urls);
  project.provide('templateDatabase', template);
  // On the embedded servers, removed whole at the end, a file's database is left until then (a DROP
  // DATABASE costs about a second of a busy disk); on an external one it is dropped.
  project.provide('dropDatabases', dropDatabases);
}

/**
 * A stopped cluster's data directory and the password file beside it (db/postgres.ts). `cp -a` keeps
 * the owner and modes: run as root, the embedded server's files belong to the postgres user, and
 * PostgreSQL refuses a data directory open to others.
 */
function copyCluster(from: string, to: string) {
  execFileSync('cp', ['-a', from, to]);
  fs.copyFileSync(`${from}.password`, `${to}.password`);
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

async function onServer<T>(serverUrl: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** one server per vitest worker (VITEST_POOL_ID 1 is the first); see serverUrl() */
    postgresUrls: string[];
    /** a migrated database to copy (CREATE DATABASE … TEMPLATE), closed to connections */
    templateDatabase: string;
    /** whether a file's database is dropped when it is done with, or left for the end of the run */
    dropDatabases: boolean;
  }
}
