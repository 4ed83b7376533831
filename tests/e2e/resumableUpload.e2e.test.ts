import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '#api/video/index.ts';
import { launchChromium } from '../support/browser.ts';
import { signedInContext } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** CONTRACT §12: a large file goes up with tus, and a connection dropped half-way is resumed. */
let t: TestServer;
let browser: Browser;
let context: BrowserContext | undefined;
let scratch: string;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'resumable-'));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await t?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);

describe('a large upload on a phone', () => {
  it('goes up in parts, and a part whose connection drops is resumed from where the server stopped', async () => {
    // 55 s of 48 kHz stereo PCM: about 10 MB, over the 8 MiB from which uploads are resumable
    const wav = path.join(scratch, 'message.wav');
    await runTool({
      tool: 'ffmpeg',
      args: [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:sample_rate=48000:duration=55',
        '-ac',
        '2',
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        wav,
      ],
      timeoutMs: 60_000,
    });
    const bytes = fs.readFileSync(wav);
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);

    let page: Page;
    ({ context, page } = await signedInContext(browser, t, 'guest', PHONE));
    const offsets: string[] = [];
    let dropped = false;
    await page.route('**/api/uploads/*', async (route) => {
      const request = route.request();
      if (request.method() !== 'PATCH') return route.fallback();
      offsets.push(request.headers()['upload-offset'] ?? '');
      // the second part's connection drops once, before any answer
      if (!dropped && request.headers()['upload-offset'] !== '0') {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.fallback();
    });
    const plain: string[] = [];
    const terminated: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/upload-direct')) plain.push(r.url());
      if (r.method() === 'DELETE') terminated.push(r.url());
    });
    await page.goto('/submit-media');
    await page.getByLabel('Video or audio file').setInputFiles(wav);
    const toasts = page.getByRole('region', { name: /Notifications/ });
    await visible(toasts.getByText('Upload successful', { exact: true }), 90_000);
    const part = String(8 * 1024 * 1024);
    expect(offsets).toEqual(['0', part, part]);
    expect(plain).toEqual([]);
    const { rows } = await t.db.pool.query<{ key: string }>(`SELECT key FROM media_uploads`);
    expect(rows).toHaveLength(1);
    expect(Buffer.compare(fs.readFileSync(path.join(t.dataDir, 'blobs', rows[0]!.key)), bytes)).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Val Filmer');
    await page.getByLabel('Email').fill('val@example.com');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    await visible(toasts.getByText('Your media has been submitted and is pending approval.', { exact: true }));
    await visible(page.getByText('Click to upload or drag and drop'));
    // the form is cleared; the finished upload, already forgotten by the server, is not terminated
    expect(terminated).toEqual([]);
  });
});
