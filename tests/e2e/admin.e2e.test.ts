import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { jpegDataUrl } from '../support/images.ts';
import { makeTestMedia, removeTestMedia } from '../support/media.ts';
import { signedInContext } from '../support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../support/server.ts';
import type { StrokeRecording } from '../../contract/strokes.ts';
import { differingShare } from '../../api/canvas/compare.ts';
import { rgbaPixels } from '../../api/images/index.ts';

let t: TestServer;
let browser: Browser;
let guestToken: string;
let guestCall: ReturnType<typeof client>;
let adminCall: ReturnType<typeof client>;
const contexts: BrowserContext[] = [];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const SCREENS = 'test-results/screens';

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  guestToken = await t.login('guest');
  guestCall = client(t.url, guestToken);
  adminCall = client(t.url, await t.login('admin'));
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await removeTestMedia();
});

function created(response: { status: number; body: unknown }): number {
  if (response.status !== 201) throw new Error(`seed: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as { id: number }).id;
}

/** Submissions as a guest sends them: all pending. */
const submit = {
  async artwork(title: string) {
    return created(
      await guestCall('POST', '/api/artworks', {
        title,
        artistName: 'Sam Painter',
        email: 'sam@example.com',
        imageData: await jpegDataUrl(320, 240),
        isFromCanvas: 'false',
      }),
    );
  },
  async story(title: string, content: string) {
    return created(
      await guestCall('POST', '/api/stories', {
        title,
        content,
        authorName: 'Robin Writer',
        email: 'robin@example.com',
        isAnonymous: false,
      }),
    );
  },
  async media(title: string) {
    const files = await makeTestMedia();
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(files.mp4)], { type: 'video/mp4' }), 'clip.mp4');
    const response = await fetch(`${t.url}/api/upload-direct`, {
      method: 'POST',
      headers: { 'x-session-token': guestToken },
      body: form,
    });
    const upload = (await response.json()) as { path: string };
    return created(
      await guestCall('POST', '/api/media', {
        title,
        artistName: 'Val Filmer',
        email: 'val@example.com',
        mediaType: 'video',
        mediaData: upload.path,
        mimeType: 'video/mp4',
      }),
    );
  },
  async archivedArtwork(title: string) {
    const id = await this.artwork(title);
    await adminCall('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' });
    await adminCall('PATCH', `/api/admin/artworks/${id}`, { status: 'archived' });
    return id;
  },
};

async function adminPage(options: BrowserContextOptions = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, 'admin', options);
  contexts.push(context);
  await page.goto('/admin');
  await visible(page.getByRole('heading', { name: 'Admin Panel' }));
  return page;
}

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);

async function toastSays(page: Page, title: string, description?: string) {
  const toasts = page.getByRole('region', { name: /Notifications/ });
  await visible(toasts.getByText(title, { exact: true }));
  if (description) await visible(toasts.getByText(description, { exact: true }));
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name} `) });
const expectCount = (page: Page, name: string, count: number) =>
  expect.poll(() => tab(page, name).textContent(), { timeout: 10_000 }).toBe(`${name} ${count}`);
const card = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });

