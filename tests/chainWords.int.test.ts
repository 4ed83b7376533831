import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '#events/chain.ts';
import { exportNdjson } from '#events/export.ts';
import { verifyExportFile } from '#events/verifyFile.ts';
import { runEvents } from './support/commands.ts';
import { freshDatabase } from './support/database.ts';
import { client, PASSWORDS, startTestServer, type TestServer } from './support/server.ts';
import { waitFor } from './support/wait.ts';

/**
 * The chain covers the words (CONTRACT §6 and §9, issue 21, decision 077): a title, a story and an
 * "approved by" name live outside the log, but each link holds the salted commitment of every value
 * its event refers to. An edit in place fails verify; an erasure verifies as erased, in the
 * database, in an export and after an import.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

let t: TestServer;
let storyId: number;

async function tamper(sql: string, params: unknown[] = []) {
  const c: pg.PoolClient = await t.db.pool.connect();
  try {
    await c.query(`SET session_replication_role = replica`);
    await c.query(sql, params);
  } finally {
    await c.query(`RESET session_replication_role`);
    c.release();
  }
}

const cli = (args: string[], url = t.db.url) => {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/events.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: t.dataDir },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
};
/** The same command in this process (tests/support/commands.ts): `import` above stays a CLI run. */
const events = async (args: string[], url = t.db.url) => {
  const run = await runEvents(args, { NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: t.dataDir });
  return { code: run.code, out: run.out + run.err };
};

async function exportTo(file: string) {
  const out = fs.createWriteStream(file);
  await exportNdjson(t.db.pool, out);
  await new Promise((resolve) => out.end(resolve));
}

const allSealed = () =>
  waitFor(async () => {
    const { rows } = await t.db.pool.query<{ left: number }>(
      `SELECT count(*)::int AS left FROM events e LEFT JOIN event_chain c ON c.position = e.position
       WHERE c.position IS NULL`,
    );
    return rows[0]!.left === 0;
  });

beforeAll(async () => {
  t = await startTestServer();
  const guest = client(t.url, await t.login('guest'));
  const story = await guest('POST', '/api/stories', {
    title: 'Harbour',
    content: 'The day we met at the harbour.',
    authorName: 'Robin Writer',
    email: 'robin@example.com',
    isAnonymous: false,
  });
  expect(story.status).toBe(201);
  storyId = story.body.id;
  const login = await client(t.url)('POST', '/api/auth/login', { password: PASSWORDS.admin, name: 'Alex Admin' });
  const admin = client(t.url, login.body.sessionToken);
  expect((await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' })).status).toBe(200);
  await allSealed();
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('an edit in place of a personal value', () => {
  it.each([
    ['a title', 'title', 'Harbour', 'titleRef'],
    ['a story', 'content', 'The day we met at the harbour.', 'contentRef'],
    ['an "approved by" name', 'name', 'Alex Admin', 'actorRef'],
  ])('of %s fails verify, naming the event', async (_what, kind, value, ref) => {
    expect(await verifyChain(t.db.pool)).toMatchObject({ ok: true, uncommitted: 0 });
    await tamper(`UPDATE personal_data SET value = 'Mallory was here' WHERE kind = $1 AND value = $2`, [kind, value]);
    try {
      const result = await verifyChain(t.db.pool);
      expect(result).toMatchObject({ ok: false, reason: `personal value edited (${ref})` });
      const cliRun = await events(['verify']);
      expect(cliRun.code).toBe(1);
      expect(cliRun.out).toContain(`personal value edited (${ref})`);
    } finally {
      await tamper(`UPDATE personal_data SET value = $2 WHERE kind = $1 AND value = 'Mallory was here'`, [kind, value]);
    }
  });

  it('in an export fails verify --file, though the value is not in the hash', async () => {
    const file = path.join(t.dataDir, 'words.ndjson');
    await exportTo(file);
    expect(await verifyExportFile(file)).toMatchObject({ ok: true });
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"Harbour"', '"Mallory"'));
    expect(await verifyExportFile(file)).toMatchObject({ ok: false, reason: 'personal value edited (titleRef)' });
  });
});

describe('an erasure', () => {
  it('verifies as erased: in the database, in an export, and in a database imported from it', async () => {
    expect((await events(['erase', '--email', 'robin@example.com'])).code).toBe(0);
    expect((await events(['erase', '--name', 'Alex Admin'])).code).toBe(0);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM personal_data WHERE value IN ('Harbour', 'Alex Admin', 'The day we met at the harbour.')`,
    );
    expect(rows[0]!.n).toBe(0);
    await allSealed();
    expect(await verifyChain(t.db.pool)).toMatchObject({ ok: true });

    const file = path.join(t.dataDir, 'erased.ndjson');
    await exportTo(file);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('Harbour');
    expect(text).not.toContain('Alex Admin');
    expect(await verifyExportFile(file)).toMatchObject({ ok: true });

    const fresh = await freshDatabase();
    try {
      const run = cli(['import', file], fresh.url);
      expect(run.out).toContain('imported');
      expect(run.code).toBe(0);
      expect(await verifyChain(fresh.pool)).toMatchObject({ ok: true, uncommitted: 0 });
    } finally {
      await fresh.drop();
    }
  });
});
