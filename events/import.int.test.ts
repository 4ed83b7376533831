import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveTail } from '#api/realtime/liveTail.ts';
import { catalogProjection } from '#projections/catalog/catalogProjection.ts';
import { GalleryPages } from '#projections/catalog/galleryPage.ts';
import { runEvents } from '../tests/support/commands.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { seeder } from '../tests/support/seedGallery.ts';
import { startTestServer, type TestServer } from '../tests/support/server.ts';
import { waitFor } from '../tests/support/wait.ts';
import { verifyChain } from './chain.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

let t: TestServer;
let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let dir: string;
let file: string;
beforeAll(async () => {
  t = await startTestServer();
  const s = await seeder(t);
  const a1 = await s.artwork({ title: 'First light' });
  await s.artwork({ title: 'Second' });
  const st = await s.story({ content: 'A story with a\nnewline and "quotes"' });
  await s.comment('artworks', a1, 'Lovely!');
  await s.guest('POST', `/api/artworks/${a1}/like`);
  await s.guest('POST', `/api/stories/${st}/like`);
  const pending = (await s.guest('POST', '/api/stories', { content: 'Rejected one', authorName: 'Pat' })).body.id;
  await s.admin('PATCH', `/api/admin/stories/${pending}`, { status: 'rejected', adminNotes: 'not today' });
  // the rendition jobs append their own events: the export must come after them, or the original
  // database would hold events the export lacks
  await waitFor(async () => {
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'ArtworkRenditionsMade'`,
    );
    return rows[0]!.n === 2;
  }, 60_000);
  await waitFor(async () => {
    const { rows } = await t.db.pool.query<{ caught: boolean }>(
      `SELECT catalog_position() = (SELECT count(*) FROM events) AND
              (SELECT count(*) FROM event_chain) = (SELECT count(*) FROM events) AS caught`,
    );
    return rows[0]!.caught;
  }, 60_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-'));
  file = path.join(dir, 'export.ndjson');
  const res = await fetch(`${t.url}/api/admin/events/export`, {
    headers: { 'x-session-token': await t.login('auditor') },
  });
  fs.writeFileSync(file, await res.text());
  fresh = await freshDatabase();
}, 120_000);
afterAll(async () => {
  await t.close();
  await fresh.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const cli = (script: string, args: string[], url: string) => {
  const run = spawnSync(process.execPath, [path.join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dir },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
};
/** `events` in this process (tests/support/commands.ts): the first import above stays a CLI run. */
const events = async (args: string[], url: string) => {
  const run = await runEvents(args, { DATABASE_URL: url, DATA_DIR: dir });
  return { code: run.code, out: run.out + run.err };
};

async function rows(pool: pg.Pool, table: string) {
  const { rows } = await pool.query<{ r: string }>(`SELECT to_jsonb(x)::text AS r FROM ${table} x ORDER BY 1`);
  return rows.map((r) => r.r);
}

describe('events import', () => {
  it('restores an export into an empty database; a rebuild gives the same read models and gallery', async () => {
    // every line but the last, which names the count and the head
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').length - 1;
    const run = cli('scripts/events.ts', ['import', file], fresh.url);
    expect(run.out).toContain(`imported ${lines} events`);
    expect(run.code).toBe(0);

    const check = cli('scripts/projections.ts', ['check'], fresh.url);
    expect(check.out).toContain('equal');
    expect(check.code).toBe(0);
    for (const table of catalogProjection.tables) {
      expect(await rows(fresh.pool, table), table).toEqual(await rows(t.db.pool, table));
    }
    const page = async (pool: pg.Pool) => {
      const { position: _, ...rest } = await new GalleryPages().page(pool, { page: 1, q: '', day: '2025-09-12' });
      return rest;
    };
    const restored = await page(fresh.pool);
    expect(restored.items.length).toBeGreaterThanOrEqual(3);
    expect(restored).toEqual(await page(t.db.pool));

    const source = await verifyChain(t.db.pool);
    expect(await verifyChain(fresh.pool)).toMatchObject({ ok: true, head: source.ok ? source.head : {} });
    // new ids follow the restored ones
    const { rows: next } = await fresh.pool.query(`SELECT nextval('artwork_ids')::int AS id`);
    expect(next[0].id).toBeGreaterThan(
      Math.max(...restored.items.filter((i) => i.kind === 'artwork').map((i) => i.id)),
    );
  });

  it('tells a screen that comes back from before the restored log to refetch, not that it missed nothing (issue 21)', async () => {
    // nothing of the restored log was ever sent live: a catch-up from inside it cannot be whole
    const tail = new LiveTail(fresh.pool, () => {});
    await tail.start();
    try {
      expect(tail.position).toBeGreaterThan(2);
      expect(await tail.missed(1, tail.position, ['everyone'])).toBe('refetch');
    } finally {
      await tail.stop();
    }
  });

  it('refuses a database that already holds events, and an export that does not verify', async () => {
    const again = await events(['import', file], fresh.url);
    expect(again.code).toBe(1);
    expect(again.out).toContain('already holds events');
    const other = await freshDatabase();
    try {
      const broken = path.join(dir, 'broken.ndjson');
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
      fs.writeFileSync(broken, lines.filter((_, i) => i !== 1).join('\n') + '\n');
      const run = await events(['import', broken], other.url);
      expect(run.code).toBe(1);
      expect(run.out).toContain('does not verify: seq 2');
      expect((await other.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(0);

      // cut at a line boundary: every line left is whole and chained, but the end line is gone
      const cut = path.join(dir, 'cut.ndjson');
      fs.writeFileSync(cut, lines.slice(0, 5).join('\n') + '\n');
      const cutRun = await events(['import', cut], other.url);
      expect(cutRun.code).toBe(1);
      expect(cutRun.out).toContain('does not verify: seq 6: the export has no end line');
      expect((await other.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(0);
    } finally {
      await other.drop();
    }
  });
});