describe('admin review panel', () => {
  it('counts every queue, approves and rejects stories, approves media, restores an archived artwork', async () => {
    await submit.artwork('Pending Sunset');
    const approvedStory = await submit.story('The Day We Moved', 'Boxes everywhere.\nCoffee nowhere.');
    const rejectedStory = await submit.story('Not This One', 'Off topic.');
    const media = await submit.media('Party Greeting');
    const archived = await submit.archivedArtwork('Old Poster');

    const page = await adminPage();
    const sent: Request[] = [];
    page.on('request', (request) => void (request.method() !== 'GET' && sent.push(request)));
    await expectCount(page, 'Artworks', 1);
    await expectCount(page, 'Stories', 2);
    await expectCount(page, 'Media', 1);
    await expectCount(page, 'Archived', 1);

    await tab(page, 'Stories').click();
    expect(await tab(page, 'Stories').getAttribute('aria-selected')).toBe('true');
    const story = card(page, 'The Day We Moved');
    await visible(story.getByText('robin@example.com'));
    await visible(story.getByText(/Boxes everywhere\./));
    await story.getByLabel('Admin notes').fill('Lovely');
    await story.getByRole('button', { name: 'Approve' }).click();
    await toastSays(page, 'Story updated');
    await expectCount(page, 'Stories', 1);
    expect(sent.at(-1)!.method()).toBe('PATCH');
    expect(sent.at(-1)!.url()).toMatch(new RegExp(`/api/admin/stories/${approvedStory}$`));
    await card(page, 'Not This One').getByRole('button', { name: 'Reject' }).click();
    await toastSays(page, 'Story updated');
    await visible(page.getByText('No stories are waiting for review.'));
    await expectCount(page, 'Stories', 0);
    expect((await guestCall('GET', `/api/stories/${approvedStory}`)).status).toBe(200);
    expect((await guestCall('GET', `/api/stories/${rejectedStory}`)).status).toBe(404);
    expect((await adminCall('GET', `/api/stories/${approvedStory}`)).body.adminNotes).toBe('Lovely');

    await tab(page, 'Media').click();
    const clip = card(page, 'Party Greeting');
    const player = clip.locator('video');
    await visible(player);
    expect(await player.locator('source').first().getAttribute('src')).toBe(`/api/media/${media}/stream`);
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    await clip.getByRole('button', { name: 'Approve' }).click();
    await toastSays(page, 'Media updated');
    await expectCount(page, 'Media', 0);
    expect(sent.at(-1)!.method()).toBe('PUT');
    expect(sent.at(-1)!.url()).toMatch(new RegExp(`/api/media/${media}/status$`));
    expect((await guestCall('GET', `/api/media/${media}`)).status).toBe(200);

    await tab(page, 'Archived').click();
    await card(page, 'Old Poster').getByRole('button', { name: 'Restore' }).click();
    await toastSays(page, 'Artwork restored');
    await expectCount(page, 'Archived', 0);
    expect((await guestCall('GET', `/api/artworks/${archived}`)).status).toBe(200);

    await tab(page, 'Artworks').click();
    await card(page, 'Pending Sunset').getByRole('button', { name: 'Approve' }).click();
    await toastSays(page, 'Artwork updated');
    await expectCount(page, 'Artworks', 0);
  });

  /** A drawing made in the studio with every tool, sent as it was: its recording and its JPEG. */
  async function studioDrawing(title: string) {
    const drawings = 'tests/support/drawings';
    const recording = JSON.parse(fs.readFileSync(`${drawings}/every-tool.json`, 'utf8')) as StrokeRecording;
    const id = created(
      await guestCall('POST', '/api/artworks', {
        title,
        artistName: 'Tess Toolbox',
        email: 'tess@example.com',
        imageData: `data:image/jpeg;base64,${fs.readFileSync(`${drawings}/every-tool.jpg`).toString('base64')}`,
        isFromCanvas: 'true',
        strokes: recording,
      }),
    );
    return { id, recording };
  }

  /** The admin queue on `options`'s screen, its drawing `title` replayed to the end, shot light and dark. */
  async function replayInQueue(title: string, screen: string, options: BrowserContextOptions) {
    const page = await adminPage(options);
    // the replay's last frame, copied before the submitted picture is laid over it, as base64: 1.28
    // million numbers in an array took 9 s of the test's CPU to cross from the page
    await page.evaluate(() => {
      document.addEventListener('strokes-drawn', (event) => {
        const c = event.target as HTMLCanvasElement;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let binary = '';
        for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
        (window as unknown as { lastFrame: string }).lastFrame = btoa(binary);
      });
    });
    const drawing = card(page, title);
    await drawing.getByRole('button', { name: 'Replay drawing' }).click();
    const replay = drawing.getByTestId('stroke-replay');
    await visible(replay);
    await expect.poll(() => replay.getAttribute('data-replayed'), { timeout: 30_000 }).toBe('done');
    await visible(drawing.getByRole('button', { name: 'Replay again' }));
    fs.mkdirSync(SCREENS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `${SCREENS}/admin-queue-replay-${screen}-${colorScheme}.png`, fullPage: true });
    }
    return Buffer.from(await page.evaluate(() => (window as unknown as { lastFrame: string }).lastFrame), 'base64');
  }

  it('counts what waits for review in the tab title, live, on the panel and the presenter', async () => {
    const page = await adminPage();
    const waiting = async () => {
      const queue = (await adminCall('GET', '/api/admin/queue')).body as { pending: Record<string, number> };
      return Object.values(queue.pending).reduce((a, b) => a + b, 0);
    };
    const titled = (n: number, name: string) =>
      expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`${n > 0 ? `(${n}) ` : ''}${name} · Tribute Gallery`);
    await titled(await waiting(), 'Admin Panel');
    const id = await submit.story('Counted In The Tab', 'One more.');
    await titled(await waiting(), 'Admin Panel');
    expect(await page.title()).toMatch(/^\(\d+\) /);
    await page.goto('/admin/show');
    await titled(await waiting(), 'Presenter');
    await adminCall('PATCH', `/api/admin/stories/${id}`, { status: 'approved' });
    await titled(await waiting(), 'Presenter');
    await page.goto('/audit');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Audit · Tribute Gallery');
  });

  it('moves through the queue and decides with the keyboard, said aloud', async () => {
    const { context, page } = await signedInContext(browser, t, 'admin');
    contexts.push(context);
    await submit.story('Keyed First', 'One.');
    await submit.story('Keyed Second', 'Two.');
    await page.goto('/admin');
    await tab(page, 'Stories').click();
    await visible(card(page, 'Keyed Second'));
    const said = page.getByRole('status').filter({ hasText: / of \d+: / });
    const focusedCard = () =>
      page.evaluate(() => document.activeElement?.closest('li')?.querySelector('h3')?.textContent);

    // j until the first one is reached, each step said
    for (let i = 0; i < 30 && (await focusedCard()) !== 'Keyed First'; i++) await page.keyboard.press('j');
    expect(await focusedCard()).toBe('Keyed First');
    await expect.poll(() => said.textContent()).toMatch(/^\d+ of \d+: Keyed First$/);
    // n goes to the notes, and what is typed there is words, not commands
    await page.keyboard.press('n');
    await page.keyboard.type('jar');
    expect(await card(page, 'Keyed First').getByLabel('Admin notes').inputValue()).toBe('jar');
    expect(await focusedCard()).toBe('Keyed First');
    await page.keyboard.press('Tab');
    await page.keyboard.press('a');
    await toastSays(page, 'Story updated', '"Keyed First" was approved.');
    await expect.poll(() => card(page, 'Keyed First').count(), { timeout: 10_000 }).toBe(0);

    for (let i = 0; i < 30 && (await focusedCard()) !== 'Keyed Second'; i++) {
      await page.keyboard.press(i < 15 ? 'j' : 'k');
    }
    await page.keyboard.press('r');
    await toastSays(page, 'Story updated', '"Keyed Second" was rejected.');

    // ? lists the keys; Escape puts them away
    await page.keyboard.press('?');
    await visible(page.getByLabel('Keyboard shortcuts').getByText('Approve the item'));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText('Approve the item').count()).toBe(0);
  });

  it('chimes when something new waits, once turned on, and remembers it on the device', async () => {
    const { context, page } = await signedInContext(browser, t, 'admin');
    contexts.push(context);
    // counts the notes the page plays, through the browser's own Web Audio
    await context.addInitScript(() => {
      const counted = window as unknown as { notes: number };
      counted.notes = 0;
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        counted.notes++;
        return create.call(this);
      };
    });
    const notes = () => page.evaluate(() => (window as unknown as { notes: number }).notes);
    await page.goto('/admin');
    await visible(tab(page, 'Stories'));
    await expect.poll(() => tab(page, 'Stories').textContent(), { timeout: 10_000 }).toMatch(/^Stories \d+$/);
    // off until turned on
    const toggle = page.getByRole('button', { name: /^Sound on arrival/ });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    const stories = Number((await tab(page, 'Stories').textContent())!.split(' ')[1]);
    await submit.story('Quiet Arrival', 'Shh.');
    await expectCount(page, 'Stories', stories + 1);
    expect(await notes()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(notes).toBeGreaterThan(0);
    // remembered on the device; the next arrival chimes, the page's own loading does not
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Admin Panel' }));
    await expect.poll(() => toggle.getAttribute('aria-pressed'), { timeout: 10_000 }).toBe('true');
    await expectCount(page, 'Stories', stories + 1);
    expect(await notes()).toBe(0);
    await submit.story('Heard Arrival', 'Ding.');
    await expectCount(page, 'Stories', stories + 2);
    await expect.poll(notes).toBeGreaterThan(0);
  });

  it("plays a pending drawing's recording in the queue before the admin decides", async () => {
    const { id, recording } = await studioDrawing('Every Tool');
    // the recording of a pending drawing is the admin's alone
    expect((await guestCall('GET', `/api/artworks/${id}/strokes`)).status).toBe(404);
    const frame = await replayInQueue('Every Tool', 'desktop', { viewport: { width: 1280, height: 900 } });
    // what played is the drawing the admin is deciding on
    const image = await fetch(`${t.url}/api/artworks/${id}/image/original`, {
      headers: { 'x-session-token': await t.login('admin') },
    });
    const seen = await rgbaPixels(Buffer.from(await image.arrayBuffer()));
    const share = differingShare(frame, seen, recording.width, recording.height);
    console.log(`admin queue replay's last frame against the image: ${(share * 100).toFixed(3)} % differ`);
    expect(share).toBeLessThan(0.001);
    // still pending: playing it decided nothing
    expect((await adminCall('GET', `/api/artworks/${id}`)).body.status).toBe('pending');
  });

  it("plays a pending drawing's recording in the queue on a phone", async () => {
    await studioDrawing('Drawn For A Phone');
    expect(await replayInQueue('Drawn For A Phone', 'phone', PHONE)).toHaveLength(800 * 400 * 4);
  });

  it('on a phone: arrow keys move between tabs, and failures are reported in the spec words', async () => {
    await submit.story('Stuck Story', 'Waiting.');
    await submit.media('Stuck Clip');
    await submit.archivedArtwork('Stuck Poster');
    const page = await adminPage(PHONE);
    const refuse = (status: number, message: string) => (route: import('playwright-core').Route) =>
      route.request().method() === 'GET'
        ? route.fallback()
        : route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message }) });
    await page.route('**/api/admin/stories/*', refuse(500, 'Queue is stuck'));
    await page.route('**/api/media/*/status', refuse(409, 'Someone else changed it'));
    await page.route('**/api/admin/artworks/*/unarchive', refuse(500, 'Cannot restore now'));

    await tab(page, 'Artworks').focus();
    await page.keyboard.press('ArrowRight');
    expect(await tab(page, 'Stories').getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-stories');
    await card(page, 'Stuck Story').getByRole('button', { name: 'Approve' }).click();
    await toastSays(page, 'Failed to update story: Queue is stuck');

    await tab(page, 'Media').click();
    await card(page, 'Stuck Clip').getByRole('button', { name: 'Reject' }).click();
    await toastSays(page, 'Failed to update media: Someone else changed it');

    await tab(page, 'Archived').click();
    await card(page, 'Stuck Poster').getByRole('button', { name: 'Restore' }).click();
    await toastSays(page, 'Failed to restore artwork: Cannot restore now');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // a failing queue reads '{status}: {statusText}'
    await page.route('**/api/admin/media/pending', (route) =>
      route.fulfill({ status: 503, body: 'down for maintenance' }),
    );
    await page.reload();
    await tab(page, 'Media').click();
    await visible(page.getByText('503: Service Unavailable', { exact: true }));
  });

  it("every card links to its item's history; an archived artwork's leads to its timeline", async () => {
    await submit.artwork('Waiting Canvas');
    await submit.story('Waiting Tale', 'Soon.');
    const archived = await submit.archivedArtwork('Shelved Print');
    const page = await adminPage(PHONE);

    const historyOf = (text: string) => card(page, text).getByRole('link', { name: 'History' });
    await visible(historyOf('Waiting Canvas'));
    await tab(page, 'Stories').click();
    await visible(historyOf('Waiting Tale'));
    await tab(page, 'Archived').click();
    const link = historyOf('Shelved Print');
    await visible(link);
    expect(await link.getAttribute('href')).toBe(`/audit?tab=timeline&kind=artwork&id=${archived}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await link.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/audit');
    await visible(page.getByRole('heading', { name: `Artwork ${archived}: Shelved Print` }));
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await visible(page.getByText(/^Now archived/));
    await expect
      .poll(async () => (await timeline.getByRole('listitem').allTextContents()).map((text) => text.split(' by ')[0]))
      .toEqual(expect.arrayContaining(['Artwork submitted', 'Approved', 'Archived']));
  });
});
