import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '#api/video/index.ts';
import { launchChromium } from '../support/browser.ts';
import { signedInContext } from '../support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../support/server.ts';

/*
 * Chromium runs with its test camera and microphone, allowed without a prompt
 * (--use-fake-device-for-media-stream --use-fake-ui-for-media-stream, tests/support/browser.ts).
 */
let t: TestServer;
let browser: Browser;
let admin: ReturnType<typeof client>;
let scratch: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  admin = client(t.url, await t.login('admin'));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

async function signedIn(role: 'guest' | 'admin', options: BrowserContextOptions = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, role, options);
  contexts.push(context);
  return page;
}

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);

interface PendingMedia {
  id: number;
  title: string;
  artistName: string;
  mediaType: string;
  processing: boolean;
}

describe('recording on /submit-media', () => {
  it('records 3 s with a countdown, previews, sends; the admin queue has the video, transcoded, and it plays', async () => {
    // bypassCSP: the test reads the recording's blob: URL, which the app's connect-src does not allow
    const page = await signedIn('guest', { bypassCSP: true });
    await page.goto('/submit-media');
    await page.getByRole('button', { name: 'Record video' }).click();
    await page.getByRole('button', { name: 'Start recording' }).click();
    await visible(page.getByRole('timer', { name: 'Recording starts in 3' }));
    const time = page.getByRole('timer', { name: 'Recording time' });
    await visible(time);
    expect(await time.textContent()).toContain('/ 3:00');
    await expect.poll(() => time.textContent(), { timeout: 20_000 }).toMatch(/0:0[3-9] \//);
    await page.getByRole('button', { name: 'Stop' }).click();

    const preview = page.getByLabel('Your recording');
    await visible(preview);
    await expect
      .poll(() => preview.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    await visible(page.getByRole('button', { name: 'Retake' }));
    // H.264, which Chromium encodes fast enough on a busy machine; its default VP9 fell behind and
    // wrote files with the sound alone
    const recorded = path.join(scratch, 'recorded.mp4');
    // as base64: a file's bytes as an array of numbers cost seconds of CPU to cross from the page
    const base64 = await preview.evaluate(async (v: HTMLVideoElement) => {
      const data = new Uint8Array(await (await fetch(v.src.split('#')[0]!)).arrayBuffer());
      let binary = '';
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return btoa(binary);
    });
    fs.writeFileSync(recorded, Buffer.from(base64, 'base64'));
    expect(await probeMedia(recorded)).toMatchObject({ kind: 'video', videoCodec: 'h264' });
    expect(await page.getByText(/^Only the sound was recorded/).count()).toBe(0);

    await page.getByRole('button', { name: 'Use this recording' }).click();
    await visible(page.getByText('Upload successful', { exact: true }), 30_000);
    await page.getByLabel('Title').fill('Recorded Here');
    await page.getByLabel('Name', { exact: true }).fill('Rae Corder');
    await page.getByLabel('Email').fill('rae@example.com');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    await visible(page.getByText('Your media has been submitted and is pending approval.', { exact: true }));

    const mine = async () =>
      ((await admin('GET', '/api/admin/media/pending')).body as PendingMedia[]).find(
        (m) => m.title === 'Recorded Here',
      );
    await expect.poll(async () => (await mine())?.processing, { timeout: 60_000 }).toBe(false);
    const media = (await mine())!;
    expect(media).toMatchObject({ artistName: 'Rae Corder', mediaType: 'video' });

    // what is served is what the media job made: H.264 and AAC in MP4, whatever the browser recorded
    const stream = await fetch(`${t.url}/api/media/${media.id}/stream`, {
      headers: { 'x-session-token': await t.login('admin') },
    });
    expect(stream.status).toBe(200);
    const served = path.join(scratch, 'served.mp4');
    fs.writeFileSync(served, Buffer.from(await stream.arrayBuffer()));
    const probed = await probeMedia(served);
    expect(probed).toMatchObject({ kind: 'video', container: 'mp4', videoCodec: 'h264', audioCodec: 'aac' });
    expect(probed.durationSeconds).toBeGreaterThan(2.5);
    expect(probed.durationSeconds).toBeLessThan(15);

    const queue = await signedIn('admin');
    await queue.goto('/admin');
    await queue
      .getByRole('tab', { name: /^Media / })
      .click()
      .catch(() => undefined);
    const player = queue.getByRole('listitem').filter({ hasText: 'Recorded Here' }).locator('video');
    await visible(player, 20_000);
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    expect(await player.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(2.5);
  });

  it('records audio alone; the stored message is AAC audio, not the Opus the browser wrote', async () => {
    const page = await signedIn('guest');
    await page.goto('/submit-media');
    await page.getByRole('button', { name: 'Record audio only' }).click();
    await page.getByRole('button', { name: 'Start recording' }).click();
    const time = page.getByRole('timer', { name: 'Recording time' });
    await expect.poll(() => time.textContent(), { timeout: 20_000 }).toMatch(/0:0[2-9] \//);
    await page.getByRole('button', { name: 'Stop' }).click();
    await visible(page.getByLabel('Your recording'));
    await page.getByRole('button', { name: 'Use this recording' }).click();
    await visible(page.getByText('Upload successful', { exact: true }), 30_000);
    await page.getByLabel('Title').fill('Heard Here');
    await page.getByLabel('Name', { exact: true }).fill('Rae Corder');
    await page.getByLabel('Email').fill('rae@example.com');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    await visible(page.getByText('Your media has been submitted and is pending approval.', { exact: true }));

    const mine = async () =>
      ((await admin('GET', '/api/admin/media/pending')).body as PendingMedia[]).find((m) => m.title === 'Heard Here');
    await expect.poll(async () => (await mine())?.processing, { timeout: 60_000 }).toBe(false);
    const media = (await mine())!;
    expect(media.mediaType).toBe('audio');
    const stream = await fetch(`${t.url}/api/media/${media.id}/stream`, {
      headers: { 'x-session-token': await t.login('admin') },
    });
    expect(stream.headers.get('content-type')).toBe('audio/mp4');
    const served = path.join(scratch, 'served.m4a');
    fs.writeFileSync(served, Buffer.from(await stream.arrayBuffer()));
    expect(await probeMedia(served)).toMatchObject({ kind: 'audio', audioCodec: 'aac', browserPlayable: true });
  });

  it('says so before sending when a video recording came out with the sound alone', async () => {
    const page = await signedIn('guest');
    // what Chromium wrote when its encoder fell behind: a file with no picture track
    await page.addInitScript(() => {
      const Recorder = window.MediaRecorder;
      window.MediaRecorder = class extends Recorder {
        constructor(stream: MediaStream, options?: MediaRecorderOptions) {
          super(new MediaStream(stream.getAudioTracks()), options);
        }
      };
    });
    await page.goto('/submit-media');
    await page.getByRole('button', { name: 'Record video' }).click();
    await page.getByRole('button', { name: 'Start recording' }).click();
    const time = page.getByRole('timer', { name: 'Recording time' });
    await expect.poll(() => time.textContent(), { timeout: 20_000 }).toMatch(/0:0[1-9] \//);
    await page.getByRole('button', { name: 'Stop' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'Only the sound was recorded, not the picture.' }));
    await visible(page.getByRole('button', { name: 'Retake' }));
  });

  it('says so plainly when permission is refused, and offers the file', async () => {
    const page = await signedIn('guest');
    // Chromium's answer to a refused prompt; the shared browser allows every prompt (--use-fake-ui)
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await page.goto('/submit-media');
    await page.getByRole('button', { name: 'Record video' }).click();
    await visible(page.getByText(/^Permission to use the camera and microphone was refused\./));
    await page.getByRole('button', { name: 'Choose a file instead' }).click();
    await visible(page.getByText('Click to upload or drag and drop'));
    await visible(page.getByRole('button', { name: 'Record video' }));
  });

  it('in a browser without MediaRecorder, says it cannot record and keeps the file picker', async () => {
    const page = await signedIn('guest');
    await page.addInitScript(() => {
      delete (window as { MediaRecorder?: unknown }).MediaRecorder;
    });
    await page.goto('/submit-media');
    await page.getByRole('button', { name: 'Record audio only' }).click();
    await visible(page.getByText(/^This browser cannot record video or audio\./));
    await visible(page.getByText('Click to upload or drag and drop'));
  });
});
