import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signedInContext, type Seeder } from './seedGallery.ts';
import type { TestServer } from './server.ts';

/**
 * A signed-in page at `url` (with `?debug`, so the page tells what its live connection applied),
 * once its socket listens, marked so that any reload shows.
 */
export async function openWatched(
  browser: Browser,
  t: TestServer,
  role: 'guest' | 'admin',
  url: string,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const { context, page } = await signedInContext(browser, t, role, options);
  await page.goto(/[?&]debug\b/.test(url) ? url : `${url}${url.includes('?') ? '&' : '?'}debug`);
  await listening(page);
  // Cleared by any reload: proves a change arrived live.
  await page.evaluate(() => (document.body.dataset.loadedOnce = 'yes'));
  return { page, context };
}

/**
 * The page's socket has joined (its first batch, with `?debug`). A change made before it comes to
 * the page only in the answers its welcome loads again: no live message, no mark, no notice.
 */
export const listening = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => window.__tributeLive?.batches ?? 0), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);

export const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => document.body.dataset.loadedOnce)).toBe('yes');

/**
 * The gallery's requests from now on, once the page has settled: its socket's welcome (which loads
 * the page's data again once) is in, and so is every answer asked for since. Load state
 * "networkidle" cannot tell: once reached, waiting for it returns at once, with a fetch on its way.
 */
export async function galleryAskedFromNowOn(page: Page): Promise<string[]> {
  await expect.poll(() => page.evaluate(() => window.__tributeLive?.batches ?? 0), { timeout: 10_000 }).toBe(1);
  await expect.poll(() => page.evaluate(() => window.__tributeLive?.fetching()), { timeout: 10_000 }).toBe(0);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/gallery') asked.push(request.url());
  });
  return asked;
}

/** The open gallery shows page 1 as a fresh answer does, with no reload and nothing asked again. */
export async function showsWhatAReloadWould(page: Page, asked: string[], guest: Seeder['guest']) {
  await notReloaded(page);
  const onScreen = await page.locator('main li h2').allTextContents();
  const reloaded = (await guest('GET', '/api/gallery?page=1')).body as { items: Array<{ title: string }> };
  expect(onScreen.filter((title) => reloaded.items.some((item) => item.title === title))).toEqual(
    reloaded.items.map((item) => item.title),
  );
  expect(asked).toEqual([]);
}
