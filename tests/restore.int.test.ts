import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '#api/server.ts';
import { freePort } from '#db/postgres.ts';
import { seeder } from './support/seedGallery.ts';
import { client, PASSWORDS, testConfig, type TestServer } from './support/server.ts';
import { waitFor } from './support/wait.ts';

/**
 * The restore the README describes (CONTRACT §9, issue 21): `pg_dump -Fc` of a cluster that has used
 * many more transaction ids than a fresh one, `pg_restore` into the empty database of a fresh stack,
 * then the stack starts on it. Real PostgreSQL binaries of one version on both sides (pg_dump
 * cannot dump a newer server): Debian's, which `.ci/run` installs where they are missing.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** The newest PostgreSQL (14 or later, as the app supports) whose server and dump tools are installed. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => Number(v) >= 14 && fs.existsSync(path.join(base, v, 'bin/pg_dump')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error('no PostgreSQL 14+ with pg_dump under /usr/lib/postgresql: run .ci/run');
  return path.join(base, versions[0], 'bin');
}

const BIN = postgresBin();
/** PostgreSQL refuses to run as root: the tools run as its own user then. */
const asPostgres = process.getuid?.() === 0;

function tool(name: string, args: string[]) {
  const [cmd, argv] = asPostgres
    ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, name), ...args]]
    : [path.join(BIN, name), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

interface Cluster {
  url: string;
  stop(): void;
}

async function cluster(dir: string, init: (data: string) => void = () => {}): Promise<Cluster> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o777 });
  fs.chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C']);
  init(data);
  const port = await freePort();
  tool('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE tribute');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/tribute`,
    stop: () => void tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
  };
}

async function start(url: string, dataDir: string): Promise<TestServer & { server: RunningServer }> {
  const server = await startServer(testConfig(url, dataDir, {}), 'all');
  const base = `http://127.0.0.1:${server.port}`;
  return {
    url: base,
    server,
    dataDir,
    db: undefined as never,
    async login(role) {
      const res = await client(base)('POST', '/api/auth/login', { password: PASSWORDS[role] });
      return (res.body as { sessionToken: string }).sessionToken;
    },
    close: () => server.close(),
  };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

const verifyCli = (url: string, dataDir: string) => {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/events.ts'), 'verify'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
};

describe('a logical backup restored into a fresh cluster (pg_dump -Fc, pg_restore)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-restore-'));
  fs.chmodSync(work, 0o777);
  const clusters: Cluster[] = [];
  let target: Cluster;
  let storyId: number;
  let sourceXid: bigint;

  beforeAll(async () => {
    // the old cluster has used 16.8 million transaction ids (pg_resetwal moves its counter there)
    const source = await cluster(path.join(work, 'source'), (data) =>
      tool('pg_resetwal', ['-x', String(0x1000000), '-D', data]),
    );
    clusters.push(source);
    const before = await start(source.url, fs.mkdtempSync(path.join(work, 'source-data-')));
    const seed = await seeder(before);
    storyId = await seed.story({ title: 'Harbour', content: 'The day we met.' });
    expect((await seed.guest('POST', `/api/stories/${storyId}/likes`)).body).toMatchObject({ likeCount: 1 });
    await before.close();
    sourceXid = BigInt(
      (await query<{ x: string }>(source.url, `SELECT max(transaction_id)::text AS x FROM events`))[0]!.x,
    );
    fs.chmodSync(work, 0o777);
    tool('pg_dump', ['-Fc', '-d', source.url, '-f', path.join(work, 'tribute.dump')]);

    // a fresh stack with only its database started: the dump goes into the empty database, and the
    // app starts after (pg_restore --clean over a migrated database fails on pg-boss's partitions)
    target = await cluster(path.join(work, 'target'));
    clusters.push(target);
    tool('pg_restore', ['--exit-on-error', '-d', target.url, path.join(work, 'tribute.dump')]);
  });

  afterAll(() => {
    for (const c of clusters) c.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('keeps sealing: a like folds at once, live and in the answer, and events verify passes', async () => {
    const targetXid = BigInt((await query<{ x: string }>(target.url, `SELECT pg_current_xact_id()::text AS x`))[0]!.x);
    expect(targetXid).toBeLessThan(sourceXid);

    const after = await start(target.url, path.join(work, 'target-data'));
    try {
      const guest = client(after.url, await after.login('guest'));
      const liked = await guest('POST', `/api/stories/${storyId}/likes`);
      expect(liked.status).toBe(200);
      expect(liked.body).toMatchObject({ likeCount: 2 });
      const sealed = await waitFor(async () => {
        const rows = await query<{ unsealed: number }>(
          target.url,
          `SELECT count(*)::int AS unsealed FROM events e LEFT JOIN event_chain c ON c.position = e.position
           WHERE c.position IS NULL`,
        );
        return rows[0]!.unsealed === 0;
      });
      expect(sealed).toBe(true);
    } finally {
      await after.close();
    }
    const verified = verifyCli(target.url, path.join(work, 'target-data'));
    expect(verified.out).toMatch(/^ok: \d+ events checked/m);
    expect(verified.code).toBe(0);
  }, 120_000);
});
