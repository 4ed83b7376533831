import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '#api/server.ts';
import { freshDatabase } from './support/database.ts';
import { jpegDataUrl } from './support/images.ts';
import { ADMIN_KEY, client, PASSWORDS, startTestServer, testConfig, type TestServer } from './support/server.ts';
import { appended, waitFor } from './support/wait.ts';

/**
 * Issue 21, decision 112: a backup export carries what an erasure needs. A gallery is exported with
 * `events export`, imported into a fresh database, and two people are erased there by email: one
 * whose artwork is in the gallery, one whose story the admin had deleted before the export. Nothing
 * of either is left on the screens, in any table or in the keepsake; a colleague who wrote from the
 * same browser under another name keeps their comment.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const MARGUERITE = {
  email: 'Marguerite.Oakhollow@example.com',
  name: 'Marguerite Oakhollow',
  title: 'Quincunx Of Amber Gulls',
  description: 'Drawn in the stairwell between two budget meetings',
  comment: 'Velvet thunder over the allotments, wonderful',
};
const OTTOLINE = {
  email: 'ottoline.vantwist@example.com',
  name: 'Ottoline Vantwist',
  story: 'The spring the fax machine fell in love with the shredder',
  comment: 'Gloriously crooked marmalade memories',
};
const WORDS = [...Object.values(MARGUERITE), ...Object.values(OTTOLINE)];
const STAYS = 'Another colleague at the same kiosk';

let source: TestServer;
let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let restored: RunningServer;
let restoredUrl = '';
let dir: string;
let restoredData: string;
const ids = { host: 0, artwork: 0, story: 0 };

const cli = (args: string[], url: string, dataDir: string, script = 'events') => {
  const run = spawnSync(process.execPath, [path.join(ROOT, `scripts/${script}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, TRIBUTE_NAME: 'Alex' },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
};

async function caughtUp(pool: pg.Pool) {
  await waitFor(async () => {
    const { rows } = await pool.query<{ caught: boolean }>(
      `SELECT (SELECT count(*) FROM event_chain) = (SELECT count(*) FROM events)
         AND catalog_position() = (SELECT count(*) FROM event_chain) AS caught`,
    );
    return rows[0]!.caught;
  }, 60_000);
}

/** Every row of every table, as text. */
async function databaseText(pool: pg.Pool): Promise<string> {
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await pool.query<{ r: string }>(`SELECT x::text AS r FROM ${name} x`);
    parts.push(`${name}:`, ...rows.map((r) => r.r));
  }
  return parts.join('\n');
}

const wordsIn = (text: string) => WORDS.filter((w) => text.toLowerCase().includes(w.toLowerCase()));

async function login(url: string, role: keyof typeof PASSWORDS) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORDS[role] }),
  });
  return ((await res.json()) as { sessionToken: string }).sessionToken;
}

/** What a guest's screens show: the gallery, the host story's comments and both people's item pages. */
async function screens(url: string) {
  const guest = client(url, await login(url, 'guest'));
  return [
    await guest('GET', '/api/gallery'),
    await guest('GET', `/api/stories/${ids.host}/comments`),
    await guest('GET', `/api/artworks/${ids.artwork}`),
    await guest('GET', `/api/stories/${ids.story}`),
  ];
}

