import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder, signedInContext } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('document titles', () => {
  it('name every page, and the gate before signing in', async () => {
    const seed = await seeder(t);
    const artwork = await seed.artwork({ title: 'Titled' });
    const story = await seed.story({ content: 'A titled story' });

    const anonymous = await browser.newContext({ baseURL: t.url });
    const gate = await anonymous.newPage();
    await gate.goto('/gallery');
    await expect.poll(() => gate.title()).toBe('Access Required · Tribute Gallery');
    await anonymous.close();

    const { context, page } = await signedInContext(browser, t, 'admin');
    const expected: [string, string][] = [
      ['/', 'Tribute Gallery'],
      ['/gallery', 'Gallery · Tribute Gallery'],
      ['/submit', 'Share Artwork · Tribute Gallery'],
      ['/create', 'Begin Creating · Tribute Gallery'],
      ['/submit-media', 'Add Media · Tribute Gallery'],
      ['/submit-story', 'Tell a Story · Tribute Gallery'],
      ['/mine', 'Your contributions · Tribute Gallery'],
      ['/admin', 'Admin Panel · Tribute Gallery'],
      ['/reveal', 'Reveal · Tribute Gallery'],
      [`/artwork/${artwork}`, 'Artwork · Tribute Gallery'],
      [`/story/${story}`, 'Story · Tribute Gallery'],
      ['/no-such-page', 'Page Not Found · Tribute Gallery'],
    ];
    const seen: [string, string][] = [];
    for (const [url, title] of expected) {
      await page.goto(url);
      await expect.poll(() => page.title()).toBe(title);
      seen.push([url, await page.title()]);
    }
    // every page's title differs from every other's
    expect(new Set(seen.map(([, title]) => title)).size).toBe(seen.length);
    await context.close();
  });
});
