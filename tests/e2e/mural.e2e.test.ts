import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { signedInContext } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The mural with three screens at once (CONTRACT §8): a desktop drawing with the mouse, a phone
 * drawing by touch, and an admin. Every check reads the canvases' own pixels.
 */
let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const SCREENS = 'test-results/screens';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
}, 120_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await t?.close();
});

type Point = { x: number; y: number };
type RGB = [number, number, number];
const RED: RGB = [0xdc, 0x26, 0x26];
const BLUE: RGB = [0x25, 0x63, 0xeb];
const GREEN: RGB = [0x16, 0xa3, 0x4a];
const WHITE: RGB = [255, 255, 255];

async function open(role: 'guest' | 'admin', options: BrowserContextOptions = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, role, options);
  contexts.push(context);
  await page.goto('/mural?debug');
  await expect
    .poll(() => page.getByTestId('mural-canvas').getAttribute('data-position'), { timeout: 15_000 })
    .not.toBeNull();
  return page;
}

/** A pixel of the mural canvas, in the mural's own 1600 × 800 coordinates. */
const pixel = (page: Page, { x, y }: Point) =>
  page.evaluate(
    ([x, y]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="mural-canvas"]')!;
      return [...canvas.getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3)];
    },
    [x, y],
  );
const shows = (page: Page, at: Point, colour: RGB, timeout = 10_000) =>
  expect.poll(() => pixel(page, at), { timeout }).toEqual(colour);

/** Mural coordinates to the page's CSS pixels. */
async function toPage(page: Page, p: Point): Promise<Point> {
  const box = (await page.getByTestId('mural-draw').boundingBox())!;
  return { x: box.x + (p.x * box.width) / 1600, y: box.y + (p.y * box.height) / 800 };
}

async function drawWithMouse(page: Page, from: Point, to: Point) {
  const a = await toPage(page, from);
  const b = await toPage(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 12 });
  await page.mouse.up();
}