beforeAll(async () => {
  source = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erasure-import-'));
  const admin = client(source.url, await source.login('admin'));
  // one browser, a kiosk, that three colleagues send from under their own names
  const kiosk = client(source.url, await source.login('guest'));
  const host = await kiosk('POST', '/api/stories', {
    content: 'A story everyone comments on',
    authorName: 'Host Person',
    email: 'host@example.com',
  });
  ids.host = host.body.id;
  const artwork = await kiosk('POST', '/api/artworks', {
    title: MARGUERITE.title,
    description: MARGUERITE.description,
    artistName: MARGUERITE.name,
    email: MARGUERITE.email,
    imageData: await jpegDataUrl(64, 48, '#aa7733'),
    isFromCanvas: 'false',
  });
  expect(artwork.status).toBe(201);
  ids.artwork = artwork.body.id;
  const story = await kiosk('POST', '/api/stories', {
    content: OTTOLINE.story,
    authorName: OTTOLINE.name,
    email: OTTOLINE.email,
  });
  ids.story = story.body.id;
  for (const [kind, id] of [
    ['stories', ids.host],
    ['artworks', ids.artwork],
    ['stories', ids.story],
  ] as const) {
    expect((await admin('PATCH', `/api/admin/${kind}/${id}`, { status: 'approved' })).status).toBe(200);
  }
  for (const [authorName, content] of [
    [MARGUERITE.name, MARGUERITE.comment],
    [OTTOLINE.name, OTTOLINE.comment],
    ['Someone Else', STAYS],
  ]) {
    const posted = await kiosk('POST', `/api/stories/${ids.host}/comments`, { authorName, content });
    expect(posted.status).toBe(201);
  }
  // Ottoline's story leaves before the export: only a digest of her name is kept (decision 085)
  const deleted = await admin('DELETE', `/api/stories/${ids.story}`, undefined, { authorization: ADMIN_KEY });
  expect(deleted.status).toBe(200);
  await appended(source.db.pool, 'ArtworkRenditionsMade', 1);
  await caughtUp(source.db.pool);

  const exported = cli(['export'], source.db.url, source.dataDir);
  expect(exported.code, exported.err).toBe(0);
  const file = path.join(dir, 'backup.ndjson');
  fs.writeFileSync(file, exported.out);

  // the README's restore: a fresh database, the import, the blobs copied back, then the server
  fresh = await freshDatabase();
  restoredData = path.join(dir, 'data');
  fs.cpSync(path.join(source.dataDir, 'blobs'), path.join(restoredData, 'blobs'), { recursive: true });
  const imported = cli(['import', file], fresh.url, restoredData);
  expect(imported.code, imported.out + imported.err).toBe(0);
  restored = await startServer(testConfig(fresh.url, restoredData, {}), 'all');
  restoredUrl = `http://127.0.0.1:${restored.port}`;
  await caughtUp(fresh.pool);
}, 180_000);

afterAll(async () => {
  await restored?.close();
  await fresh?.drop();
  await source?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('erasing by email after an import (issue 21, decision 112)', () => {
  it('the restored gallery shows what both wrote until they are erased', async () => {
    const shown = JSON.stringify((await screens(restoredUrl)).map((s) => s.body));
    expect(shown).toContain(MARGUERITE.title);
    expect(shown).toContain(MARGUERITE.comment);
    expect(shown).toContain(OTTOLINE.comment);
  });

  it('the backup names no email and the audit download carries no finders', async () => {
    const backup = fs.readFileSync(path.join(dir, 'backup.ndjson'), 'utf8').toLowerCase();
    expect(backup).toContain('"finders"');
    for (const email of [MARGUERITE.email, OTTOLINE.email, 'host@example.com']) {
      expect(backup).not.toContain(email.toLowerCase());
    }
    const audit = await fetch(`${source.url}/api/admin/events/export`, {
      headers: { 'x-session-token': await source.login('auditor') },
    });
    expect(await audit.text()).not.toContain('"finders"');
  });

  it('leaves nothing of either on the screens, in the read models or in the keepsake', async () => {
    const admin = client(restoredUrl, await login(restoredUrl, 'admin'));
    for (const email of [MARGUERITE.email.toLowerCase(), OTTOLINE.email.toUpperCase()]) {
      const erased = await admin('POST', '/api/admin/erase', { email });
      expect(erased.status).toBe(200);
    }
    await caughtUp(fresh.pool);

    const seen = await screens(restoredUrl);
    expect(wordsIn(JSON.stringify(seen.map((s) => s.body)))).toEqual([]);
    const comments = seen[1]!.body as Array<{ content: string }>;
    expect(comments.map((c) => c.content)).toEqual([STAYS]);
    expect(seen[2]!.status).toBe(404);

    expect(wordsIn(await databaseText(fresh.pool))).toEqual([]);

    const zip = path.join(dir, 'keepsake.zip');
    const made = cli(['--out', zip], fresh.url, restoredData, 'keepsake');
    expect(made.code, made.err).toBe(0);
    const unzipped = spawnSync('unzip', ['-p', zip], { maxBuffer: 1 << 28 });
    expect(unzipped.status).toBe(0);
    expect(wordsIn(unzipped.stdout.toString('utf8'))).toEqual([]);
    // and the colleague's comment is in it: the keepsake was read
    expect(unzipped.stdout.toString('utf8')).toContain(STAYS);

    // a new export of the restored log holds none of them either, and verifies
    const again = cli(['export'], fresh.url, restoredData);
    expect(wordsIn(again.out)).toEqual([]);
    const file = path.join(dir, 'again.ndjson');
    fs.writeFileSync(file, again.out);
    expect(cli(['verify', '--file', file], fresh.url, restoredData).code).toBe(0);
    // four command-line runs (keepsake, export, verify) and two erasures: minutes on a loaded machine
  }, 240_000);
});
