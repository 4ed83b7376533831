import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder, signedInContext } from '../support/seedGallery.ts';
import { makeTestMedia, removeTestMedia, type TestMediaName } from '../support/media.ts';
import { client, startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

let t: TestServer;
let browser: Browser;
let files: Record<TestMediaName, string>;
let track: string;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
  files = await makeTestMedia();
  track = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vtt-')), 'wishes.vtt');
  fs.writeFileSync(track, 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHappy birthday, Alex!\n');
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await removeTestMedia();
  if (track) fs.rmSync(path.dirname(track), { recursive: true, force: true });
});

/** A guest's page, signed in through the API as the other e2e files do (the gate has tests of its own). */
async function signedIn(): Promise<Page> {
  return (await signedInContext(browser, t, 'guest', { viewport: { width: 1280, height: 900 } })).page;
}

/**
 * Sends a file with its track through Add Media, as a guest would: the file, then the track under its
 * label ("Captions" for a video, "Transcript" for an audio message), then the details.
 */
async function sendWithTrack(page: Page, file: string, trackLabel: string, title: string, name: string) {
  await page.goto('/submit-media');
  await page.getByLabel('Video or audio file').setInputFiles(file);
  await expect
    .poll(() => page.getByText('Upload successful', { exact: true }).count(), { timeout: 60_000 })
    .toBeGreaterThan(0);
  await page.getByLabel(trackLabel).setInputFiles(track);
  await expect.poll(() => page.getByText('wishes.vtt').count()).toBe(1);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Email').fill('val@example.com');
  await page.getByRole('button', { name: 'Submit to Gallery' }).click();
  await expect.poll(() => page.getByText('Your media has been submitted and is pending approval.').count()).toBe(1);
}

describe('captions (decision 123)', () => {
  it('a caption track sent with a video message plays with the video on its page', async () => {
    const page = await signedIn();
    await sendWithTrack(page, files.mp4, 'Captions', 'Wishes with words', 'Val Filmer');

    const admin = client(t.url, await t.login('admin'));
    const [media] = (await admin('GET', '/api/admin/media/pending')).body as Array<{ id: number; captionsUrl: string }>;
    expect(media?.captionsUrl).toBe(`/api/media/${media!.id}/captions`);
    expect((await admin('PUT', `/api/media/${media!.id}/status`, { status: 'approved' })).status).toBe(200);
    await waitFor(async () => (await admin('GET', `/api/media/${media!.id}`)).body.processing === false);

    await page.goto(`/media/${media!.id}`);
    const video = page.locator('video').first();
    await expect.poll(() => video.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.cues?.length ?? 0), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const cue = await video.evaluate((v: HTMLVideoElement) => (v.textTracks[0]!.cues![0] as VTTCue).text);
    expect(cue).toBe('Happy birthday, Alex!');
    expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]!.mode)).toBe('showing');
  });
  it("a video's captions are on its player from the start, without waiting for the transcript's read of them", async () => {
    const seed = await seeder(t);
    const id = await seed.media({ file: 'mp4', title: 'Words from the first frame' });
    const vtt = (words: string) => `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${words}\n`;
    const put = (words: string) =>
      seed.admin('PUT', `/api/media/${id}/captions`, vtt(words), { 'content-type': 'text/vtt' });
    expect((await put('Cheers from the whole floor!')).status).toBe(200);

    // the page's own fetch of the words (its transcript) gets no answer yet; the browser's load of
    // the track is let through
    const page = await signedIn();
    const held: Route[] = [];
    const address = `**/api/media/${id}/captions`;
    await page.route(address, (route) =>
      route.request().resourceType() === 'fetch' ? void held.push(route) : route.continue(),
    );
    await page.goto(`/media/${id}?debug`);
    const video = page.locator('video').first();
    await expect.poll(() => video.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => held.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.cues?.length ?? 0), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(await video.locator('track').getAttribute('src')).toBe(`/api/media/${id}/captions`);
    expect(await video.evaluate((v: HTMLVideoElement) => (v.textTracks[0]!.cues![0] as VTTCue).text)).toBe(
      'Cheers from the whole floor!',
    );
    expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]!.mode)).toBe('showing');

    // the fetch answers: the transcript comes, and the player keeps its one track
    for (const route of held) await route.continue();
    await page.unroute(address);
    await expect.poll(() => page.getByText('Transcript', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.querySelectorAll('track').length)).toBe(1);

    // new words at the same address reach the open player's track without a reload (once the page's
    // socket has joined, so that the change comes as a live message)
    await expect.poll(() => page.evaluate(() => window.__tributeLive?.batches ?? 0), { timeout: 10_000 }).toBe(1);
    expect((await put('Cheers again, Alex!')).status).toBe(200);
    await expect
      .poll(
        () =>
          video.evaluate((v: HTMLVideoElement) => {
            const track = v.querySelector('track')?.track;
            return track?.cues?.length ? (track.cues[0] as VTTCue).text : null;
          }),
        { timeout: 15_000 },
      )
      .toBe('Cheers again, Alex!');
  });
  it("an audio message's transcript, sent with it, reads as text under its player (decision 130)", async () => {
    const page = await signedIn();
    await sendWithTrack(page, files.mp3, 'Transcript', 'Wishes out loud', 'Val Speaker');

    const admin = client(t.url, await t.login('admin'));
    const pending = (await admin('GET', '/api/admin/media/pending')).body as Array<{ id: number; title: string }>;
    const audio = pending.find((m) => m.title === 'Wishes out loud')!;
    expect((await admin('PUT', `/api/media/${audio.id}/status`, { status: 'approved' })).status).toBe(200);

    await page.goto(`/media/${audio.id}`);
    const transcript = page.getByRole('group').filter({ has: page.getByText('Transcript', { exact: true }) });
    await expect.poll(() => transcript.count(), { timeout: 15_000 }).toBe(1);
    // folded at first; a click (or Enter on its summary) opens the words
    expect(await transcript.getByText('Happy birthday, Alex!').isVisible()).toBe(false);
    await page.getByText('Transcript', { exact: true }).click();
    await expect.poll(() => transcript.getByText('Happy birthday, Alex!').isVisible()).toBe(true);
  });
  it('a track an admin adds or replaces reaches an open detail page without a reload', async () => {
    const seed = await seeder(t);
    const id = await seed.media({ file: 'mp3', title: 'Said on the day' });
    const page = await signedIn();
    await page.goto(`/media/${id}?debug`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Said on the day' }).count(), { timeout: 15_000 })
      .toBe(1);
    // the page's socket has joined (its first batch), so what follows comes as a live message
    await expect.poll(() => page.evaluate(() => window.__tributeLive?.batches ?? 0), { timeout: 10_000 }).toBe(1);
    expect(await page.getByText('Transcript', { exact: true }).count()).toBe(0);

    const vtt = (words: string) => `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${words}\n`;
    const put = (words: string) =>
      seed.admin('PUT', `/api/media/${id}/captions`, vtt(words), { 'content-type': 'text/vtt' });
    expect((await put('Many happy returns!')).status).toBe(200);
    await expect.poll(() => page.getByText('Transcript', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    await page.getByText('Transcript', { exact: true }).click();
    await expect.poll(() => page.getByText('Many happy returns!').isVisible()).toBe(true);

    // the same address, new words
    expect((await put('Many happy returns, Alex!')).status).toBe(200);
    await expect.poll(() => page.getByText('Many happy returns, Alex!').isVisible(), { timeout: 15_000 }).toBe(true);
  });
});