async function drawByTouch(page: Page, from: Point, to: Point) {
  const cdp = await page.context().newCDPSession(page);
  const a = await toPage(page, from);
  const b = await toPage(page, to);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
  for (let i = 1; i <= 12; i++) {
    const p = { x: a.x + ((b.x - a.x) * i) / 12, y: a.y + ((b.y - a.y) * i) / 12 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function pick(page: Page, colour: string, size = 20) {
  await page.getByRole('group', { name: 'Palette' }).getByRole('button', { name: colour }).click();
  await page.getByRole('slider', { name: /Size/ }).fill(String(size));
}

const strokeCount = (page: Page) => page.getByTestId('mural-canvas').getAttribute('data-strokes');

describe('the mural, three screens at once', () => {
  it("shows one's own stroke on the canvas while the pointer is still down, before anything is sent", async () => {
    const page = await open('guest');
    await pick(page, 'Red');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/mural/strokes')) posts.push(request.url());
    });
    const before = await strokeCount(page);
    const from = await toPage(page, { x: 200, y: 60 });
    const to = await toPage(page, { x: 500, y: 60 });
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 12 });

    // the pointer is still down: the stroke is on the drawing overlay within a frame or two ...
    const overlayPixel = (p: Point) =>
      page.evaluate(
        ([x, y]) => {
          const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="mural-draw"]')!;
          return [...canvas.getContext('2d')!.getImageData(x!, y!, 1, 1).data];
        },
        [p.x, p.y],
      );
    await expect.poll(() => overlayPixel({ x: 350, y: 60 }), { timeout: 2000 }).toEqual([...RED, 255]);
    // ... and on screen, over the mural, as a person sees the page
    const middle = await toPage(page, { x: 350, y: 60 });
    const shot = await page.screenshot({
      clip: { x: Math.round(middle.x), y: Math.round(middle.y), width: 1, height: 1 },
    });
    expect([...(await sharp(shot).removeAlpha().raw().toBuffer())]).toEqual(RED);
    // nothing has been sent yet, and the mural itself does not hold it
    expect(posts).toHaveLength(0);
    expect(await strokeCount(page)).toBe(before);
    expect(await pixel(page, { x: 350, y: 60 })).toEqual(WHITE);

    // lifted: one stroke is sent, and the mural holds it
    await page.mouse.up();
    await shows(page, { x: 350, y: 60 }, RED);
    expect(posts).toHaveLength(1);
  }, 60_000);

  it('draws live across desktop, phone (touch) and admin; undo; offline catch-up; freeze into a matching pending artwork', async () => {
    const desk = await open('guest');
    const phone = await open('guest', PHONE);
    const admin = await open('admin');

    // the phone scales the 2:1 canvas into its width, and draws by touch without scrolling
    const phoneBox = (await phone.getByTestId('mural-draw').boundingBox())!;
    expect(phoneBox.width).toBeLessThanOrEqual(390);
    expect(Math.abs(phoneBox.height - phoneBox.width / 2)).toBeLessThanOrEqual(1.5);

    // a desktop stroke appears everywhere
    await pick(desk, 'Red');
    await drawWithMouse(desk, { x: 200, y: 200 }, { x: 700, y: 200 });
    await shows(desk, { x: 450, y: 200 }, RED, 2000); // at once on one's own screen
    for (const page of [phone, admin]) await shows(page, { x: 450, y: 200 }, RED);

    // a phone stroke, by finger
    await pick(phone, 'Blue');
    const scrollBefore = await phone.evaluate(() => window.scrollY);
    await drawByTouch(phone, { x: 1000, y: 100 }, { x: 1000, y: 700 });
    for (const page of [phone, desk, admin]) await shows(page, { x: 1000, y: 400 }, BLUE);
    expect(await phone.evaluate(() => window.scrollY)).toBe(scrollBefore);

    // undo takes the desktop's own stroke off every screen, and leaves the phone's
    await desk.getByRole('button', { name: 'Undo' }).click();
    for (const page of [desk, phone, admin]) {
      await shows(page, { x: 450, y: 200 }, WHITE);
      await shows(page, { x: 1000, y: 400 }, BLUE);
    }

    // the phone goes offline and misses strokes; back online, it has them all
    await phone.context().setOffline(true);
    await expect.poll(() => phone.evaluate(() => window.__tributeLive?.connected), { timeout: 10_000 }).toBe(false);
    const missedFrom = await strokeCount(phone);
    await pick(desk, 'Green');
    for (const y of [300, 400, 500]) await drawWithMouse(desk, { x: 100, y }, { x: 600, y });
    for (const y of [300, 400, 500]) await shows(admin, { x: 350, y }, GREEN);
    expect(await strokeCount(phone)).toBe(missedFrom);
    await phone.context().setOffline(false);
    for (const y of [300, 400, 500]) await shows(phone, { x: 350, y }, GREEN);
    await expect.poll(() => strokeCount(phone), { timeout: 10_000 }).toBe(await strokeCount(admin));

    // a moderator taps a guest's stroke off the mural: gone on every screen, the rest untouched
    await pick(desk, 'Red');
    await drawWithMouse(desk, { x: 1200, y: 700 }, { x: 1500, y: 700 });
    for (const page of [desk, phone, admin]) await shows(page, { x: 1350, y: 700 }, RED);
    const removeMode = admin.getByRole('button', { name: 'Remove strokes' });
    await removeMode.click();
    await expect.poll(() => removeMode.getAttribute('aria-pressed')).toBe('true');
    const tap = await toPage(admin, { x: 1350, y: 704 });
    await admin.mouse.click(tap.x, tap.y);
    for (const page of [admin, desk, phone]) {
      await shows(page, { x: 1350, y: 700 }, WHITE);
      await shows(page, { x: 1000, y: 400 }, BLUE);
      await shows(page, { x: 350, y: 400 }, GREEN);
    }
    await expect.poll(() => admin.getByText(/Stroke \d+ removed\./).isVisible()).toBe(true);
    await removeMode.click();
    // and, from the keyboard, the newest stroke: here the phone's
    await pick(phone, 'Red');
    await drawByTouch(phone, { x: 1200, y: 120 }, { x: 1500, y: 120 });
    for (const page of [desk, admin]) await shows(page, { x: 1350, y: 120 }, RED);
    await admin.getByRole('button', { name: 'Remove newest stroke' }).focus();
    await admin.keyboard.press('Enter');
    for (const page of [phone, desk, admin]) await shows(page, { x: 1350, y: 120 }, WHITE);
    await expect.poll(() => strokeCount(phone), { timeout: 10_000 }).toBe(await strokeCount(admin));

    // screenshots to look at: desktop and phone as they are now
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [page, name] of [
        [desk, 'desktop'],
        [phone, 'phone'],
      ] as const) {
        await page.emulateMedia({ colorScheme });
        await page.screenshot({ path: `${SCREENS}/mural-open-${colorScheme}-${name}.png`, fullPage: name === 'phone' });
      }
    }

    // the admin freezes: a pending artwork whose pixels are the mural
    admin.once('dialog', (dialog) => void dialog.accept());
    await admin.getByRole('button', { name: 'Freeze' }).click();
    for (const page of [admin, desk, phone]) {
      await expect
        .poll(() => page.getByTestId('mural-canvas').getAttribute('data-state'), { timeout: 15_000 })
        .toBe('frozen');
    }
    const mural = (await (await admin.request.get('/api/mural')).json()) as { artworkId: number };
    const artwork = await (await admin.request.get(`/api/artworks/${mural.artworkId}`)).json();
    expect(artwork).toMatchObject({ status: 'pending', isFromCanvas: 'true' });
    const queue = await (await admin.request.get('/api/admin/artworks/pending')).text();
    expect(queue).toContain(`"id":${mural.artworkId}`);

    const image = await sharp(
      Buffer.from(await (await admin.request.get(`/api/artworks/${mural.artworkId}/image/original`)).body()),
    )
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(image.info).toMatchObject({ width: 1600, height: 800 });
    // the admin's canvas as it is on screen, losslessly
    const dataUrl = await admin.evaluate(() =>
      document.querySelector<HTMLCanvasElement>('[data-testid="mural-canvas"]')!.toDataURL('image/png'),
    );
    const onScreen = await sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer();
    let differing = 0;
    for (let i = 0, j = 0; i < onScreen.length; i += 4, j += 3) {
      const d = Math.max(
        Math.abs(onScreen[i]! - image.data[j]!),
        Math.abs(onScreen[i + 1]! - image.data[j + 1]!),
        Math.abs(onScreen[i + 2]! - image.data[j + 2]!),
      );
      if (d > 24) differing++;
    }
    // the same painter on both sides: at most a sliver of edge pixels rounds differently
    expect(differing / (1600 * 800)).toBeLessThan(0.001);
    const at = (x: number, y: number) => [...image.data.subarray((y * 1600 + x) * 3, (y * 1600 + x) * 3 + 3)];
    expect(at(1000, 400)).toEqual(BLUE);
    expect(at(350, 400)).toEqual(GREEN);
    expect(at(450, 200)).toEqual(WHITE);

    // frozen: nobody draws any more
    const before = await strokeCount(desk);
    await drawWithMouse(desk, { x: 1300, y: 600 }, { x: 1500, y: 600 });
    await desk.waitForTimeout(500);
    expect(await strokeCount(desk)).toBe(before);
    expect(await pixel(desk, { x: 1400, y: 600 })).toEqual(WHITE);

    // its artwork page offers no replay: the picture's strokes are the mural's, not a recording (404)
    const recording = admin.waitForResponse((r) => r.url().endsWith(`/api/artworks/${mural.artworkId}/strokes`));
    await admin.goto(`/artwork/${mural.artworkId}`);
    expect((await recording).status()).toBe(404);
    await expect.poll(() => admin.getByRole('heading', { name: 'The group mural' }).isVisible()).toBe(true);
    expect(await admin.getByRole('button', { name: 'Replay drawing' }).count()).toBe(0);
  }, 240_000);

  it('a frozen mural on a phone and a desktop, light and dark (screenshots)', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const desk = await open('admin', { colorScheme });
      await desk.screenshot({ path: `${SCREENS}/mural-frozen-admin-${colorScheme}-desktop.png` });
      const phone = await open('guest', { ...PHONE, colorScheme });
      await phone.screenshot({ path: `${SCREENS}/mural-frozen-${colorScheme}-phone.png`, fullPage: true });
    }
  }, 60_000);
});
