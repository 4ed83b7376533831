import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endLine, exportLine, type LogLine } from '#contract/logLine.ts';
import { linkHash } from '#events/canonical.ts';
import { EventStore } from '#events/store.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { axeViolations, settled } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { removeTestMedia } from '../support/media.ts';
import { pdfText } from '../support/pdfText.ts';
import { seeder, signedInContext, type Seeder } from '../support/seedGallery.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The keepsake (CONTRACT §10): downloaded as an admin, unzipped, and opened from disk in Chromium
 * with every network request refused.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const STUDIO = path.join(ROOT, 'tests/support/drawings');
/** the honoree, in three scripts: the book's fonts must have them all */
const NAME = 'Zoë Δήμητρα 李明';
const PRIVATE = {
  pendingTitle: 'Pending Platypus Parade',
  rejectedTitle: 'Rejected Rhubarb Riddle',
  deletedTitle: 'Deleted Dandelion Dance',
  withdrawnTitle: 'Withdrawn Wombat Waltz',
  approvalNote: 'Approval note about Quokka',
  rejectionNote: 'Rejection note about Zebra',
  emails: ['artist@example.com', 'writer@example.com', 'filmer@example.com', 'secret.person@example.com'],
};

let t: TestServer;
let browser: Browser;
let seed: Seeder;
let dir: string;
let files: Record<string, Buffer>;
let cli: { checked: number; head: string; seq: number };
const ids: Record<string, number> = {};
/** Comments in scripts a viewer's machine may have no font for (decision 113). */
/**
 * The video's caption track (decision 123), as a sender's tool writes one: a note naming someone, a
 * style, cue settings. The page shows its cues, the book prints its words, and the keepsake keeps
 * the cues alone (decision 142).
 */
const CAPTIONS = {
  first: 'Happy birthday from the whole team',
  second: 'We will miss you & your jokes',
  vtt: 'WEBVTT - CaptionTool export\n\nSTYLE\n::cue { color: #0ff1ce }\n\nNOTE draft for notes.person@example.com\n\n1\n00:00:00.000 --> 00:00:05.000 line:0 align:start\n<v Val>Happy birthday from the whole team</v>\n\n00:00:05.000 --> 00:00:09.000\nWe will miss you &amp; your jokes\n',
  kept: 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nVal: Happy birthday from the whole team\n\n00:00:05.000 --> 00:00:09.000\nWe will miss you &amp; your jokes\n',
};
/**
 * The audio message's transcript (decision 130): the page writes its words under the player. Its
 * blob holds the file as it was sent, as a track stored before decision 142 does.
 */
const TRANSCRIPT = {
  line: 'Thank you for every Friday breakfast',
  vtt: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nThank you for every <i>Friday</i> breakfast\n',
  stored:
    'WEBVTT - CaptionTool export\n\nNOTE for notes.person@example.com\n\nSTYLE\n::cue { color: #0ff1ce }\n\nREGION\nid:notes-person-region\n\n00:00:01.000 --> 00:00:02.500 region:notes-person-region align:start\nThank you for every <i>Friday</i> breakfast\n',
  kept: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nThank you for every Friday breakfast\n',
};
/** What a track's tool left beside its cues: none of it is in the keepsake. */
const TRACK_LEFTOVERS = ['notes.person@example.com', 'CaptionTool', '#0ff1ce', 'notes-person-region', 'align:start'];
const SCRIPTS = {
  thai: 'สุขสันต์วันเกิด',
  korean: '생일 축하해요',
  japanese: 'おめでとう カタカナ',
  arabic: 'عيد ميلاد سعيد',
  hebrew: 'יום הולדת שמח',
};

