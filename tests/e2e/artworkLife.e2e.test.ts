import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let photo: string;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
  photo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'photo-')), 'team-photo.jpg');
  await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#81b29a' } })
    .jpeg()
    .toFile(photo);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (photo) fs.rmSync(path.dirname(photo), { recursive: true, force: true });
});

/** A person at their own browser, through the gate with a password. */
async function signedIn(password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: t.url, viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/');
  await expect.poll(() => page.getByRole('heading', { name: 'Access Required' }).isVisible()).toBe(true);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Enter Gallery' }).click();
  // signed in once the gate has gone
  await expect.poll(() => page.getByRole('heading', { name: 'Access Required' }).count()).toBe(0);
  return page;
}

describe('one photo, end to end', () => {
  it('a guest uploads, an admin approves, and an open gallery shows it without a reload', async () => {
    // a colleague is watching the gallery
    const watcher = await signedIn(PASSWORDS.guest);
    await watcher.getByRole('link', { name: /Browse Gallery/ }).click();
    await expect.poll(() => watcher.getByText('No content found').isVisible(), { timeout: 10_000 }).toBe(true);

    // another uploads a photo
    const uploader = await signedIn(PASSWORDS.guest);
    await uploader.goto('/submit');
    await uploader.locator('input[type="file"]').setInputFiles(photo);
    await uploader.getByLabel('Title').fill('The whole team');
    await uploader.getByLabel('Name').fill('Sam Painter');
    await uploader.getByLabel('Email').fill('sam@example.com');
    await uploader.getByRole('button', { name: 'Submit to Gallery' }).click();
    await uploader.waitForURL('**/gallery', { timeout: 15_000 });

    // the admin sees it in the queue and approves it
    const admin = await signedIn(PASSWORDS.admin);
    await admin.waitForURL('**/admin');
    await expect.poll(() => admin.getByText('The whole team').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => admin.getByText('sam@example.com').isVisible()).toBe(true);
    await admin.getByLabel('Admin notes').fill('Wonderful');
    await admin.getByRole('button', { name: 'Approve' }).click();

    // the watcher's gallery, never reloaded, now shows the card
    await expect
      .poll(() => watcher.getByText('The whole team', { exact: true }).first().isVisible(), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(() => watcher.getByText('By Sam Painter', { exact: true }).isVisible()).toBe(true);
    expect(await watcher.getByText('sam@example.com').count()).toBe(0);
    const thumb = watcher.getByRole('img', { name: /The whole team/ });
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);
    fs.mkdirSync('test-results', { recursive: true });
    await watcher.screenshot({ path: 'test-results/e2e-gallery-after-approval.png' });
  });

  it('shows the 404 screen and the health check', async () => {
    const page = await signedIn(PASSWORDS.guest);
    await page.goto('/no-such-page');
    await expect.poll(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(true);
    await page.goto('/health-check');
    await expect.poll(() => page.getByText('System Status: Operational').isVisible()).toBe(true);
  });
});
