import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { removeTestMedia } from '../support/media.ts';
import { seeder, signedInContext, type Seeder } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hoverForTooltip } from '../support/tooltip.ts';

let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Every request any gallery page made in this file: a card must never load a full-size image. */
const requested: string[] = [];

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

async function open(role: 'guest' | 'admin' = 'guest', options: BrowserContextOptions = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, role, options);
  contexts.push(context);
  page.on('request', (request: Request) => {
    if (new URL(request.frame().url()).pathname === '/gallery') requested.push(request.url());
  });
  return page;
}

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);

const cards = (page: Page) => page.locator('main article');
/** A card's picture: a card-sized file at a versioned URL, or a video's poster while it has none. */
const CARD_IMAGE = /^\/api\/(images\/(artwork|media)\/\d+\/[\w-]+\/\d+\.webp|media\/\d+\/thumbnail)$/;
const pageButtons = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Pagination' })
    .getByRole('button', { name: /^Page \d+$/ })
    .allTextContents();

async function search(page: Page, text: string) {
  await page.getByPlaceholder('Search artwork, stories, and media...').fill(text);
  await page.waitForURL((url) => url.searchParams.get('q') === (text.trim() || null));
}

describe('an empty gallery', () => {
  it('says there is nothing yet', async () => {
    const page = await open();
    await page.goto('/gallery');
    await visible(page.getByText('No content found'));
    await visible(page.getByText('There is no content in the gallery yet.'));
    expect(await page.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
  });

  it('shows 8 skeletons and a loading text while the first page loads, and an error if it fails', async () => {
    const page = await open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/gallery?*', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' });
    });
    await page.goto('/gallery');
    await visible(page.getByText('Loading amazing artwork, stories, and media...'));
    expect(await page.getByTestId('gallery-skeleton').count()).toBe(8);
    release();
    await visible(page.getByText('Failed to load gallery'));
    await visible(page.getByText('Please try refreshing the page.'));
  });
});

