import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '#api/observability/logger.ts';
import { PersonalData } from '#api/personalData.ts';
import { EventStore } from '#events/store.ts';
import { runEvents, runProjections } from './support/commands.ts';
import { jpegDataUrl } from './support/images.ts';
import { makeTestMedia, removeTestMedia } from './support/media.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from './support/server.ts';
import { appended, waitFor } from './support/wait.ts';

/**
 * Issue 13's erase test (docs/decisions/050): a person with a named artwork, an anonymous story,
 * comments and likes is erased; afterwards no table, export, history answer, job payload or log line
 * holds any of their personal fields, the chain still verifies, and the anonymous story is still in
 * the gallery as 'Anonymous'.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PERSON = {
  email: 'ysolde.brightwater@example.com',
  name: 'Ysolde Brightwater',
  title: 'Zephyr Lanterns Over Qarth',
  description: 'Painted from a memory of the quay at dusk, for Ysolde’s favourite colleague',
  tags: 'quillfeather-lanterns',
  comment: 'Marvellous brushwork on this one, truly vermilion',
  ownComment: 'My own lantern piece, thank you all kindly',
};
const PERSONAL = Object.values(PERSON);
const ANONYMOUS_STORY = 'The photocopier that only worked when Alex hummed at it';

const logged: string[] = [];
const streamSym = pino.symbols.streamSym as unknown as keyof typeof log;
const originalStream = log[streamSym] as unknown as { write(line: string): void };
const originalLevel = log.level;

let t: TestServer;
let dir: string;
const ids = { artwork: 0, story: 0, other: 0, media: 0 };
let uploadKey = '';
let beforeErasureSeq = 0;
/** The files the blob store (local, under DATA_DIR) keeps under a key prefix. */
const filesUnder = (prefix: string) => {
  const dir = path.join(t.dataDir, 'blobs', prefix);
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
};
let filesBefore = { artwork: [''], media: [''], upload: [''], other: [''] };

