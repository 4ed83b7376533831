import fs from 'node:fs';
import jsqr from 'jsqr';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, launchFullChromium } from '../support/browser.ts';
import { seeder, signedInContext, type Seeder } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
let seed: Seeder;
const contexts: BrowserContext[] = [];
const SCREENS = 'test-results/screens';
// jsqr is CommonJS with its function on `default`: vitest's interop hands over the function, Node the exports
const jsQR: typeof jsqr.default =
  (jsqr as unknown as { default?: typeof jsqr.default }).default ?? (jsqr as unknown as typeof jsqr.default);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  seed = await seeder(t);
  await seed.artwork({ title: 'Harbour at Dawn', artistName: 'Morgan Lee', color: '#3d5a80' });
  await seed.story({ title: 'The Coffee Machine', content: 'Every morning at seven the coffee machine sang.' });
  await seed.story({ title: 'Hill Street', content: 'It was raining, and Alex brought umbrellas for everyone.' });
  await seed.artwork({ title: 'Sunflowers', artistName: 'Robin Park', color: '#f2cc8f' });
  fs.mkdirSync(SCREENS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await t?.close();
});

async function open(role: 'guest' | 'admin', url: string, options = {}, on: Browser = browser): Promise<Page> {
  const { context, page } = await signedInContext(on, t, role, options);
  if (on === browser) contexts.push(context);
  await page.goto(url);
  return page;
}

/** The slide a follower shows, as 'kind:id'. */
const slideOf = (page: Page) => page.locator('[data-slide]').getAttribute('data-slide', { timeout: 10_000 });
const showNow = async () => {
  const { body } = await seed.guest('GET', '/api/show');
  return body as { state: string; current: { kind: string; id: number } | null; index: number };
};

/** Notes, in the page, when its slide changes: Date.now() of each change with the new slide. */
const watchSlides = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __slides: Array<{ at: number; slide: string }> };
    w.__slides = [];
    let last = document.querySelector('[data-slide]')?.getAttribute('data-slide') ?? '';
    new MutationObserver(() => {
      const now = document.querySelector('[data-slide]')?.getAttribute('data-slide') ?? '';
      if (now !== last) w.__slides.push({ at: Date.now(), slide: (last = now) });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-slide'] });
  });
const slideChanges = (page: Page) =>
  page.evaluate(() => (window as unknown as { __slides: Array<{ at: number; slide: string }> }).__slides);

