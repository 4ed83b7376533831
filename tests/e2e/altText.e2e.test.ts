import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { signedInContext } from '../support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
let photo: string;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
  photo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alt-')), 'cake.jpg');
  await sharp({ create: { width: 800, height: 600, channels: 3, background: '#e07a5f' } })
    .jpeg()
    .toFile(photo);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (photo) fs.rmSync(path.dirname(photo), { recursive: true, force: true });
});

/** A guest's page, signed in through the API as the other e2e files do (the gate has tests of its own). */
async function signedIn(): Promise<Page> {
  return (await signedInContext(browser, t, 'guest', { viewport: { width: 1280, height: 900 } })).page;
}

describe('alt text (decision 122)', () => {
  it("an image's alt text, given on the upload form, reaches the gallery and the detail page", async () => {
    const described = 'Fifty candles on a chocolate cake in the office kitchen';
    const page = await signedIn();
    await page.goto('/submit');
    await page.locator('input[type="file"]').setInputFiles(photo);
    await page.getByLabel('Title').fill('The cake');
    await page.getByLabel('Describe the picture').fill(described);
    await page.getByLabel('Name').fill('Sam Painter');
    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    await page.waitForURL('**/gallery', { timeout: 15_000 });

    const admin = client(t.url, await t.login('admin'));
    const pending = (await admin('GET', '/api/admin/artworks/pending')).body as Array<{ id: number }>;
    expect(pending).toHaveLength(1);
    expect((await admin('PATCH', `/api/admin/artworks/${pending[0]!.id}`, { status: 'approved' })).status).toBe(200);

    const card = page.getByRole('img', { name: described });
    await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('img', { name: 'The cake' }).count()).toBe(0);
    await page.goto(`/artwork/${pending[0]!.id}`);
    await expect.poll(() => page.getByRole('img', { name: described }).count(), { timeout: 10_000 }).toBe(1);
    // the words were sent, so the draft is gone
    expect(await page.evaluate(() => localStorage.getItem('tg:draft:artwork.altText'))).toBeNull();
  });
});