/** `npm run events -- …` (or another script of scripts/) against the test's database and data. */
const cli = (args: string[], script = 'events') => {
  const run = spawnSync(process.execPath, [path.join(ROOT, `scripts/${script}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.db.url, DATA_DIR: t.dataDir },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
};
/**
 * `events` in this process (tests/support/commands.ts); export, erase and the first `projections check`
 * stay CLI runs.
 */
const inProcess = (args: string[]) => runEvents(args, { DATABASE_URL: t.db.url, DATA_DIR: t.dataDir });

/** Every row of every table the app and its job queue keep (but `except`), as text. */
async function databaseText(except: string[] = []): Promise<string> {
  const { rows: tables } = await t.db.pool.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { name } of tables.filter((table) => !except.includes(table.name))) {
    const { rows } = await t.db.pool.query<{ r: string }>(`SELECT x::text AS r FROM ${name} x`);
    parts.push(`${name}:`, ...rows.map((r) => r.r));
  }
  return parts.join('\n');
}

/** The person's personal fields found in `text`, ignoring case (search text is kept lowercased). */
const personalIn = (text: string) => PERSONAL.filter((value) => text.toLowerCase().includes(value.toLowerCase()));

async function caughtUp() {
  await t.server.runner!.wake();
  await waitFor(async () => {
    const { rows } = await t.db.pool.query<{ caught: boolean }>(
      `SELECT (SELECT count(*) FROM event_chain) = (SELECT count(*) FROM events)
         AND catalog_position() = (SELECT count(*) FROM event_chain) AS caught`,
    );
    return rows[0]!.caught;
  }, 30_000);
}

beforeAll(async () => {
  // every log line the app writes, at every level, goes through here too
  log.level = 'trace';
  (log as unknown as Record<symbol, unknown>)[streamSym as unknown as symbol] = {
    write(line: string) {
      logged.push(line);
      originalStream.write(line);
    },
  };
  t = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erasure-'));
  const admin = client(t.url, await t.login('admin'));
  const personToken = await t.login('guest');
  const person = client(t.url, personToken);
  const someoneElse = client(t.url, await t.login('guest'));

  const other = await someoneElse('POST', '/api/artworks', {
    title: 'A harbour at noon',
    artistName: 'Other Artist',
    email: 'other@example.com',
    imageData: await jpegDataUrl(64, 48, '#336699'),
    isFromCanvas: 'false',
  });
  ids.other = other.body.id;
  const artwork = await person('POST', '/api/artworks', {
    title: PERSON.title,
    description: PERSON.description,
    tags: PERSON.tags,
    artistName: PERSON.name,
    email: PERSON.email,
    imageData: await jpegDataUrl(64, 48, '#e07a5f'),
    isFromCanvas: 'false',
  });
  ids.artwork = artwork.body.id;
  // a named video too: its upload lies under uploads/, its poster and remux under media/{id}/
  const video = (await makeTestMedia()).mp4;
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(video)], { type: 'video/mp4' }), 'clip.mp4');
  const uploaded = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': personToken },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const uploadPath = ((await uploaded.json()) as { path: string }).path;
  uploadKey = uploadPath.replace(/^\/objects\//, '');
  const media = await person('POST', '/api/media', {
    title: PERSON.title,
    artistName: PERSON.name,
    email: PERSON.email,
    mediaType: 'video',
    mediaData: uploadPath,
    mimeType: 'video/mp4',
    status: 'pending',
  });
  expect(media.status).toBe(201);
  ids.media = media.body.id;
  const story = await person('POST', '/api/stories', {
    title: null,
    content: ANONYMOUS_STORY,
    authorName: 'Anonymous',
    isAnonymous: true,
  });
  ids.story = story.body.id;
  for (const [path, id] of [
    ['artworks', ids.other],
    ['artworks', ids.artwork],
    ['stories', ids.story],
  ] as const) {
    expect((await admin('PATCH', `/api/admin/${path}/${id}`, { status: 'approved' })).status).toBe(200);
  }
  const commented = await person('POST', `/api/artworks/${ids.other}/comments`, {
    authorName: PERSON.name,
    content: PERSON.comment,
  });
  expect(commented.status).toBe(201);
  await person('POST', `/api/artworks/${ids.artwork}/comments`, {
    authorName: PERSON.name,
    content: PERSON.ownComment,
  });
  await someoneElse('POST', `/api/artworks/${ids.other}/comments`, { authorName: 'Other Artist', content: 'Thanks!' });
  expect((await person('POST', `/api/artworks/${ids.other}/likes`)).body.likeCount).toBe(1);
  await person('POST', `/api/stories/${ids.story}/likes`);
  await someoneElse('POST', `/api/stories/${ids.story}/likes`);
  // the artwork's renditions are a job: its payload and its events come before the erasure
  await appended(t.db.pool, 'ArtworkRenditionsMade', 2);
  await appended(t.db.pool, 'MediaProcessed', 1);
  await caughtUp();
  filesBefore = {
    artwork: filesUnder(`artworks/${ids.artwork}`),
    media: filesUnder(`media/${ids.media}`),
    upload: filesUnder(path.dirname(uploadKey)),
    other: filesUnder(`artworks/${ids.other}`),
  };
  beforeErasureSeq = (await t.db.pool.query<{ s: number }>(`SELECT max(seq)::int AS s FROM event_chain`)).rows[0]!.s;
  // what the person wrote is shown until they are erased
  const page = (await person('GET', '/api/gallery')).body;
  expect(JSON.stringify(page)).toContain(PERSON.title);

  const erased = await admin('POST', '/api/admin/erase', { email: PERSON.email.toUpperCase() });
  expect(erased.status).toBe(200);
  expect(erased.body).toMatchObject({ kind: 'email', subjects: 1, items: 4 });
  // the erase answers once the gallery has it, as every write does: the next page is without them
  expect(JSON.stringify((await admin('GET', '/api/gallery')).body)).not.toContain(PERSON.title);
  await caughtUp();
}, 180_000);

afterAll(async () => {
  (log as unknown as Record<symbol, unknown>)[streamSym as unknown as symbol] = originalStream;
  log.level = originalLevel;
  await t?.close();
  await removeTestMedia();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('erasing a person', () => {
  it('leaves none of their personal fields in any table, job payload or log line', async () => {
    expect(personalIn(await databaseText())).toEqual([]);
    // the request lines of every call above were caught
    expect(logged.some((line) => line.includes('/api/admin/erase'))).toBe(true);
    expect(personalIn(logged.join('\n'))).toEqual([]);
  });

  it('leaves none in the export, which still verifies, nor does the chain break', async () => {
    const exported = cli(['export']);
    expect(exported.code).toBe(0);
    expect(exported.out.trim().split('\n').length).toBeGreaterThan(10);
    expect(personalIn(exported.out)).toEqual([]);
    const file = path.join(dir, 'export.ndjson');
    fs.writeFileSync(file, exported.out);
    expect(await inProcess(['verify', '--file', file])).toMatchObject({ code: 0, out: expect.stringMatching(/^ok: /) });
    const verify = await inProcess(['verify']);
    expect(verify.out).toMatch(/^ok: \d+ events checked/);
    expect(verify.code).toBe(0);
  });

  it('leaves none in the history and audit answers, the gallery at an earlier seq included', async () => {
    const auditor = client(t.url, await t.login('auditor'));
    const answers = [
      await auditor('GET', '/api/admin/events?limit=1000'),
      await auditor('GET', `/api/admin/history/artworks/${ids.artwork}`),
      await auditor('GET', `/api/admin/history/artworks/${ids.other}`),
      await auditor('GET', `/api/admin/history/stories/${ids.story}`),
      await auditor('GET', `/api/gallery?at=${beforeErasureSeq}`),
      await auditor('GET', '/api/admin/events/export'),
    ];
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(personalIn(answers.map((a) => JSON.stringify(a.body)).join('\n'))).toEqual([]);
    const then = answers[4]!.body as { items: Array<{ kind: string; id: number }> };
    expect(then.items.map((i) => `${i.kind}-${i.id}`).sort()).toEqual([`artwork-${ids.other}`, `story-${ids.story}`]);
  });

  it('keeps their anonymous story in the gallery as Anonymous, and the others’ work with its likes', async () => {
    const guest = client(t.url, await t.login('guest'));
    const page = (await guest('GET', '/api/gallery')).body as {
      items: Array<{
        kind: string;
        id: number;
        authorName?: string;
        content?: string;
        likeCount: number;
        commentCount: number;
      }>;
    };
    const story = page.items.find((i) => i.kind === 'story' && i.id === ids.story);
    expect(story).toMatchObject({ authorName: 'Anonymous', content: ANONYMOUS_STORY, likeCount: 2 });
    expect(page.items.some((i) => i.kind === 'artwork' && i.id === ids.artwork)).toBe(false);
    // their comment goes, their like stays a count
    const other = page.items.find((i) => i.kind === 'artwork' && i.id === ids.other);
    expect(other).toMatchObject({ likeCount: 1, commentCount: 1 });
    expect((await guest('GET', `/api/artworks/${ids.artwork}`)).status).toBe(404);
    const comments = (await guest('GET', `/api/artworks/${ids.other}/comments`)).body;
    expect(comments).toHaveLength(1);
  });

  it('removes the files of their named items from the blob store, and keeps the others’', async () => {
    expect(filesBefore.artwork).toEqual(expect.arrayContaining(['original.jpg']));
    expect(filesBefore.artwork.length).toBeGreaterThanOrEqual(3);
    expect(filesBefore.media.length).toBeGreaterThanOrEqual(1);
    expect(filesBefore.upload.length).toBeGreaterThanOrEqual(1);
    expect(filesUnder(`artworks/${ids.artwork}`)).toEqual([]);
    expect(filesUnder(`media/${ids.media}`)).toEqual([]);
    expect(filesUnder(path.dirname(uploadKey))).toEqual([]);
    expect(filesUnder(`artworks/${ids.other}`)).toEqual(filesBefore.other);
    expect(filesBefore.other.length).toBeGreaterThanOrEqual(3);
  });

  it('gives the same read models when they are rebuilt from the log', async () => {
    const check = cli(['check'], 'projections');
    expect(check.out + check.err).toContain('equal');
    expect(check.code).toBe(0);
  });
});

describe('erasing a person known only from events written before (v1, values inline)', () => {
  it('shows their words nowhere but the stored v1 rows and the export, and keeps their anonymous story', async () => {
    const OLD = { name: 'Bartholomew Quince', title: 'Old Orchard Sketch', comment: 'Quince was here long ago' };
    const visitorId = crypto.randomUUID();
    const store = new EventStore(t.db.pool);
    const emailRef = await new PersonalData(t.db.pool).recordEmail('bart.quince@example.com');
    const meta = { role: 'guest' as const, visitorId, now: new Date().toISOString() };
    const image = { key: 'artworks/900/original.jpg', contentType: 'image/jpeg', width: 8, height: 8, bytes: 10 };
    const now = meta.now;
    await store.append(
      'artwork-900',
      0,
      [
        {
          type: 'ArtworkSubmitted',
          schemaVersion: 1,
          data: {
            artworkId: 900,
            title: OLD.title,
            description: null,
            tags: null,
            artistName: OLD.name,
            emailRef,
            isFromCanvas: false,
            image,
            submittedAt: now,
          },
        },
        { type: 'ArtworkApproved', data: { artworkId: 900, adminNotesRef: null, approvedAt: now } },
      ],
      meta,
    );
    const anonymous = 'An old anonymous memory of the office plant';
    await store.append(
      'story-900',
      0,
      [
        {
          type: 'StorySubmitted',
          schemaVersion: 1,
          data: {
            storyId: 900,
            title: null,
            content: anonymous,
            authorName: 'Anonymous',
            emailRef: null,
            isAnonymous: true,
            submittedAt: now,
          },
        },
        { type: 'StoryApproved', data: { storyId: 900, adminNotesRef: null, approvedAt: now } },
      ],
      meta,
    );
    await store.append(
      'comment-900',
      0,
      [
        {
          type: 'CommentPosted',
          schemaVersion: 1,
          data: {
            kind: 'artwork',
            itemId: ids.other,
            commentId: 900,
            authorName: OLD.name,
            content: OLD.comment,
            postedAt: now,
          },
        },
      ],
      meta,
    );
    await caughtUp();
    const seq = (await t.db.pool.query<{ s: number }>(`SELECT max(seq)::int AS s FROM event_chain`)).rows[0]!.s;
    const guest = client(t.url, await t.login('guest'));
    expect(JSON.stringify((await guest('GET', '/api/gallery')).body)).toContain(OLD.title);

    const run = cli(['erase', '--email', 'BART.QUINCE@example.com']);
    expect(run.out).toContain('erased 1 person(s)');
    expect(run.code).toBe(0);
    await caughtUp();

    const old = (text: string) => Object.values(OLD).filter((v) => text.includes(v));
    // only the stored v1 events keep the words: they are never rewritten (decision 050)
    expect(old(await databaseText(['public.events']))).toEqual([]);
    const auditor = client(t.url, await t.login('auditor'));
    const answers = [
      await auditor('GET', '/api/admin/events?limit=1000'),
      await auditor('GET', '/api/admin/history/artworks/900'),
      await auditor('GET', `/api/admin/history/artworks/${ids.other}`),
      await auditor('GET', `/api/gallery?at=${seq}`),
    ];
    const text = answers.map((a) => JSON.stringify(a.body)).join('\n');
    expect(old(text)).toEqual([]);
    expect(text).not.toContain(visitorId);
    const page = (await guest('GET', '/api/gallery')).body as {
      items: Array<{ kind: string; id: number; authorName?: string }>;
    };
    expect(page.items.find((i) => i.kind === 'story' && i.id === 900)).toMatchObject({ authorName: 'Anonymous' });
    expect(page.items.some((i) => i.kind === 'artwork' && i.id === 900)).toBe(false);
    expect((await inProcess(['verify'])).code).toBe(0);
  });
});

describe('erasing by email when two colleagues shared one browser (issue 21)', () => {
  it('takes what was sent under that email and that name, and leaves the colleague’s work', async () => {
    const kiosk = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    const ONE = { name: 'Oriel Fairweather', email: 'oriel@example.com', story: 'Oriel and the lift that sang' };
    const TWO = { name: 'Tamsin Holloway', email: 'tamsin@example.com', story: 'Tamsin and the stapler saga' };
    const ids: Record<string, number> = {};
    for (const who of [ONE, TWO]) {
      const sent = await kiosk('POST', '/api/stories', { content: who.story, authorName: who.name, email: who.email });
      expect(sent.status).toBe(201);
      ids[who.name] = sent.body.id;
      expect((await admin('PATCH', `/api/admin/stories/${sent.body.id}`, { status: 'approved' })).status).toBe(200);
    }
    // each comments on the other's story, from the same browser
    await kiosk('POST', `/api/stories/${ids[TWO.name]}/comments`, { authorName: ONE.name, content: 'Oriel says hi' });
    await kiosk('POST', `/api/stories/${ids[ONE.name]}/comments`, { authorName: TWO.name, content: 'Tamsin says hi' });
    await caughtUp();

    const erased = await admin('POST', '/api/admin/erase', { email: ONE.email });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ subjects: 1, items: 2 }); // the story and the comment
    await caughtUp();
    const guest = client(t.url, await t.login('guest'));
    const text = JSON.stringify((await guest('GET', '/api/gallery?q=')).body);
    expect(text).not.toContain(ONE.story);
    expect(text).toContain(TWO.story);
    expect((await guest('GET', `/api/stories/${ids[TWO.name]}`)).body).toMatchObject({
      authorName: TWO.name,
      commentCount: 0,
    });
    expect((await guest('GET', `/api/stories/${ids[TWO.name]}/comments`)).body).toEqual([]);
    // nothing of the colleague's is blanked: their values, email included, are all still there
    const { rows } = await t.db.pool.query<{ value: string | null }>(
      `SELECT value FROM personal_data WHERE value IN ($1, $2, $3, 'Tamsin says hi')`,
      [TWO.name, TWO.email, TWO.story],
    );
    expect(rows.map((r) => r.value).sort()).toEqual(
      [TWO.name, TWO.name, TWO.email, TWO.story, 'Tamsin says hi'].sort(),
    );
    const oriel = await t.db.pool.query(`SELECT 1 FROM personal_data WHERE value IN ($1, $2, $3, 'Oriel says hi')`, [
      ONE.name,
      ONE.email,
      ONE.story,
    ]);
    expect(oriel.rows).toEqual([]);
    // the browser is still the colleague's: it can go on and like
    expect((await kiosk('POST', `/api/stories/${ids[TWO.name]}/likes`)).status).toBe(200);
  });
});

describe('erasing by email a person whose story the admin deleted first (issue 21, the convergence run)', () => {
  it('still takes the comments they signed with that story’s name, and nobody else’s', async () => {
    const browser = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    const host = await browser('POST', '/api/stories', {
      content: 'A story to comment on',
      authorName: 'Host Person',
      email: 'host@example.com',
    });
    expect((await admin('PATCH', `/api/admin/stories/${host.body.id}`, { status: 'approved' })).status).toBe(200);
    const WHO = { name: 'Ottoline Qzx', email: 'ottoline@example.com' };
    const sent = await browser('POST', '/api/stories', {
      content: 'Ottoline story',
      authorName: WHO.name,
      email: WHO.email,
    });
    expect(sent.status).toBe(201);
    const signed = await browser('POST', `/api/stories/${host.body.id}/comments`, {
      authorName: WHO.name,
      content: 'Ottoline comment words',
    });
    expect(signed.status).toBe(201);
    const other = await browser('POST', `/api/stories/${host.body.id}/comments`, {
      authorName: 'Someone Else',
      content: 'Another colleague at the same browser',
    });
    expect(other.status).toBe(201);
    // the admin approves the story and then deletes it: its author name is blanked (decision 050's addendum)
    expect((await admin('PATCH', `/api/admin/stories/${sent.body.id}`, { status: 'approved' })).status).toBe(200);
    const deleted = await admin('DELETE', `/api/stories/${sent.body.id}`, undefined, { authorization: ADMIN_KEY });
    expect(deleted.status).toBe(200);
    await caughtUp();

    const erased = await admin('POST', '/api/admin/erase', { email: WHO.email });
    expect(erased.status).toBe(200);
    await caughtUp();
    const guest = client(t.url, await t.login('guest'));
    const comments = (await guest('GET', `/api/stories/${host.body.id}/comments`)).body as Array<{ content: string }>;
    expect(comments.map((c) => c.content)).toEqual(['Another colleague at the same browser']);
    const { rows } = await t.db.pool.query(`SELECT 1 FROM personal_data WHERE value IN ($1, $2)`, [
      WHO.name,
      'Ottoline comment words',
    ]);
    expect(rows).toEqual([]);
  });
});

describe('deleting an item', () => {
  const GONE = {
    name: 'Wilhelmina Thistlewood',
    title: 'Obsidian Herons At Vespers',
    description: 'Sketched on the last train home past the reservoir',
    tags: 'heron-vespers',
    story: 'The week the kettle learned to whistle in three keys',
    commenter: 'Peregrine Ashdown',
    comment: 'Those herons look like they are queuing for the lift',
  };
  const gone = (text: string) => Object.values(GONE).filter((v) => text.toLowerCase().includes(v.toLowerCase()));

  it('blanks its names and words and its comments’, keeps the email, and the history still says what was deleted', async () => {
    const admin = client(t.url, await t.login('admin'));
    const writer = client(t.url, await t.login('guest'));
    const commenter = client(t.url, await t.login('guest'));
    const artwork = await writer('POST', '/api/artworks', {
      title: GONE.title,
      description: GONE.description,
      tags: GONE.tags,
      artistName: GONE.name,
      email: 'wilhelmina@example.com',
      imageData: await jpegDataUrl(64, 48, '#2a9d8f'),
      isFromCanvas: 'false',
    });
    const story = await writer('POST', '/api/stories', {
      title: null,
      content: GONE.story,
      authorName: GONE.name,
      email: 'wilhelmina@example.com',
      isAnonymous: false,
    });
    const id = { artwork: artwork.body.id as number, story: story.body.id as number };
    expect((await admin('PATCH', `/api/admin/artworks/${id.artwork}`, { status: 'approved' })).status).toBe(200);
    expect((await admin('PATCH', `/api/admin/stories/${id.story}`, { status: 'approved' })).status).toBe(200);
    const posted = await commenter('POST', `/api/artworks/${id.artwork}/comments`, {
      authorName: GONE.commenter,
      content: GONE.comment,
    });
    expect(posted.status).toBe(201);
    await appended(t.db.pool, 'ArtworkRenditionsMade', 1, `artwork-${id.artwork}`);
    await caughtUp();
    expect(gone(await databaseText())).toEqual(Object.values(GONE));

    for (const [path, itemId] of [
      ['artworks', id.artwork],
      ['stories', id.story],
    ] as const) {
      const deleted = await admin('DELETE', `/api/${path}/${itemId}`, undefined, { authorization: ADMIN_KEY });
      expect(deleted.status).toBe(200);
    }
    await caughtUp();

    // the stored events stay as they were: they hold refs, never the words
    expect(gone(await databaseText())).toEqual([]);
    const { rows: kept } = await t.db.pool.query<{ value: string }>(
      `SELECT value FROM personal_data WHERE kind = 'email' AND stream_id = $1`,
      [`artwork-${id.artwork}`],
    );
    expect(kept).toEqual([{ value: 'wilhelmina@example.com' }]);
    const exported = cli(['export']);
    expect(exported.code).toBe(0);
    expect(gone(exported.out)).toEqual([]);
    const auditor = client(t.url, await t.login('auditor'));
    const history = await auditor('GET', `/api/admin/history/artworks/${id.artwork}`);
    expect(history.status).toBe(200);
    expect(gone(JSON.stringify(history.body))).toEqual([]);
    const events = history.body.events as Array<{ type: string; personal?: Record<string, string | null> }>;
    expect(events.find((e) => e.type === 'ArtworkSubmitted')?.personal).toEqual({
      titleRef: null,
      descriptionRef: null,
      tagsRef: null,
      artistNameRef: null,
    });
    expect(events.at(-1)).toMatchObject({ type: 'ArtworkDeleted', actor: { role: 'admin' } });
    expect((await inProcess(['verify'])).code).toBe(0);
    const check = await runProjections(['check'], { DATABASE_URL: t.db.url, DATA_DIR: t.dataDir });
    expect(check.out + check.err).toContain('equal');
    expect(check.code).toBe(0);
  });
});
