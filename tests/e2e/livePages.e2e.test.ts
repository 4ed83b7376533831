import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { galleryAskedFromNowOn, openWatched, showsWhatAReloadWould } from '../support/liveGallery.ts';
import { seeder, type Seeder } from '../support/seedGallery.ts';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
let seed: Seeder;
const contexts: BrowserContext[] = [];

interface GalleryPage {
  items: Array<{ kind: 'artwork' | 'story' | 'media'; id: number; title: string }>;
  total: number;
  pageCount: number;
}

// one more item than a page holds: page 2 has one item, and one removal makes the gallery one page
const PAGE_SIZE = 20;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  seed = await seeder(t);
  for (let n = 1; n <= PAGE_SIZE + 1; n++) {
    await seed.story({
      title: `Paged Story ${String(n).padStart(2, '0')}`,
      content: `Story number ${n} of a gallery two pages long.`,
    });
  }
}, 180_000);
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const visible = (locator: Locator, timeout = 10_000) => expect.poll(() => locator.isVisible(), { timeout }).toBe(true);
const card = (page: Page, title: string) =>
  page.locator('main li').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const pagination = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });
const galleryPage = async (n: number) => (await seed.guest('GET', `/api/gallery?page=${n}`)).body as GalleryPage;

// Decision 140: a removal from page 1 takes the next cached page's first item up into it
describe('a removal on a gallery with two pages cached', () => {
  it("moves the next page's first item up and counts one fewer, without asking for the gallery again", async () => {
    const [first, second] = await Promise.all([galleryPage(1), galleryPage(2)]);
    expect([first.items.length, second.items.length, first.total]).toEqual([PAGE_SIZE, 1, PAGE_SIZE + 1]);
    const leaving = first.items[3]!;
    const comingUp = second.items[0]!;

    // page 2, then page 1: both pages are in the page's cache, page 1 read once, after the socket's
    // welcome (a page shown again is read again once stale, perhaps while the test listens)
    const opened = await openWatched(browser, t, 'guest', '/gallery?page=2&debug');
    contexts.push(opened.context);
    const { page: gallery } = opened;
    await visible(card(gallery, comingUp.title));
    await pagination(gallery).getByRole('button', { name: 'Page 1' }).click();
    await visible(card(gallery, leaving.title));
    expect(await card(gallery, comingUp.title).count()).toBe(0);
    const asked = await galleryAskedFromNowOn(gallery);

    const deleted = await seed.admin('DELETE', `/api/stories/${leaving.id}`, undefined, { authorization: ADMIN_KEY });
    expect(deleted.status).toBe(200);

    await expect.poll(() => card(gallery, leaving.title).count(), { timeout: 10_000 }).toBe(0);
    await visible(card(gallery, comingUp.title));
    // twenty items are one page: the pagination goes
    await expect.poll(() => pagination(gallery).count(), { timeout: 10_000 }).toBe(0);
    expect(await gallery.locator('main li h2').allTextContents()).toEqual(
      [...first.items.filter((item) => item !== leaving), comingUp].map((item) => item.title),
    );
    await showsWhatAReloadWould(gallery, asked, seed.guest);
  });
});
