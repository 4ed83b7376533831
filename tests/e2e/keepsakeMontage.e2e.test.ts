import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MontageStatus } from '#contract/montage.ts';
import { launchChromium } from '../support/browser.ts';
import { removeTestMedia } from '../support/media.ts';
import { pdfText } from '../support/pdfText.ts';
import { seeder, type Seeder } from '../support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The montage in the keepsake (CONTRACT §10, §12; decision 125): absent, the keepsake is as before;
 * ready, the zip holds the film as it is served and the page that opens from disk plays it; stale,
 * it is left out again.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FFPROBE = path.join(ROOT, 'node_modules/@ffprobe-installer/linux-x64/ffprobe');

let t: TestServer;
let browser: Browser;
let seed: Seeder;
let admin: ReturnType<typeof client>;
let adminToken: string;
let dir: string;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  seed = await seeder(t);
  adminToken = await t.login('admin');
  admin = client(t.url, adminToken);
  await seed.story({ title: 'The first day', content: 'You showed me the ropes.' });
  await seed.media({ file: 'mp4', title: 'A toast from the team', artistName: 'Mo Tage' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-montage-'));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await removeTestMedia();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Downloads the keepsake as an admin and unzips it into `dir/<name>`; answers its file names. */
async function keepsake(name: string): Promise<string[]> {
  const res = await fetch(`${t.url}/api/admin/keepsake`, { headers: { 'x-session-token': adminToken } });
  expect(res.status).toBe(200);
  const zip = path.join(dir, `${name}.zip`);
  fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
  const unzip = spawnSync('unzip', ['-q', zip, '-d', path.join(dir, name)], { encoding: 'utf8' });
  expect(unzip.status, unzip.stderr).toBe(0);
  return spawnSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
}

async function book(): Promise<string> {
  const res = await fetch(`${t.url}/api/admin/keepsake.pdf`, { headers: { 'x-session-token': adminToken } });
  expect(res.status).toBe(200);
  const file = path.join(dir, 'book.pdf');
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return pdfText(file);
}

/** A context that can reach nothing but the disk. */
async function offline(
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page; refused: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, offline: true, ...options });
  const refused: string[] = [];
  await context.route(/^(?!file:)/, (route) => {
    refused.push(route.request().url());
    return route.abort();
  });
  return { context, page: await context.newPage(), refused };
}

const montageStatus = async () => (await admin('GET', '/api/admin/montage')).body as MontageStatus;

describe('the montage in the keepsake', () => {
  it('with no montage made, the keepsake has none and its page shows the gallery as before', async () => {
    const names = await keepsake('none');
    expect(names.filter((n) => n.includes('montage'))).toEqual([]);
    const { context, page, refused } = await offline();
    await page.goto(`file://${dir}/none/index.html`);
    await expect.poll(() => page.getByRole('heading', { name: 'A toast from the team' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'The first day' }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: "The film of everyone's messages" }).count()).toBe(0);
    expect(await book()).not.toContain('montage.mp4');
    expect(refused).toEqual([]);
    await context.close();
  });

  it('once made, the zip holds the film as it is served, the page plays it offline and the book names it', async () => {
    expect((await admin('POST', '/api/admin/montage')).status).toBe(202);
    await expect.poll(async () => (await montageStatus()).state, { timeout: 180_000, interval: 500 }).toBe('ready');
    const { duration } = await montageStatus();

    const names = await keepsake('ready');
    expect(names).toContain('files/montage.mp4');
    const served = await fetch(`${t.url}/api/montage.mp4`, { headers: { 'x-session-token': adminToken } });
    expect(served.status).toBe(200);
    const kept = fs.readFileSync(path.join(dir, 'ready/files/montage.mp4'));
    expect(kept.equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
    const probe = spawnSync(
      FFPROBE,
      [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height'],
        ...['-of', 'csv=p=0', path.join(dir, 'ready/files/montage.mp4')],
      ],
      { encoding: 'utf8' },
    );
    expect(probe.stdout.trim()).toBe('h264,1280,720');

    const { context, page, refused } = await offline();
    await page.goto(`file://${dir}/ready/index.html`);
    const section = page.getByRole('region', { name: "The film of everyone's messages" });
    await expect.poll(() => section.isVisible()).toBe(true);
    expect(await section.getByText(/^1 video message, 0 min \d+ s\.$/).isVisible()).toBe(true);
    const film = section.getByLabel('The montage');
    await film.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect
      .poll(() => film.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await film.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1280, 720]);
    expect(await film.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(Math.round(duration!));
    // the gallery is still there beneath it
    expect(await page.getByRole('heading', { name: 'A toast from the team' }).isVisible()).toBe(true);
    expect(refused).toEqual([]);
    await context.close();

    expect(await book()).toContain("With the film of everyone's messages: 1 video message");
    expect(await book()).toContain('files/montage.mp4');

    const shots = process.env.KEEPSAKE_SHOTS;
    if (shots) {
      for (const [size, viewport] of [
        ['phone', { width: 390, height: 844 }],
        ['desktop', { width: 1280, height: 800 }],
      ] as const) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const shot = await offline({ viewport, colorScheme });
          await shot.page.goto(`file://${dir}/ready/index.html`);
          await shot.page.getByLabel('The montage').evaluate(
            (v: HTMLVideoElement) =>
              new Promise((done) => {
                v.addEventListener('seeked', done, { once: true });
                v.currentTime = 3;
              }),
          );
          await shot.page.screenshot({ path: path.join(shots, `index-montage-${size}-${colorScheme}.png`) });
          await shot.context.close();
        }
      }
      spawnSync('pdftoppm', [
        '-png',
        '-r',
        '60',
        '-f',
        '1',
        '-l',
        '1',
        path.join(dir, 'book.pdf'),
        `${shots}/book-montage`,
      ]);
    }
  }, 300_000);

  it('a stale film (the approved videos changed) is left out, as it is no longer served', async () => {
    await seed.media({ file: 'mp4', title: 'Another toast', artistName: 'Val Filmer' });
    // the approval is in the log at once, in the catalog the montage reads a moment later
    await expect.poll(async () => (await montageStatus()).state).toBe('stale');
    const names = await keepsake('stale');
    expect(names.filter((n) => n.includes('montage'))).toEqual([]);
    const { context, page } = await offline();
    await page.goto(`file://${dir}/stale/index.html`);
    await expect.poll(() => page.getByRole('heading', { name: 'Another toast' }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: "The film of everyone's messages" }).count()).toBe(0);
    await context.close();
  });
});