describe('a gallery of 128 items', () => {
  let seed: Seeder;
  let harbour: number;

  beforeAll(async () => {
    seed = await seeder(t);
    const jobs: (() => Promise<unknown>)[] = [];
    for (let n = 1; n <= 25; n++)
      jobs.push(() => seed.artwork({ title: `Painting ${n}`, artistName: 'Pat Brushwell' }));
    for (let n = 1; n <= 98; n++) {
      jobs.push(() => seed.story({ content: `Memory number ${n}: the day we closed the big deal together.` }));
    }
    jobs.push(() => seed.artwork({ title: '', artistName: 'Jo Nameless', color: '#3d405b' }));
    jobs.push(() =>
      seed.story({
        title: 'The Coffee Machine',
        content: 'Every morning at seven\nthe coffee machine sang.',
        isAnonymous: true,
      }),
    );
    jobs.push(() =>
      seed.media({ file: 'mp4', title: 'Team Video', description: 'A message from the team', tags: 'party, cheers' }),
    );
    jobs.push(() => seed.media({ file: 'mp3', title: 'Birthday Song', description: 'Sung by the sales floor' }));
    // Eight at a time: the server is real and so is its database.
    for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));
    harbour = await seed.artwork({
      title: 'Harbour at Dawn',
      artistName: 'Morgan Lee',
      description: 'Boats in the mist',
    });
    await seed.comment('artworks', harbour, 'Lovely colours');
    await seed.comment('artworks', harbour, 'Reminds me of the trip');
  }, 180_000);

  it('has a title, an intro, a search box, 20 cards a page and a 5-number pagination window', async () => {
    const page = await open();
    await page.goto('/gallery');
    await visible(page.getByRole('heading', { name: 'The Tribute Gallery', level: 1 }));
    await visible(page.getByText(/celebrating Alex/));
    await visible(page.getByPlaceholder('Search artwork, stories, and media...'));
    await expect.poll(() => cards(page).count()).toBe(20);

    const previous = page.getByRole('button', { name: 'Previous' });
    const next = page.getByRole('button', { name: 'Next' });
    expect(await pageButtons(page)).toEqual(['1', '2', '3', '4', '5']);
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');

    await page.getByRole('button', { name: 'Page 4' }).click();
    await page.waitForURL('**/gallery?page=4');
    await expect.poll(() => pageButtons(page)).toEqual(['2', '3', '4', '5', '6']);
    await next.click();
    await page.waitForURL('**/gallery?page=5');
    await expect.poll(() => pageButtons(page)).toEqual(['3', '4', '5', '6', '7']);
    await page.getByRole('button', { name: 'Page 7' }).click();
    await page.waitForURL('**/gallery?page=7');
    await expect.poll(() => cards(page).count()).toBe(8);
    expect(await pageButtons(page)).toEqual(['3', '4', '5', '6', '7']);
    expect(await next.isDisabled()).toBe(true);
    expect(await previous.isEnabled()).toBe(true);
    await previous.click();
    await page.waitForURL('**/gallery?page=6');
    await expect.poll(() => cards(page).count()).toBe(20);
    fs.mkdirSync('test-results/screens', { recursive: true });
    await page.getByRole('navigation', { name: 'Pagination' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screens/gallery-pagination-light-desktop.png' });

    // On a phone the window still fits on one line, with Previous and Next as icons.
    await page.setViewportSize({ width: 390, height: 844 });
    const nav = page.getByRole('navigation', { name: 'Pagination' });
    await nav.scrollIntoViewIfNeeded();
    const box = await nav.boundingBox();
    expect(box!.height).toBeLessThan(60);
    expect(box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'test-results/screens/gallery-pagination-light-phone.png' });
  });

  it('goes back to page 1 on a new search, and says when nothing matches', async () => {
    const page = await open();
    await page.goto('/gallery?page=3');
    await expect.poll(() => cards(page).count()).toBe(20);
    await search(page, 'Brushwell');
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    // the previous page's 20 cards stay on screen until the search answers: wait for its pagination
    await expect.poll(() => pageButtons(page)).toEqual(['1', '2']);
    await expect.poll(() => cards(page).count()).toBe(20);
    expect(await page.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    for (const text of await cards(page).allTextContents()) expect(text).toContain('By Pat Brushwell');

    await search(page, 'no such thing anywhere');
    await visible(page.getByText('No matching content found'));
    await visible(page.getByText('Try adjusting your search.'));
    await search(page, '');
    await expect.poll(() => cards(page).count()).toBe(20);
  });

  it('shows the artwork card: thumbnail, title, artist, comment count, like', async () => {
    const page = await open();
    await page.goto('/gallery?q=Harbour');
    await expect.poll(() => cards(page).count()).toBe(1);
    const card = cards(page).first();
    await visible(card.getByRole('link', { name: 'Harbour at Dawn' }));
    await visible(card.getByText('By Morgan Lee'));
    await visible(card.getByText('2 Comment(s)'));
    await visible(card.getByRole('button', { name: /^Like \(0 likes\)$/ }));
    const image = card.getByRole('img', { name: 'Harbour at Dawn' });
    // a card-sized WebP at a versioned URL, with the larger widths for sharper screens
    expect(await image.getAttribute('src')).toMatch(new RegExp(`^/api/images/artwork/${harbour}/[\\w-]+/480\\.webp$`));
    expect(await image.getAttribute('srcset')).toMatch(/ 320w, .* 480w, .* 640w$/);
    expect(await image.getAttribute('sizes')).toBeTruthy();
    expect(await image.getAttribute('loading')).toBe('lazy');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);

    await page.goto('/gallery?q=Nameless');
    await visible(page.getByRole('img', { name: 'Artwork by Jo Nameless' }));
    await visible(cards(page).first().getByText('Leave a comment'));
  });

  it('shows the story card: title, content kept to 6 lines, By Anonymous', async () => {
    const page = await open();
    await page.goto('/gallery?q=Coffee');
    await expect.poll(() => cards(page).count()).toBe(1);
    const card = cards(page).first();
    await visible(card.getByRole('heading', { name: 'The Coffee Machine' }));
    await visible(card.getByText(/Every morning at seven/));
    await visible(card.getByText('By Anonymous'));
    await visible(card.getByText('Leave a comment'));
    expect(await card.getByText(/Every morning/).evaluate((p) => getComputedStyle(p).webkitLineClamp)).toBe('6');

    await page.goto('/gallery?q=Memory%20number%207%3A');
    await expect.poll(() => cards(page).count()).toBe(1);
    await visible(cards(page).first().getByText('By Robin Writer'));
  });

  it('shows the media cards: type badge, title, description, tags, artist, play hints', async () => {
    const page = await open();
    await page.goto('/gallery?q=Team%20Video');
    await expect.poll(() => cards(page).count()).toBe(1);
    const video = cards(page).first();
    await visible(video.getByText('Video', { exact: true }));
    await visible(video.getByRole('link', { name: 'Team Video' }));
    await visible(video.getByText('A message from the team'));
    await visible(video.getByRole('listitem').filter({ hasText: 'party' }));
    await visible(video.getByRole('listitem').filter({ hasText: 'cheers' }));
    await visible(video.getByText('By Val Filmer'));
    // A poster frame with a play overlay once the job made it, else the fallback text.
    await expect
      .poll(
        async () =>
          (await video.locator('img').count()) > 0 || (await video.getByText('Click to play video').isVisible()),
      )
      .toBe(true);

    await page.goto('/gallery?q=Birthday%20Song');
    await expect.poll(() => cards(page).count()).toBe(1);
    const audio = cards(page).first();
    await visible(audio.getByText('Audio', { exact: true }));
    await visible(audio.getByText('Click to play'));
    await visible(audio.getByText('Sung by the sales floor'));
  });

  it('likes at once, rolls back with a toast when the server fails, and keeps a like that succeeds', async () => {
    const page = await open();
    await page.goto('/gallery?q=Harbour');
    const like = cards(page).first().getByRole('button', { name: /^Like/ });
    await visible(like);
    const count = () => cards(page).first().getByTestId('like-count').textContent();
    expect(await count()).toBe('0');

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/artworks/*/likes', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server error"}' });
    });
    await like.click();
    await expect.poll(count, { timeout: 1000 }).toBe('1');
    expect(await like.getAttribute('aria-pressed')).toBe('true');
    release();
    await visible(page.getByText('Failed to process your request. Please try again.'));
    await expect.poll(count).toBe('0');
    expect(await like.getAttribute('aria-pressed')).toBe('false');

    await page.unroute('**/api/artworks/*/likes');
    await like.click();
    await expect.poll(count).toBe('1');
    await page.waitForTimeout(500);
    expect(await count()).toBe('1');
    expect(await like.getAttribute('aria-pressed')).toBe('true');
    expect(await like.locator('svg').getAttribute('fill')).toBe('currentColor');
    const server = await seed.guest('GET', `/api/artworks/${harbour}/likes/count`);
    expect(server.body.count).toBe(1);

    // Someone else's like arrives live.
    await seed.admin('POST', `/api/artworks/${harbour}/likes`);
    await expect.poll(count, { timeout: 10_000 }).toBe('2');
  });

  it('shows the like tooltip after 700 ms, and the next one at once within 300 ms', async () => {
    const page = await open();
    await page.goto('/gallery?page=2');
    await expect.poll(() => cards(page).count()).toBe(20);
    const likes = page.getByRole('button', { name: /^Like \(/ });
    // timed by the page's clock, from the pointer entering the button to the tooltip's element; the
    // second does not wait the 700 ms (the first closed as the pointer left it, under 300 ms before)
    expect(await hoverForTooltip(page, likes.nth(0), 'Like')).toBeGreaterThanOrEqual(700);
    expect(await hoverForTooltip(page, likes.nth(1), 'Like')).toBeLessThan(700);
  });

  it('remembers the page and scroll position when an item is opened, and restores them on return', async () => {
    const page = await open();
    await page.goto('/gallery?page=2');
    await expect.poll(() => cards(page).count()).toBe(20);
    const artwork = page.locator('main article:has(img[src*="/api/images/artwork/"])').last();
    await artwork.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(300);
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(400);
    const title = (await artwork.getByRole('link').textContent())!;
    await artwork.getByRole('link').click();
    await page.waitForURL('**/artwork/*');
    expect(await page.evaluate(() => ({ ...sessionStorage }))).toMatchObject({ galleryPage: '2' });

    await page.getByRole('link', { name: 'Back to Gallery' }).click();
    await page.waitForURL('**/gallery?page=2');
    await visible(page.getByRole('link', { name: title, exact: true }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);

    // The browser's own back button as well.
    await page.getByRole('link', { name: title, exact: true }).click();
    await page.waitForURL('**/artwork/*');
    await page.goBack();
    await page.waitForURL('**/gallery?page=2');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
  });

  it('offers Admin Access to admins only', async () => {
    const guest = await open('guest');
    await guest.goto('/gallery');
    await expect.poll(() => cards(guest).count()).toBe(20);
    expect(await guest.getByRole('link', { name: 'Admin Access' }).count()).toBe(0);

    const admin = await open('admin');
    await admin.goto('/gallery');
    const access = admin.getByRole('link', { name: 'Admin Access' });
    await visible(access);
    await access.click();
    await admin.waitForURL('**/admin');
  });

  it('lays out 1 column on a phone and 4 at 1280 px', async () => {
    const columns = async (page: Page) =>
      page
        .locator('main ul')
        .first()
        .evaluate((list) => getComputedStyle(list).gridTemplateColumns.split(' ').length);
    const phone = await open('guest', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto('/gallery');
    await expect.poll(() => cards(phone).count()).toBe(20);
    expect(await columns(phone)).toBe(1);
    const desktop = await open('guest', { viewport: { width: 1280, height: 800 } });
    await desktop.goto('/gallery');
    await expect.poll(() => cards(desktop).count()).toBe(20);
    expect(await columns(desktop)).toBe(4);
    const xs = await cards(desktop).evaluateAll((all) => [
      ...new Set(all.map((card) => Math.round(card.getBoundingClientRect().x))),
    ]);
    expect(xs).toHaveLength(4);
  });

  it('never loads a full-size image on a gallery page: cards use lazy thumbnails only', async () => {
    const page = await open();
    for (const path of [
      '/gallery',
      '/gallery?page=2',
      '/gallery?page=3',
      '/gallery?q=Brushwell',
      '/gallery?q=Brushwell&page=2',
    ]) {
      await page.goto(path);
      await expect.poll(() => cards(page).count()).toBeGreaterThan(0);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState('networkidle');
      for (const image of await page.locator('main article img').all()) {
        expect(await image.getAttribute('loading')).toBe('lazy');
        expect(await image.getAttribute('src')).toMatch(CARD_IMAGE);
      }
    }
    expect(requested.filter((url) => /\/image\/(display|original)/.test(url))).toEqual([]);
    expect(requested.filter((url) => CARD_IMAGE.test(new URL(url).pathname)).length).toBeGreaterThan(0);
  });

  it("loads only the gallery route's JavaScript, never Fabric, and writes its gzip size to test-results/bundle.txt", async () => {
    const { context, page } = await signedInContext(browser, t, 'guest');
    contexts.push(context);
    const scripts = new Map<string, Buffer>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.set(new URL(response.url()).pathname, await response.body());
    });
    await page.goto('/gallery');
    await expect.poll(() => cards(page).count()).toBe(20);
    await page.waitForLoadState('networkidle');

    const files = [...scripts]
      .filter(([path]) => path.startsWith('/assets/'))
      .map(([path, body]) => ({ path, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }));
    const total = files.reduce((sum, file) => sum + file.gzip, 0);
    const raw = files.reduce((sum, file) => sum + file.raw, 0);
    expect(files.some((file) => /DrawingStudio|fabric|create-/i.test(file.path))).toBe(false);
    for (const body of scripts.values()) expect(body.includes('fabric.js')).toBe(false);

    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    fs.mkdirSync('test-results', { recursive: true });
    fs.writeFileSync(
      'test-results/bundle.txt',
      [
        `/gallery first visit (signed in, empty cache): ${files.length} JavaScript files, ${kb(total)} KB gzip (${kb(raw)} KB raw)`,
        'measured in Chromium by reading every script response of a fresh page load, gzip level 9 per file',
        ...files
          .sort((a, b) => b.gzip - a.gzip)
          .map((file) => `  ${file.path}  ${kb(file.gzip)} KB gzip  ${kb(file.raw)} KB raw`),
        '',
      ].join('\n'),
    );
    expect(total).toBeLessThanOrEqual(150 * 1024);

    // Pointing at the studio's link does not fetch the studio either: Fabric waits for /create itself.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Begin Creating' }).hover();
    await page.waitForTimeout(500);
    await page.waitForLoadState('networkidle');
    expect([...scripts.keys()].filter((path) => /DrawingStudio|fabric/i.test(path))).toEqual([]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Begin Creating' }).click();
    await page.waitForURL('**/create');
    await expect
      .poll(() => [...scripts.keys()].some((path) => /DrawingStudio/.test(path)), { timeout: 10_000 })
      .toBe(true);
  });
});