async function submitDrawing(guest: ReturnType<typeof client>) {
  const res = await guest('POST', '/api/artworks', {
    title: 'Every tool',
    imageData: `data:image/jpeg;base64,${fs.readFileSync(`${STUDIO}/every-tool.jpg`).toString('base64')}`,
    artistName: 'Dee Drawer',
    email: 'secret.person@example.com',
    isFromCanvas: 'true',
    strokes: JSON.parse(fs.readFileSync(`${STUDIO}/every-tool.json`, 'utf8')),
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer({ TRIBUTE_NAME: NAME }), launchChromium()]);
  seed = await seeder(t);
  const { admin, guest } = seed;
  ids.artwork = await seed.artwork({ title: 'Harbour at dawn', artistName: 'Sam Painter' });
  ids.story = await seed.story({ title: 'The first day', content: 'You showed me the ropes, thank you.' });
  ids.video = await seed.media({ file: 'mp4', title: 'A toast from the team' });
  const captioned = await admin('PUT', `/api/media/${ids.video}/captions`, CAPTIONS.vtt, {
    'content-type': 'text/vtt',
  });
  expect(captioned.status, JSON.stringify(captioned.body)).toBe(200);
  ids.audio = await seed.media({ file: 'mp3', title: 'A song for you' });
  const transcribed = await admin('PUT', `/api/media/${ids.audio}/captions`, TRANSCRIPT.vtt, {
    'content-type': 'text/vtt',
  });
  expect(transcribed.status, JSON.stringify(transcribed.body)).toBe(200);
  const blobs = path.join(t.dataDir, 'blobs');
  const stored = fs
    .readdirSync(blobs, { recursive: true })
    .map(String)
    .find((f) => f.startsWith(path.join('media', String(ids.audio), 'captions-')));
  fs.writeFileSync(path.join(blobs, stored!), TRANSCRIPT.stored);
  await seed.comment('stories', ids.story, 'Best boss ever 🎉 Ωμέγα');
  for (const words of Object.values(SCRIPTS)) await seed.comment('stories', ids.story, words);
  ids.drawing = await submitDrawing(guest);
  expect(
    (
      await admin('PATCH', `/api/admin/artworks/${ids.drawing}`, {
        status: 'approved',
        adminNotes: PRIVATE.approvalNote,
      })
    ).status,
  ).toBe(200);
  expect((await guest('POST', `/api/stories/${ids.story}/likes`)).status).toBeLessThan(300);
  const pending = await guest('POST', '/api/stories', {
    title: PRIVATE.pendingTitle,
    content: 'not yet',
    authorName: 'Pen Ding',
    email: 'secret.person@example.com',
  });
  ids.pending = pending.body.id;
  const rejected = await guest('POST', '/api/stories', {
    title: PRIVATE.rejectedTitle,
    content: 'no',
    authorName: 'Rey Jected',
    email: 'secret.person@example.com',
  });
  await admin('PATCH', `/api/admin/stories/${rejected.body.id}`, {
    status: 'rejected',
    adminNotes: PRIVATE.rejectionNote,
  });
  const deleted = await seed.story({ title: PRIVATE.deletedTitle, content: 'gone soon' });
  expect((await admin('DELETE', `/api/stories/${deleted}`, undefined, { 'admin-key': ADMIN_KEY })).status).toBe(200);
  // approved, then taken back by the browser that sent it (issue 24)
  const withdrawn = await guest('POST', '/api/stories', {
    title: PRIVATE.withdrawnTitle,
    content: 'changed my mind',
    authorName: 'Will Drawn',
    email: 'secret.person@example.com',
  });
  await admin('PATCH', `/api/admin/stories/${withdrawn.body.id}`, { status: 'approved' });
  expect((await guest('DELETE', `/api/mine/story/${withdrawn.body.id}`)).status).toBe(200);
  await runBatch(new EventStore(t.db.pool), chainSealer, 10_000);

  const res = await fetch(`${t.url}/api/admin/keepsake`, { headers: { 'x-session-token': await t.login('admin') } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-'));
  fs.writeFileSync(path.join(dir, 'keepsake.zip'), Buffer.from(await res.arrayBuffer()));
  const unzip = spawnSync('unzip', ['-q', 'keepsake.zip', '-d', 'out'], { cwd: dir, encoding: 'utf8' });
  expect(unzip.status, unzip.stderr).toBe(0);
  files = {};
  const walk = (at: string) => {
    for (const name of fs.readdirSync(path.join(dir, 'out', at))) {
      const rel = path.join(at, name);
      if (fs.statSync(path.join(dir, 'out', rel)).isDirectory()) walk(rel);
      else files[rel] = fs.readFileSync(path.join(dir, 'out', rel));
    }
  };
  walk('');

  const verify = spawnSync(
    process.execPath,
    [path.join(ROOT, 'scripts/events.ts'), 'verify', '--file', path.join(dir, 'out/log.ndjson')],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', DATA_DIR: dir },
      encoding: 'utf8',
    },
  );
  expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  const m = verify.stdout.match(/ok: (\d+) events checked \(seq 1-(\d+)\), head ([0-9a-f]{64})/)!;
  cli = { checked: Number(m[1]), seq: Number(m[2]), head: m[3]! };
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await removeTestMedia();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A context that can reach nothing but the disk. */
async function offline(
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; refused: string[] }> {
  const context = await browser.newContext({ viewport, offline: true });
  const refused: string[] = [];
  await context.route(/^(?!file:)/, (route) => {
    refused.push(route.request().url());
    return route.abort();
  });
  return { context, page: await context.newPage(), refused };
}

describe('the keepsake', () => {
  it("holds the pages, the log, every approved item's files, and nothing private", async () => {
    const names = Object.keys(files).sort();
    for (const name of [
      'index.html',
      'verify.html',
      'keepsake.js',
      'style.css',
      'fonts.css',
      'data.js',
      'log.ndjson',
      'log.js',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.some((n) => n.startsWith(`files/artwork-${ids.artwork}.`))).toBe(true);
    expect(names.some((n) => n.startsWith(`files/media-${ids.video}.`))).toBe(true);
    expect(names).toContain(`files/artwork-${ids.drawing}-strokes.js`);
    // a track's cues alone, times and words, whatever the file held beside them (decision 142)
    expect(files[`files/media-${ids.video}-captions.vtt`]?.toString('utf8')).toBe(CAPTIONS.kept);
    expect(files[`files/media-${ids.audio}-captions.vtt`]?.toString('utf8')).toBe(TRANSCRIPT.kept);
    const data = files['data.js']!.toString('utf8');
    expect(data).toContain(JSON.stringify(CAPTIONS.kept));
    expect(data).toContain(JSON.stringify(TRANSCRIPT.kept));
    for (const left of TRACK_LEFTOVERS) expect(data, left).not.toContain(left);
    const all = Object.values(files)
      .map((b) => b.toString('latin1'))
      .join('\n');
    const utf8 = Object.values(files)
      .map((b) => b.toString('utf8'))
      .join('\n');
    expect(utf8).toContain('Harbour at dawn');
    expect(utf8).toContain('Best boss ever 🎉 Ωμέγα');
    for (const secret of [
      PRIVATE.pendingTitle,
      PRIVATE.rejectedTitle,
      PRIVATE.deletedTitle,
      PRIVATE.withdrawnTitle,
      PRIVATE.approvalNote,
      PRIVATE.rejectionNote,
      ...PRIVATE.emails,
      TRACK_LEFTOVERS[0]!,
    ]) {
      expect(utf8, secret).not.toContain(secret);
    }
    const visitors = await t.db.pool.query<{ id: string }>(
      `SELECT visitor_id::text AS id FROM subjects WHERE visitor_id IS NOT NULL`,
    );
    expect(visitors.rows.length).toBeGreaterThan(0);
    for (const { id } of visitors.rows) expect(all, 'a visitor id').not.toContain(id);
    const addresses = await t.db.pool.query<{ v: string }>(
      `SELECT value AS v FROM personal_data WHERE kind = 'ip' AND value IS NOT NULL`,
    );
    for (const { v } of addresses.rows) expect(all, 'an address').not.toContain(`"${v}"`);
  });

  it('is made the same by npm run keepsake -- --out FILE.zip', () => {
    const out = path.join(dir, 'cli.zip');
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/keepsake.ts'), '--out', out], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: t.db.url, DATA_DIR: t.dataDir, TRIBUTE_NAME: NAME },
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const listing = (zip: string) =>
      spawnSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
    expect(listing(out)).toEqual(listing(path.join(dir, 'keepsake.zip')));
    const log = spawnSync('unzip', ['-p', out, 'log.ndjson'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
    expect(log).toBe(files['log.ndjson']!.toString('utf8'));
  });

  it("has a printable book: the cover, every shown item's words, a comment with emoji, nothing pending", async () => {
    const res = await fetch(`${t.url}/api/admin/keepsake.pdf`, {
      headers: { 'x-session-token': await t.login('admin') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    fs.writeFileSync(path.join(dir, 'book.pdf'), pdf);
    // pdfjs (unpdf) reads the glyphs, without the spaces between runs of different fonts; poppler's
    // pdftotext reads the words as a person copying them would
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
    const glyphs = text.replace(/\s+/g, '');
    const poppler = pdfText(path.join(dir, 'book.pdf'));
    const shown = [
      `For ${NAME}`,
      'Harbour at dawn',
      'The first day',
      'You showed me the ropes, thank you.',
      'A toast from the team',
      'Every tool',
      'Best boss ever 🎉 Ωμέγα',
      // the video's captions under its poster, the audio's transcript under its title: words, not markup
      `Captions Val: ${CAPTIONS.first} ${CAPTIONS.second}`,
      `Transcript ${TRANSCRIPT.line}`,
    ];
    for (const words of shown) {
      expect(poppler, words).toContain(words);
      expect(glyphs, words).toContain(words.replace(/\s+/g, ''));
    }
    for (const secret of [
      PRIVATE.pendingTitle,
      PRIVATE.rejectedTitle,
      PRIVATE.deletedTitle,
      PRIVATE.withdrawnTitle,
      PRIVATE.approvalNote,
      ...PRIVATE.emails,
      ...TRACK_LEFTOVERS,
    ]) {
      expect(poppler, secret).not.toContain(secret);
    }
    // Thai, Hangul, kana, Arabic and Hebrew each drawn with a font that has them (decision 113)
    for (const words of [SCRIPTS.thai, SCRIPTS.korean, SCRIPTS.japanese]) {
      expect(glyphs, words).toContain(words.replace(/\s+/g, ''));
    }
    const embedded = spawnSync('pdffonts', [path.join(dir, 'book.pdf')], { encoding: 'utf8' }).stdout;
    for (const font of ['NotoSansThai', 'NotoSansKR', 'NotoSansJP', 'NotoSansArabic', 'NotoSansHebrew']) {
      expect(embedded, font).toContain(font);
    }
    // pages as pictures, to look at (docs: screenshots are not committed)
    const shots = process.env.KEEPSAKE_SHOTS;
    if (shots) spawnSync('pdftoppm', ['-png', '-r', '60', path.join(dir, 'book.pdf'), path.join(shots, 'book')]);
  });

  it('has a log that verifies with the CLI, with the words of what is shown and none other', () => {
    const lines = files['log.ndjson']!.toString('utf8').trimEnd().split('\n');
    expect(cli.checked).toBe(lines.length - 1);
    const events = lines.slice(0, -1).map((l) => JSON.parse(l));
    const story = events.find((e) => e.type === 'StorySubmitted' && e.data.storyId === ids.story);
    expect(story.personal.contentRef).toBe('You showed me the ropes, thank you.');
    const pending = events.find((e) => e.type === 'StorySubmitted' && e.data.storyId === ids.pending);
    expect(pending.personal).toEqual({ titleRef: null, contentRef: null, authorNameRef: null });
    expect(
      events.filter((e) => e.personal?.adminNotesRef !== undefined).every((e) => e.personal.adminNotesRef === null),
    ).toBe(true);
    expect(events.every((e) => e.actor.name === null)).toBe(true);
  });

  it('verify.html recomputes the chain offline and agrees with the CLI; an edited log names the seq that breaks', async () => {
    const { context, page, refused } = await offline();
    await page.goto(`file://${dir}/out/verify.html`);
    const result = page.getByRole('status');
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^Verified/);
    expect(await result.textContent()).toBe(
      `Verified ${cli.checked} events of log.ndjson. Head: seq ${cli.seq}, hash ${cli.head}`,
    );

    const lines = files['log.ndjson']!.toString('utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('You showed me the ropes'));
    lines[at] = lines[at]!.replace('You showed me the ropes', 'You showed me the rope');
    const edited = path.join(dir, 'log.ndjson');
    fs.writeFileSync(edited, lines.join('\n'));
    await page.locator('#file').setInputFiles(edited);
    await expect
      .poll(() => result.textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`seq ${at + 1} breaks \\(personal value edited \\(contentRef\\)\\)`));
    expect(refused).toEqual([]);
    await context.close();
  });

  it('verify.html checks a log sealed under LOG_HMAC_KEY once the key is entered, and says why until then', async () => {
    // the keepsake's own log re-sealed as a keyed gallery seals it (scheme 3: HMAC-SHA256 under the key)
    const KEY = 'a-log-key-only-the-host-holds';
    const events = files['log.ndjson']!.toString('utf8')
      .trimEnd()
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l) as LogLine);
    let prevHash = '0'.repeat(64);
    const keyed = events.map((e) => {
      const hash = linkHash({ ...e, prevHash }, KEY);
      const line = exportLine({ ...e, prevHash, hash, scheme: 3 });
      prevHash = hash;
      return line;
    });
    const file = path.join(dir, 'keyed.ndjson');
    fs.writeFileSync(file, [...keyed, endLine(keyed.length, { seq: keyed.length, hash: prevHash })].join('\n') + '\n');

    const { context, page, refused } = await offline();
    await page.goto(`file://${dir}/out/verify.html`);
    const result = page.getByRole('status');
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^Verified/);
    const key = page.getByLabel('Key');
    expect(await key.isVisible()).toBe(false);
    await page.locator('#file').setInputFiles(file);
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/enter it to check/);
    expect(await result.textContent()).toMatch(/^0 events verified; from seq 1 on, this link was sealed with/);
    expect(await page.getByText('The key is not in this keepsake').isVisible()).toBe(true);

    await key.fill('not-the-key');
    await page.getByRole('button', { name: 'Check with this key' }).click();
    await expect
      .poll(() => result.textContent(), { timeout: 30_000 })
      .toMatch(/seq 1 breaks \(event edited, or not this key\)/);
    await key.fill(KEY);
    await page.getByRole('button', { name: 'Check with this key' }).click();
    await expect
      .poll(() => result.textContent(), { timeout: 30_000 })
      .toBe(`Verified ${keyed.length} events of keyed.ndjson. Head: seq ${keyed.length}, hash ${prevHash}`);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('index.html shows the items, a comment, a video that plays and a drawing that replays, offline', async () => {
    const { context, page, refused } = await offline();
    await page.goto(`file://${dir}/out/index.html`);
    await expect.poll(() => page.getByRole('heading', { name: 'Harbour at dawn' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`For ${NAME}`);
    for (const title of ['The first day', 'A toast from the team', 'Every tool']) {
      expect(await page.getByRole('heading', { name: title }).isVisible()).toBe(true);
    }
    expect(await page.getByText('Best boss ever 🎉 Ωμέγα').isVisible()).toBe(true);
    // this machine has no Thai, Korean, Japanese, Hebrew or Arabic font: the keepsake's own are used
    for (const words of Object.values(SCRIPTS)) expect(await page.getByText(words).isVisible()).toBe(true);
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/["']/g, ''));
    });
    for (const family of ['thai', 'kr', 'jp', 'arabic', 'hebrew', 'emoji']) {
      expect(
        loaded.some((f) => f.includes(family)),
        family,
      ).toBe(true);
    }
    // only the subsets the words need are in the archive
    expect(files['fonts.css']!.length).toBeLessThan(3_000_000);
    expect(await page.getByText('1 like', { exact: false }).first().isVisible()).toBe(true);
    expect(
      await page.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
    ).toBe(true);

    const video = page.locator('video');
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0);
    // its captions show from the start, from a track the page made of the cues it carries
    await expect
      .poll(
        () =>
          video.evaluate((v: HTMLVideoElement) => {
            const track = v.textTracks[0];
            return {
              mode: track?.mode,
              active: [...(track?.activeCues ?? [])].map((c) => (c as VTTCue).getCueAsHTML().textContent),
              cues: track?.cues?.length,
            };
          }),
        { timeout: 20_000 },
      )
      .toEqual({ mode: 'showing', active: [`Val: ${CAPTIONS.first}`], cues: 2 });

    // the audio message's words, written out under its player
    const audio = page.locator(`article[data-kind="media"][data-id="${ids.audio}"]`);
    expect(await audio.locator('audio').count()).toBe(1);
    expect(await audio.getByText(TRANSCRIPT.line).isVisible()).toBe(true);
    expect(await audio.getByText('0:01').isVisible()).toBe(true);

    const drawing = page.locator(`article[data-id="${ids.drawing}"]`);
    await drawing.getByRole('button', { name: 'Replay the drawing' }).click();
    const canvas = drawing.locator('canvas');
    await expect.poll(() => canvas.getAttribute('data-replayed'), { timeout: 30_000 }).toBe('true');
    // the replay's last frame is the drawing: its middle is not blank paper
    const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i]! < 200 || d[i + 1]! < 200 || d[i + 2]! < 200) ink++;
      return ink / (d.length / 4);
    });
    expect(painted).toBeGreaterThan(0.01);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('index.html and verify.html: axe finds nothing serious, phone and desktop, light and dark', async () => {
    const serious: string[] = [];
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const { context, page, refused } = await offline(viewport);
      for (const file of ['index.html', 'verify.html']) {
        await page.goto(`file://${dir}/out/${file}`);
        if (file === 'index.html') {
          await expect.poll(() => page.getByRole('heading', { name: 'Harbour at dawn' }).isVisible()).toBe(true);
        } else {
          await expect.poll(() => page.getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/^Verified/);
        }
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await settled(page);
          for (const v of await axeViolations(page)) {
            if (v.impact !== 'serious' && v.impact !== 'critical') continue;
            const where = v.nodes.map((n) => n.target.join(' ')).join(', ');
            serious.push(`${file} ${viewport.width}px ${colorScheme}: ${v.id} (${v.impact}) at ${where}`);
          }
        }
      }
      expect(refused).toEqual([]);
      await context.close();
    }
    expect(serious).toEqual([]);
  });

  it('is offered on the admin page, both downloads with their progress', async () => {
    const { context, page } = await signedInContext(browser, t, 'admin');
    await page.goto('/admin');
    const book = page.getByRole('button', { name: 'Download the book (PDF)' });
    await expect.poll(() => book.isVisible(), { timeout: 20_000 }).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), book.click()]);
    expect(download.suggestedFilename()).toBe('keepsake.pdf');
    await expect.poll(() => page.getByText('Saved').isVisible()).toBe(true);
    await context.close();
  });

  it('looks right on a phone and a desktop, light and dark (screenshots when KEEPSAKE_SHOTS is set)', async () => {
    const shots = process.env.KEEPSAKE_SHOTS;
    if (!shots) return;
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport, colorScheme, offline: true });
        const page = await context.newPage();
        await page.goto(`file://${dir}/out/index.html`);
        await page.screenshot({ path: path.join(shots, `index-${size}-${colorScheme}.png`), fullPage: true });
        await page.goto(`file://${dir}/out/verify.html`);
        await expect.poll(() => page.getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/^Verified/);
        await page.screenshot({ path: path.join(shots, `verify-${size}-${colorScheme}.png`) });
        await context.close();
        const admin = await signedInContext(browser, t, 'admin', { viewport, colorScheme });
        await admin.page.goto('/admin');
        const section = admin.page.getByRole('region', { name: 'The keepsake' });
        await expect.poll(() => section.isVisible(), { timeout: 20_000 }).toBe(true);
        await section.screenshot({ path: path.join(shots, `admin-${size}-${colorScheme}.png`) });
        await admin.context.close();
      }
    }
  });
});