describe('the show: a presenter and the screens that follow (CONTRACT §7)', () => {
  it('moves every follower with the presenter, lands a reload on the current item, and floats a phone reaction on the big screen', async () => {
    // a retry starts from no show
    await seed.admin('POST', '/api/show', { action: 'stop' });
    const presenter = await open('admin', '/admin/show', { ...PHONE, colorScheme: 'light' });
    const bigScreen = await open('guest', '/reveal', { viewport: { width: 1600, height: 900 } });
    const phone = await open('guest', '/reveal', { ...PHONE, colorScheme: 'dark' });
    await presenter.getByRole('button', { name: 'Start the show' }).click();

    await expect.poll(async () => (await showNow()).state).toBe('running');
    const started = await showNow();
    expect(started).toMatchObject({ state: 'running', index: 0 });
    const first = `${started.current!.kind}:${started.current!.id}`;
    for (const page of [bigScreen, phone]) {
      await expect.poll(() => slideOf(page), { timeout: 10_000 }).toBe(first);
      await expect.poll(() => page.getByTestId('following-show').isVisible()).toBe(true);
    }
    await expect.poll(() => presenter.getByTestId('presenter-current').getAttribute('data-item')).toBe(first);
    // the presenter counts the screens that follow: the two /reveal screens, not itself
    const following = () => presenter.getByTestId('followers').textContent();
    await expect.poll(following).toBe('2 screens following');

    // `next`: both followers move; the time from the tap to each follower's change is measured
    const delays: number[] = [];
    for (let step = 1; step <= 3; step++) {
      await Promise.all([watchSlides(bigScreen), watchSlides(phone)]);
      // the tap as the presenter's page sees it (Playwright's own click can take a while to arrive)
      await presenter.evaluate(() => {
        const w = window as unknown as { __tap?: number };
        document.addEventListener('click', () => (w.__tap = Date.now()), { capture: true, once: true });
      });
      await presenter.getByRole('button', { name: 'Next' }).click();
      const tappedAt = await presenter.evaluate(() => (window as unknown as { __tap: number }).__tap);
      await expect.poll(async () => (await showNow()).index).toBe(step);
      const now = await showNow();
      const expected = `${now.current!.kind}:${now.current!.id}`;
      for (const page of [bigScreen, phone]) {
        await expect.poll(() => slideOf(page), { timeout: 5000 }).toBe(expected);
        const change = (await slideChanges(page)).find((c) => c.slide === expected)!;
        delays.push(change.at - tappedAt);
      }
      if (step === 1) {
        await presenter.screenshot({ path: `${SCREENS}/show-presenter-phone-light.png` });
        await phone.screenshot({ path: `${SCREENS}/show-reveal-phone-dark.png` });
        await bigScreen.screenshot({ path: `${SCREENS}/show-reveal-desktop-light.png` });
      }
    }
    console.log(`tap to follower slide change, ms: ${delays.join(', ')}`);
    // Reported, not asserted: here one shared two-core machine runs the server, the database, three
    // browsers and other test runs, so a bound would measure the machine. `npm run bench` measures
    // the server's tap-to-follower time (p50, p99, max) against a bare socket.io broadcast.
    expect(delays).toHaveLength(6);

    // back a step, then a follower that reloads mid-show lands on the current item
    await presenter.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(async () => (await showNow()).index).toBe(2);
    const current = await showNow();
    const expected = `${current.current!.kind}:${current.current!.id}`;
    await phone.reload();
    await expect.poll(() => slideOf(phone), { timeout: 10_000 }).toBe(expected);
    await expect.poll(() => slideOf(bigScreen)).toBe(expected);
    await expect.poll(following).toBe('2 screens following');

    // a reaction on the phone floats over the big screen, and its total reaches the presenter
    await phone.getByRole('button', { name: 'Applause' }).click();
    await expect.poll(() => bigScreen.getByTestId('floating-reaction').count(), { timeout: 5000 }).toBeGreaterThan(0);
    expect(await bigScreen.getByTestId('floating-reaction').first().textContent()).toBe('👏');
    await expect
      .poll(() => presenter.getByRole('list', { name: 'Reactions' }).textContent(), { timeout: 5000 })
      .toContain('1');
    await bigScreen.screenshot({ path: `${SCREENS}/show-reveal-desktop-reaction.png` });

    // pause shows on the followers; stop hands every screen back its own slideshow
    await presenter.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => bigScreen.getByText('Paused', { exact: true }).isVisible()).toBe(true);
    await presenter.emulateMedia({ colorScheme: 'dark' });
    await presenter.screenshot({ path: `${SCREENS}/show-presenter-phone-dark.png` });
    presenter.once('dialog', (dialog) => void dialog.accept());
    await presenter.getByRole('button', { name: 'Stop the show' }).click();
    await expect.poll(async () => (await showNow()).state).toBe('idle');
    for (const page of [bigScreen, phone]) {
      await expect.poll(() => page.getByTestId('following-show').count()).toBe(0);
    }
    await presenter.screenshot({ path: `${SCREENS}/show-presenter-phone-idle-dark.png` });
    // the totals stay on the item: its card in the gallery shows them
    await bigScreen.goto('/gallery');
    // the big screen left /reveal: one screen follows
    await expect.poll(following).toBe('1 screen following');
    await expect
      .poll(() => bigScreen.getByTestId('reaction-summary').first().getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('1 reaction');
  }, 120_000);

  it("keeps the big screen and the presenter's phone awake (Screen Wake Lock)", async () => {
    // the whole browser: the headless shell the other tests run in refuses a wake lock (decision 153)
    const full = await launchFullChromium();
    try {
      const presenter = await open('admin', '/admin/show', PHONE, full);
      await expect.poll(() => presenter.getByTestId('wake-lock').isVisible(), { timeout: 10_000 }).toBe(true);
      await presenter.screenshot({ path: `${SCREENS}/show-presenter-awake-phone.png` });
      const big = await open('guest', '/reveal', {}, full);
      await expect
        .poll(() => big.locator('[data-wake-lock]').getAttribute('data-wake-lock'), { timeout: 10_000 })
        .toBe('held');
    } finally {
      await full.close();
    }
  });

  it("shows the gallery's address as a QR code on the big screen, not on a phone", async () => {
    const big = await open('guest', '/reveal', { viewport: { width: 1280, height: 720 } });
    const code = big.getByRole('img', { name: /^QR code:/ });
    await expect.poll(() => code.isVisible(), { timeout: 10_000 }).toBe(true);
    await big.screenshot({ path: `${SCREENS}/reveal-join-code-desktop.png` });
    // what a phone's camera reads from the screen's pixels
    const { data, info } = await sharp(await code.screenshot())
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const read = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    expect(read?.data).toBe(`${t.url}/`);
    const phone = await open('guest', '/reveal', PHONE);
    await expect.poll(() => phone.getByText('Celebrating').first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await phone.getByRole('img', { name: /^QR code:/ }).isVisible()).toBe(false);
  });

  it("records a drawing's strokes in /create and replays them in the show, ending on the submitted image", async () => {
    await seed.admin('POST', '/api/show', { action: 'stop' });
    // draw three strokes in two colours in the studio, and send the drawing
    const studio = await open('guest', '/create', { viewport: { width: 1280, height: 1000 } });
    const canvasBox = async () => (await studio.getByRole('img', { name: 'Drawing canvas' }).boundingBox())!;
    await studio.locator('canvas.upper-canvas').waitFor({ timeout: 15_000 });
    await studio.getByRole('img', { name: 'Drawing canvas' }).scrollIntoViewIfNeeded();
    const at = async (x: number, y: number) => {
      const box = await canvasBox();
      return { x: box.x + (x / 800) * box.width, y: box.y + (y / 400) * box.height };
    };
    const stroke = async (...points: Array<[number, number]>) => {
      const [first, ...rest] = await Promise.all(points.map(([x, y]) => at(x, y)));
      await studio.mouse.move(first!.x, first!.y);
      await studio.mouse.down();
      for (const p of rest) await studio.mouse.move(p.x, p.y, { steps: 12 });
      await studio.mouse.up();
    };
    await studio.getByRole('button', { name: 'Red', exact: true }).click();
    await studio.getByLabel('Size').fill('20');
    await stroke([60, 60], [300, 80], [500, 60]);
    await studio.getByRole('button', { name: 'Blue', exact: true }).click();
    await stroke([80, 300], [400, 200], [740, 330]);
    await stroke([600, 40], [620, 360]);
    await studio.getByLabel('Your Name').fill('Drew Sketcher');
    await studio.getByLabel('Email Address').fill('drew@example.com');
    await studio.getByRole('button', { name: 'Submit to Gallery' }).click();
    await studio.waitForURL('**/gallery');

    const pending = (await seed.admin('GET', '/api/admin/artworks/pending')).body as Array<{
      id: number;
      artistName: string;
    }>;
    const id = pending.find((a) => a.artistName === 'Drew Sketcher')!.id;
    const recorded = (await seed.admin('GET', `/api/artworks/${id}/strokes`)).body as {
      strokes: Array<{ tool: string; points: number[] }>;
    };
    expect(recorded.strokes.map((s) => s.tool)).toEqual(['brush', 'brush', 'brush']);
    expect(recorded.strokes[1]!.points.length).toBeGreaterThan(3 * 10);
    await seed.admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' });

    const screen = await open('guest', '/reveal', { viewport: { width: 1280, height: 800 } });
    // the replay's last frame, copied when its last stroke is drawn: right after, StrokeReplay lays the
    // submitted image over the canvas, so the canvas at 'done' would match the image whatever the replay drew
    await screen.evaluate(() => {
      document.addEventListener('strokes-drawn', (event) => {
        const c = event.target as HTMLCanvasElement;
        const copy = document.createElement('canvas');
        copy.width = c.width;
        copy.height = c.height;
        copy.getContext('2d')!.drawImage(c, 0, 0);
        (window as unknown as { __lastFrame: HTMLCanvasElement }).__lastFrame = copy;
      });
    });
    await seed.admin('POST', '/api/show', { action: 'start' });
    await seed.admin('POST', '/api/show', { action: 'goto', kind: 'artwork', id });
    const replay = screen.getByTestId('stroke-replay');
    await replay.waitFor({ timeout: 10_000 });
    // the canvas's inked pixels while the strokes are being drawn; null once the last one is (read in
    // the same task as the check, so never the submitted image that is laid over the canvas after it)
    const inkWhileDrawing = () =>
      replay.evaluate((c: HTMLCanvasElement) => {
        if ('__lastFrame' in window) return null;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let inked = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i]! < 250 || data[i + 1]! < 250 || data[i + 2]! < 250) inked++;
        return inked;
      });
    // the pixels change over time: more ink as the strokes are drawn. Sampled from the start until the
    // last stroke is drawn, since the replay keeps the recording's own pace and its pauses (a slow
    // studio can leave a second between two strokes)
    const samples: number[] = [];
    for (const until = Date.now() + 20_000; Date.now() < until;) {
      const ink = await inkWhileDrawing();
      if (ink === null) break;
      samples.push(ink);
      await screen.waitForTimeout(100);
    }
    expect(new Set(samples).size, `ink over time: ${samples.join(', ')}`).toBeGreaterThan(1);
    expect(samples).toEqual([...samples].sort((a, b) => a - b));
    await expect.poll(() => replay.getAttribute('data-replayed'), { timeout: 20_000 }).toBe('done');
    // the replay's own last frame matches the submitted image: the replay approximates Fabric's
    // rendering (curves, anti-aliased edges) and the display image is re-encoded, so a pixel counts as
    // different when a channel is off by more than 64, and under 0.5% of them may be (leaving out the
    // last stroke alone makes about 2% differ)
    const { differ, total } = await screen.evaluate(async (url: string) => {
      const frame = (window as unknown as { __lastFrame?: HTMLCanvasElement }).__lastFrame;
      if (!frame) return { differ: -1, total: 0 };
      const image = new Image();
      image.src = url;
      await image.decode();
      const ref = document.createElement('canvas');
      ref.width = frame.width;
      ref.height = frame.height;
      const r = ref.getContext('2d')!;
      r.drawImage(image, 0, 0, frame.width, frame.height);
      const a = frame.getContext('2d')!.getImageData(0, 0, frame.width, frame.height).data;
      const b = r.getImageData(0, 0, frame.width, frame.height).data;
      let differ = 0;
      for (let i = 0; i < a.length; i += 4) {
        const off = Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!));
        if (off > 64) differ++;
      }
      return { differ, total: a.length / 4 };
    }, `/api/artworks/${id}/image/display`);
    console.log(`replay's last frame against the submitted image: ${differ} of ${total} pixels differ`);
    expect(differ, 'the last frame was captured').toBeGreaterThanOrEqual(0);
    expect(differ / total).toBeLessThan(0.005);
    await screen.screenshot({ path: `${SCREENS}/show-replay-desktop-light.png` });
    await seed.admin('POST', '/api/show', { action: 'stop' });

    // the detail page replays it too, on request
    await screen.goto(`/artwork/${id}`);
    await screen.getByRole('button', { name: 'Replay drawing' }).click();
    await expect
      .poll(() => screen.getByTestId('stroke-replay').getAttribute('data-replayed'), { timeout: 20_000 })
      .toBe('done');
  }, 120_000);
});
