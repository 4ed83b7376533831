import fs from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { makeTestMedia, removeTestMedia } from '../support/media.ts';
import { signedInContext } from '../support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await removeTestMedia();
});

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);

async function approvedVideo(name: string) {
  const files = await makeTestMedia();
  const token = await t.login('guest');
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(files.mp4)], { type: 'video/mp4' }), 'clip.mp4');
  const up = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': token },
    body: form,
  });
  const sent = await client(t.url, token)('POST', '/api/media', {
    title: 'Hello',
    artistName: name,
    email: 'x@example.com',
    mediaType: 'video',
    mediaData: ((await up.json()) as { path: string }).path,
    mimeType: 'video/mp4',
  });
  const admin = client(t.url, await t.login('admin'));
  expect((await admin('PUT', `/api/media/${sent.body.id}/status`, { status: 'approved' })).status).toBe(200);
}

describe('the montage on the admin page', () => {
  it('starts it, shows its progress, then plays the film', async () => {
    await approvedVideo('Mo Tage');
    const { context, page } = await signedInContext(browser, t, 'admin');
    contexts.push(context);
    await page.goto('/admin');
    const panel = page.getByRole('region', { name: "The film of everyone's messages" });
    await visible(panel.getByText('1 approved video message. Join them into one film for the reveal.'));
    await panel.getByRole('button', { name: 'Make the montage' }).click();
    await visible(panel.getByText('Making the film of 1 video message...'));
    await visible(panel.getByRole('progressbar', { name: 'Montage progress' }));
    await visible(panel.getByText(/^Ready: 1 video message, 0 min [45] s\.$/), 120_000);
    const film = panel.getByLabel('The montage');
    await expect
      .poll(() => film.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    expect(await film.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1280, 720]);
    expect(await panel.getByRole('button', { name: /^Make/ }).count()).toBe(0);
  });
});
