import fs from 'node:fs';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { photo } from '../support/images.ts';
import { seeder, signedInContext } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Issue 27, point 2: no dead screens. A screen that throws, a tab open across a redeploy, a lost connection. */
let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const SCREENS = 'test-results/screens';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  const seed = await seeder(t);
  await seed.story({ title: 'Still Here', content: 'A story that outlives every hiccup.' });
  fs.mkdirSync(SCREENS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await t?.close();
});

async function open(url: string, options = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, 'guest', options);
  contexts.push(context);
  await page.goto(url);
  return page;
}

const visible = (page: Page, text: string | RegExp) =>
  expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);

describe('no dead screens (issue 27)', () => {
  it('a screen that throws shows a way back, and Try again draws it once the cause is gone', async () => {
    const page = await open('/gallery');
    await visible(page, 'Still Here');
    // the gallery's answer in a shape the screen cannot draw (a server bug, a proxy's page)
    await page.route('**/api/gallery?**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"items":[null],"total":1}' }),
    );
    await page.goto('/gallery');
    await visible(page, 'Something went wrong');
    await page.screenshot({ path: `${SCREENS}/error-screen-desktop.png` });
    await page.unroute('**/api/gallery?**');
    await page.getByRole('button', { name: 'Try again' }).click();
    await visible(page, 'Still Here');
    expect(await page.getByText('Something went wrong').count()).toBe(0);
  });

  it('a tab open across a redeploy loads the new build once when a screen it opens is gone', async () => {
    const page = await open('/gallery', PHONE);
    await visible(page, 'Still Here');
    let loads = 0;
    page.on('load', () => loads++);
    // the first build's screen file is gone (the new server answers 404), then the reload fetches again
    let refused = 0;
    await page.route(/\/assets\/submit-story-[^/]+\.js$/, async (route) => {
      if (refused++ === 0) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
      return route.continue();
    });
    await page.evaluate(() => {
      window.history.pushState({}, '', '/submit-story');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => loads, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).first().textContent(), { timeout: 10_000 })
      .toMatch(/story/i);
    expect(new URL(page.url()).pathname).toBe('/submit-story');

    // a file really missing does not loop: one reload, then a screen that says so
    await page.route(/\/assets\/submit-media-[^/]+\.js$/, (route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
    );
    await page.evaluate(() => {
      window.history.pushState({}, '', '/submit-media');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await visible(page, 'The gallery was updated');
    await page.waitForTimeout(1000);
    expect(loads).toBe(2);
    await page.screenshot({ path: `${SCREENS}/stale-build-phone.png` });

    // and the server itself answers a missing file with 404, never the page
    const missing = await fetch(`${t.url}/assets/gone-0123abcd.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('a lazy part of a screen gone with the old build (the gate) loads the new build once, under a key of our own', async () => {
    const context = await browser.newContext({ baseURL: t.url, ...PHONE });
    contexts.push(context);
    const page = await context.newPage();
    let loads = 0;
    page.on('load', () => loads++);
    let refused = 0;
    await page.route(/\/assets\/Gate-[^/]+\.js$/, async (route) => {
      if (refused++ === 0) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
      return route.continue();
    });
    await page.goto('/gallery');
    await expect.poll(() => page.getByLabel('Password', { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(loads).toBe(2);
    // the guard is our own, not the router's internal key
    const keys = await page.evaluate(() => Object.keys(sessionStorage));
    expect(keys.filter((key) => key.startsWith('tg:reload:'))).toHaveLength(1);
    expect(keys.filter((key) => key.startsWith('tanstack_router_reload:'))).toEqual([]);
  });

  it('says when the connection is lost, offline or with the server away, and clears when it is back', async () => {
    const { context, page } = await signedInContext(browser, t, 'guest');
    contexts.push(context);
    // the server's WebSocket, through a route that can take the server away and bring it back
    let down = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (down) return void ws.close({ code: 1012, reason: 'restarting' });
      ws.connectToServer();
      sockets.push(ws);
    });
    await page.route('**/socket.io/**', (route) => (down ? route.abort('connectionrefused') : route.continue()));
    await page.goto('/gallery');
    await visible(page, 'Still Here');
    await expect.poll(() => sockets.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const bar = page.locator('[data-connection]');
    expect(await bar.count()).toBe(0);

    await context.setOffline(true);
    await expect.poll(() => bar.getAttribute('data-connection'), { timeout: 10_000 }).toBe('offline');
    await visible(page, 'You are offline');
    await page.screenshot({ path: `${SCREENS}/offline-bar-desktop.png` });
    await context.setOffline(false);
    await expect.poll(() => bar.count(), { timeout: 15_000 }).toBe(0);

    // the server goes away: its WebSocket closes, and no new one or long-poll gets through
    down = true;
    for (const ws of sockets.splice(0)) await ws.close({ code: 1012, reason: 'restarting' });
    await expect.poll(() => bar.getAttribute('data-connection'), { timeout: 15_000 }).toBe('reconnecting');
    await visible(page, 'Reconnecting');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SCREENS}/reconnecting-bar-desktop-dark.png` });
    // it comes back; "Try now" does not wait for the next backoff step
    down = false;
    await page.getByRole('button', { name: 'Try now' }).click();
    await expect.poll(() => bar.count(), { timeout: 15_000 }).toBe(0);
    expect(sockets.length).toBeGreaterThan(0);
  });

  it("shows a toast in plain words when the toasts' own file cannot be loaded", async () => {
    const { context, page } = await signedInContext(browser, t, 'guest');
    contexts.push(context);
    const asked: string[] = [];
    await page.route(/\/assets\/ToastRegion-[\w-]+\.js$/, (route) => {
      asked.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await page.route('**/api/stories/*/likes', (route) => route.fulfill({ status: 500, body: '{"message":"boom"}' }));
    await page.goto('/gallery');
    await visible(page, 'Still Here');
    // nothing asked for a toast yet: the toasts' file is not loaded with the page
    expect(asked).toEqual([]);
    await page
      .getByRole('button', { name: /^Like \(/ })
      .first()
      .click();
    await visible(page, 'Failed to process your request. Please try again.');
    expect(asked).toHaveLength(1);
    expect(await page.getByRole('alert').count()).toBe(1);
  });

  it('keeps a story being typed through a reload, never the name or email, and forgets it once sent', async () => {
    const page = await open('/submit-story', PHONE);
    const story = 'We met on a Tuesday.\nThe printer was on fire, and Alex had a plan.';
    await page.getByLabel('Title').fill('The Printer');
    await page.getByLabel('Your Story').fill(story);
    await page.getByLabel('Your Name').fill('Jo Typist');
    await page.getByLabel('Email').fill('jo@example.com');
    await page.waitForTimeout(500);
    await page.reload();
    await expect.poll(() => page.getByLabel('Your Story').inputValue(), { timeout: 10_000 }).toBe(story);
    expect(await page.getByLabel('Title').inputValue()).toBe('The Printer');
    expect(await page.getByLabel('Your Name').inputValue()).toBe('');
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    const kept = await page.evaluate(() => JSON.stringify(localStorage));
    expect(kept).not.toContain('jo@example.com');
    expect(kept).not.toContain('Jo Typist');

    await page.getByLabel('Your Name').fill('Jo Typist');
    await page.getByLabel('Email').fill('jo@example.com');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    await visible(page, 'Story submitted!');
    await page.reload();
    await expect.poll(() => page.getByLabel('Your Story').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByLabel('Your Story').inputValue()).toBe('');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tg:draft:')))).toEqual([]);
  });

  it('keeps the title and description of an artwork through a reload, never the name or email, and forgets them once sent', async () => {
    const page = await open('/submit', PHONE);
    await page.getByLabel('Title').fill('The Team, Painted');
    await page.getByLabel('Description').fill('All of us, in the old office.');
    await page.getByLabel('Name').fill('Sam Painter');
    await page.getByLabel('Email').fill('sam@example.com');
    await page.waitForTimeout(500);
    await page.reload();
    await expect.poll(() => page.getByLabel('Title').inputValue(), { timeout: 10_000 }).toBe('The Team, Painted');
    expect(await page.getByLabel('Description').inputValue()).toBe('All of us, in the old office.');
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('sam@example.com');

    await page.locator('input[type="file"]').setInputFiles({
      name: 'team.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(7, 800, 600),
    });
    await page.getByLabel('Name').fill('Sam Painter');
    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    await page.waitForURL('**/gallery', { timeout: 15_000 });
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tg:draft:')))).toEqual([]);
  });

  it('keeps the title and description of a media message through a reload', async () => {
    const page = await open('/submit-media', PHONE);
    await page.getByLabel('Title').fill('Happy Birthday From Lisbon');
    await page.getByLabel('Description').fill('A song, badly sung.');
    await page.waitForTimeout(500);
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Title').inputValue(), { timeout: 10_000 })
      .toBe('Happy Birthday From Lisbon');
    expect(await page.getByLabel('Description').inputValue()).toBe('A song, badly sung.');
  });

  it('installs as an app (a manifest with its icons) and prints a story without the app around it', async () => {
    const manifest = await fetch(`${t.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const { icons, start_url, display } = (await manifest.json()) as {
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
      start_url: string;
      display: string;
    };
    expect({ start_url, display }).toEqual({ start_url: '/gallery', display: 'standalone' });
    for (const icon of icons) {
      const res = await fetch(`${t.url}${icon.src}`);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get('content-type'), icon.src).toContain(icon.type);
      if (icon.sizes === 'any') continue;
      const { width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }
    expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);

    const page = await open('/gallery');
    await visible(page, 'Still Here');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header').first().isVisible()).toBe(false);
    expect(await page.getByText('Still Here').first().isVisible()).toBe(true);
    await page.pdf({ path: `${SCREENS}/gallery-print.pdf` }).catch(() => undefined);
  });
});
