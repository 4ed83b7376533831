import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pseudonyms } from '#api/engagement/pseudonyms.ts';
import type { Kind } from '#projections/catalog/items.ts';
import { freshDatabase, serverUrl } from '../tests/support/database.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

function run(file: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, file), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK_LINE = /^\s+at /m;

describe('every command', () => {
  it.each([
    ['api/main.ts', 'usage: node api/main.ts'],
    ['scripts/start.ts', 'usage: node api/main.ts'],
    ['scripts/events.ts', 'usage: npm run events'],
    ['scripts/projections.ts', 'usage: npm run projections'],
    ['scripts/migrate.ts', 'usage: npm run migrate'],
    ['scripts/seed.ts', 'usage: npm run seed'],
    ['scripts/healthcheck.ts', 'usage: node scripts/healthcheck.ts'],
  ])('%s --help prints its usage and exits 0', async (file, first) => {
    const result = await run(file, ['--help']);
    expect(result.stdout).toContain(first);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.code).toBe(0);
  });

  it('refuses to start with a time zone that does not exist, naming it, without a stack trace', async () => {
    const result = await run('api/main.ts', ['--role', 'api'], {
      TZ: 'Mars/Base',
      DATABASE_URL: 'postgres://x@127.0.0.1:1/none',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('TZ: is not a time zone');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('names every bad setting at once', async () => {
    const result = await run('api/main.ts', [], {
      PORT: 'eighty',
      TRUST_PROXY: 'proxy.local',
      TRIBUTE_BIRTHDAY: '2025-02-30',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PORT: .*number/);
    expect(result.stderr).toContain('TRUST_PROXY: "proxy.local" is not a hop count');
    expect(result.stderr).toContain('TRIBUTE_BIRTHDAY: is not a real calendar date');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('refuses an unknown NODE_ENV and guessable or shared production secrets, exit 2, one line each', async () => {
    const prod = await run('api/main.ts', [], { NODE_ENV: 'prod', DATABASE_URL: 'postgres://x@127.0.0.1:1/none' });
    expect(prod.code).toBe(2);
    expect(prod.stderr).toContain('NODE_ENV: "prod" is not one this program knows (production, development, test)');
    const weak = await run('api/main.ts', [], {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x@127.0.0.1:1/none',
      GALLERY_PASSWORD: 'violet-harbour-lantern',
      ADMIN_PASSWORD: 'Password123!',
      AUDITOR_PASSWORD: 'violet-harbour-lantern',
      ADMIN_KEY: 'hV3xQ9tLr0ZcPb7WmK2eYs8N',
    });
    expect(weak.code).toBe(2);
    const lines = weak.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('  '))).toEqual([
      expect.stringMatching(/^ {2}ADMIN_PASSWORD is guessable: .*score 1/),
      '  GALLERY_PASSWORD and AUDITOR_PASSWORD must differ',
    ]);
    expect(weak.stderr).not.toMatch(STACK_LINE);
  });

  it('answers an unknown option with the usage, exit 2', async () => {
    const result = await run('api/main.ts', ['--rol', 'api']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--rol'");
    expect(result.stderr).toContain('usage: node api/main.ts');
    expect(result.stderr).not.toMatch(STACK_LINE);
    const seed = await run('scripts/seed.ts', ['--stories', 'many']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain('--stories must be a whole number');
    expect(seed.stderr).not.toMatch(STACK_LINE);
  });
});

describe('npm run migrate', () => {
  it('migrates an empty database once, then finds it up to date', async () => {
    const base = new URL(serverUrl());
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    try {
      const first = await run('scripts/migrate.ts', [], { DATABASE_URL: url.toString() });
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^applied 001_/);
      const again = await run('scripts/migrate.ts', [], { DATABASE_URL: url.toString() });
      expect(again.stdout).toContain('the database is up to date');
      expect(again.code).toBe(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('npm run seed', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(() => db.drop());

  it('makes every kind, with likes and comments, as ordinary events', async () => {
    const result = await run(
      'scripts/seed.ts',
      ['--artworks', '2', '--stories', '33', '--media', '2', '--likes', '9', '--comments', '4', '--pending', '1'],
      { DATABASE_URL: db.url, DATA_DIR: path.join(ROOT, '.tmp', `seed-${process.pid}`) },
    );
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('seeded 2 artworks, 33 stories, 2 media (34 approved), 9 likes, 4 comments');
    const { rows } = await db.pool.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM events GROUP BY type`,
    );
    const by = Object.fromEntries(rows.map((r) => [r.type, r.n]));
    expect(by).toMatchObject({
      ArtworkSubmitted: 2,
      ArtworkApproved: 1,
      // more than one visitor may write in an hour: the seed changes visitors as a crowd would
      StorySubmitted: 33,
      StoryApproved: 32,
      MediaSubmitted: 2,
      MediaApproved: 1,
      ItemLiked: 9,
      CommentPosted: 4,
    });
    // nine likes over 34 approved items: one visitor, never the same item twice; the log names each
    // like by a per-item pseudonym (decision 050), so the one visitor is found by recomputing them
    const likes = await db.pool.query<{ kind: Kind; item_id: number; key: string }>(
      `SELECT data->>'kind' AS kind, (data->>'itemId')::int AS item_id, data->>'visitorKey' AS key
         FROM events WHERE type = 'ItemLiked'`,
    );
    expect(new Set(likes.rows.map((r) => `${r.kind}-${r.item_id}`)).size).toBe(9);
    const sessions = await db.pool.query<{ id: string }>(`SELECT DISTINCT visitor_id::text AS id FROM sessions`);
    const pseudonyms = new Pseudonyms(db.pool);
    const likers: string[] = [];
    for (const { id } of sessions.rows) {
      const keys = await Promise.all(likes.rows.map((r) => pseudonyms.of(`v${id}`, r.kind, r.item_id)));
      if (keys.every((key, i) => key === likes.rows[i]!.key)) likers.push(id);
    }
    expect(likers).toHaveLength(1);
  });
});
