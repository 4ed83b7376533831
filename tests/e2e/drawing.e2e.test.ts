import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrowBarbs, starPoints, type Point } from '../../contract/shapes.ts';
import { launchChromium } from '../support/browser.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';
import type { StrokeRecording } from '../../contract/strokes.ts';
import { differingShare } from '../../api/canvas/compare.ts';
import { paintRgba } from '../../api/canvas/index.ts';
import { rgbaPixels } from '../../api/images/index.ts';

const WIDTH = 800;
const HEIGHT = 400;
const RED = '#dc2626';
const BLUE = '#2563eb';
const BLACK = '#1c1917';
const WHITE = '#ffffff';

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
  fs.mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A guest through the gate, in the drawing studio. */
async function studio(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: t.url, viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Password').fill(PASSWORDS.guest);
  await page.getByRole('button', { name: 'Enter Gallery' }).click();
  await expect
    .poll(() => page.getByRole('link', { name: /Browse Gallery/ }).isVisible(), { timeout: 10_000 })
    .toBe(true);
  await page.goto('/create');
  await page.locator('canvas.upper-canvas').waitFor({ timeout: 15_000 });
  return page;
}

const canvasBox = async (page: Page) => (await page.getByRole('img', { name: 'Drawing canvas' }).boundingBox())!;

/** Canvas pixels to page pixels, through however the canvas is scaled on screen. */
async function toPage(page: Page, p: Point): Promise<Point> {
  const box = await canvasBox(page);
  return { x: box.x + (p.x * box.width) / WIDTH, y: box.y + (p.y * box.height) / HEIGHT };
}

/** A mouse stroke through the given canvas points. */
const mouseStroke = (page: Page, ...points: Point[]) => strokeIn(page, 15, ...points);

/** A mouse stroke through the given canvas points, with `steps` moves between each two. */
async function strokeIn(page: Page, steps: number, ...points: Point[]) {
  const [first, ...rest] = await Promise.all(points.map((p) => toPage(page, p)));
  await page.mouse.move(first!.x, first!.y);
  await page.mouse.down();
  for (const p of rest) await page.mouse.move(p.x, p.y, { steps });
  await page.mouse.up();
  await settle(page);
}

async function settle(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function useTool(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  expect(await page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('true');
}

interface Pixels {
  width: number;
  height: number;
  /** The colour at a point in canvas pixels. */
  at(p: Point): [number, number, number];
  /** How many pixels in a box (canvas pixels) are not white. */
  inked(left: number, top: number, right: number, bottom: number): number;
}

async function decode(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / WIDTH;
  const rgb = (x: number, y: number): [number, number, number] => {
    const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  return {
    width: info.width,
    height: info.height,
    at: (p) => rgb(p.x * scale, p.y * scale),
    inked(left, top, right, bottom) {
      let count = 0;
      for (let y = Math.ceil(top * scale); y < bottom * scale; y++) {
        for (let x = Math.ceil(left * scale); x < right * scale; x++) {
          if (rgb(x, y).some((c) => c < 235)) count++;
        }
      }
      return count;
    },
  };
}

/** What the visitor sees: Fabric's rendered canvas. */
async function canvasPixels(page: Page): Promise<Pixels> {
  await settle(page);
  const dataUrl = await page
    .locator('canvas.lower-canvas')
    .evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));
  return decode(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
}

function hex(colour: string): [number, number, number] {
  const n = Number.parseInt(colour.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function expectColour(actual: [number, number, number], expected: string, where: string, tolerance = 40) {
  const want = hex(expected);
  const off = Math.max(...actual.map((c, i) => Math.abs(c - want[i]!)));
  expect(off, `${where}: rgb(${actual.join(', ')}) should be ${expected}`).toBeLessThanOrEqual(tolerance);
}

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

describe('the drawing studio', () => {
  it('draws with every desktop tool, on an 800x400 white canvas shown 400 px high', async () => {
    const page = await studio();
    const box = await canvasBox(page);
    expect([box.width, box.height]).toEqual([WIDTH, HEIGHT]);
    let pixels = await canvasPixels(page);
    expect(pixels.inked(0, 0, WIDTH, HEIGHT)).toBe(0);

    await page.getByRole('button', { name: 'Red', exact: true }).click();
    await page.getByLabel('Size').fill('8');

    await useTool(page, 'Brush');
    await mouseStroke(page, { x: 60, y: 60 }, { x: 240, y: 60 });

    await useTool(page, 'Spray');
    await page.getByLabel('Size').fill('30');
    await mouseStroke(page, { x: 60, y: 150 }, { x: 240, y: 150 });

    await useTool(page, 'Brush');
    await page.getByRole('button', { name: 'Black', exact: true }).click();
    await page.getByLabel('Size').fill('20');
    await mouseStroke(page, { x: 60, y: 250 }, { x: 240, y: 250 });
    await useTool(page, 'Eraser');
    await mouseStroke(page, { x: 150, y: 215 }, { x: 150, y: 285 });

    await page.getByRole('button', { name: 'Red', exact: true }).click();
    await page.getByLabel('Size').fill('8');
    await useTool(page, 'Line');
    await mouseStroke(page, { x: 300, y: 60 }, { x: 500, y: 60 });
    await useTool(page, 'Arrow');
    await mouseStroke(page, { x: 300, y: 150 }, { x: 500, y: 150 });

    await page.getByLabel('Fill colour').fill(BLUE);
    expect(await page.getByLabel('Fill shapes').isChecked()).toBe(true);
    await useTool(page, 'Rectangle');
    await mouseStroke(page, { x: 300, y: 230 }, { x: 500, y: 370 });
    await useTool(page, 'Circle');
    await mouseStroke(page, { x: 620, y: 100 }, { x: 690, y: 100 });
    await useTool(page, 'Triangle');
    await mouseStroke(page, { x: 540, y: 220 }, { x: 640, y: 380 });
    await useTool(page, 'Star');
    await mouseStroke(page, { x: 720, y: 300 }, { x: 720, y: 240 });

    pixels = await canvasPixels(page);
    // brush
    expectColour(pixels.at({ x: 150, y: 60 }), RED, 'brush stroke');
    expectColour(pixels.at({ x: 150, y: 80 }), WHITE, 'beside the brush stroke');
    // spray: dots only within the 15 px radius of the path
    expect(pixels.inked(45, 135, 255, 166), 'spray dots').toBeGreaterThan(150);
    expect(pixels.inked(40, 105, 260, 131) + pixels.inked(40, 170, 260, 195), 'spray beyond its radius').toBe(0);
    // eraser: paper white where it went, the stroke untouched elsewhere
    expectColour(pixels.at({ x: 150, y: 250 }), WHITE, 'erased', 10);
    expectColour(pixels.at({ x: 80, y: 250 }), BLACK, 'not erased');
    // line
    expectColour(pixels.at({ x: 400, y: 60 }), RED, 'line');
    expectColour(pixels.at({ x: 400, y: 75 }), WHITE, 'beside the line');
    // arrow: shaft and both barbs of the head
    const [barb1, barb2] = arrowBarbs({ x: 300, y: 150 }, { x: 500, y: 150 }, 8);
    expectColour(pixels.at({ x: 400, y: 150 }), RED, 'arrow shaft');
    expectColour(pixels.at(mid(barb1, { x: 500, y: 150 })), RED, 'arrow head, one barb');
    expectColour(pixels.at(mid(barb2, { x: 500, y: 150 })), RED, 'arrow head, other barb');
    expectColour(pixels.at({ x: 400, y: 170 }), WHITE, 'beside the arrow');
    // rectangle: outline on the dragged edges, filled inside
    expectColour(pixels.at({ x: 300, y: 300 }), RED, 'rectangle edge');
    expectColour(pixels.at({ x: 400, y: 370 }), RED, 'rectangle bottom edge');
    expectColour(pixels.at({ x: 400, y: 300 }), BLUE, 'rectangle fill');
    expectColour(pixels.at({ x: 288, y: 300 }), WHITE, 'outside the rectangle');
    // circle of radius 70 around the press point
    expectColour(pixels.at({ x: 690, y: 100 }), RED, 'circle outline');
    expectColour(pixels.at({ x: 620, y: 100 }), BLUE, 'circle fill');
    expectColour(pixels.at({ x: 620, y: 185 }), WHITE, 'outside the circle');
    // triangle standing in its box
    expectColour(pixels.at({ x: 590, y: 380 }), RED, 'triangle base');
    expectColour(pixels.at({ x: 590, y: 330 }), BLUE, 'triangle fill');
    expectColour(pixels.at({ x: 548, y: 228 }), WHITE, 'beside the triangle apex');
    // star of radius 60
    const star = starPoints({ x: 720, y: 300 }, 60);
    expectColour(pixels.at({ x: 720, y: 300 }), BLUE, 'star fill');
    expectColour(pixels.at(mid(star[0]!, star[1]!)), RED, 'star edge');
    expectColour(pixels.at({ x: 720, y: 350 }), WHITE, 'between the star points');
    // nothing strays into the untouched corner
    expect(pixels.inked(0, 330, 280, HEIGHT)).toBe(0);

    await page.screenshot({ path: 'test-results/drawing-studio-desktop.png', fullPage: true });
  });

  it('undoes, redoes and clears as spec §4 says', async () => {
    const page = await studio();
    const undo = page.getByRole('button', { name: 'Undo' });
    const redo = page.getByRole('button', { name: 'Redo' });
    const A = { x: 200, y: 100 };
    const B = { x: 200, y: 300 };
    const C = { x: 600, y: 200 };
    const strokeAt = (p: Point) => mouseStroke(page, { x: p.x - 100, y: p.y }, { x: p.x + 100, y: p.y });
    const colours = async () => {
      const pixels = await canvasPixels(page);
      return [A, B, C].map((p) => (pixels.at(p).some((c) => c < 200) ? 'ink' : 'white'));
    };
    expect(await undo.isDisabled()).toBe(true);
    expect(await redo.isDisabled()).toBe(true);

    await page.getByLabel('Size').fill('10');
    await strokeAt(A);
    await strokeAt(B);
    expect(await colours()).toEqual(['ink', 'ink', 'white']);

    await undo.click();
    expect(await colours()).toEqual(['ink', 'white', 'white']);
    expect(await redo.isEnabled()).toBe(true);
    await undo.click();
    expect(await colours()).toEqual(['white', 'white', 'white']);
    expect(await undo.isDisabled(), 'the blank canvas cannot be undone').toBe(true);

    await redo.click();
    expect(await colours()).toEqual(['ink', 'white', 'white']);
    await redo.click();
    expect(await colours()).toEqual(['ink', 'ink', 'white']);
    expect(await redo.isDisabled()).toBe(true);

    await undo.click();
    await strokeAt(C);
    expect(await colours()).toEqual(['ink', 'white', 'ink']);
    expect(await redo.isDisabled(), 'a new stroke after an undo drops the redo list').toBe(true);

    await page.getByRole('button', { name: 'Clear' }).click();
    const cleared = await canvasPixels(page);
    expect(cleared.inked(0, 0, WIDTH, HEIGHT)).toBe(0);
    await undo.click();
    expect(await colours(), 'a Clear is a snapshot of its own').toEqual(['ink', 'white', 'ink']);

    await page.keyboard.press('Control+z');
    expect(await colours()).toEqual(['ink', 'white', 'white']);
    await page.keyboard.press('Control+y');
    expect(await colours()).toEqual(['ink', 'white', 'ink']);
  });

  it('folds its panel away, and draws with a pen as well as a mouse', async () => {
    const page = await studio();
    await page.getByRole('button', { name: 'Hide tools' }).click();
    expect(await page.getByRole('button', { name: 'Brush', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Show tools' }).getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Show tools' }).click();
    expect(await page.getByRole('button', { name: 'Brush', exact: true }).getAttribute('aria-pressed')).toBe('true');

    const cdp = await page.context().newCDPSession(page);
    const points = await Promise.all([100, 250, 400].map((x) => toPage(page, { x, y: 200 })));
    const pen = (type: 'mousePressed' | 'mouseMoved' | 'mouseReleased', p: Point, buttons: number) =>
      cdp.send('Input.dispatchMouseEvent', {
        type,
        x: p.x,
        y: p.y,
        button: 'left',
        buttons,
        clickCount: 1,
        pointerType: 'pen',
      });
    await pen('mousePressed', points[0]!, 1);
    for (const p of points.slice(1)) await pen('mouseMoved', p, 1);
    await pen('mouseReleased', points.at(-1)!, 0);
    const pixels = await canvasPixels(page);
    expectColour(pixels.at({ x: 250, y: 200 }), BLACK, 'pen stroke');
    expectColour(pixels.at({ x: 250, y: 230 }), WHITE, 'beside the pen stroke');
  });

  it('on a phone, offers only Draw and Erase, scales the canvas, and a finger draws without scrolling the page', async () => {
    const page = await studio({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 3,
    });
    const tools = page.getByRole('group', { name: 'Tools' }).getByRole('button');
    expect(await tools.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual([
      'Draw',
      'Erase',
    ]);
    for (const name of ['Brush', 'Spray', 'Eraser', 'Line', 'Arrow', 'Rectangle', 'Circle', 'Triangle', 'Star']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.getByRole('group', { name: 'Palette' }).getByRole('button').count()).toBe(10);
    expect(await page.getByLabel('Fill colour').count()).toBe(0);
    for (const label of ['Size', 'Outline colour', 'Opacity'])
      expect(await page.getByLabel(label).count(), label).toBe(1);

    const canvas = page.getByRole('img', { name: 'Drawing canvas' });
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvasBox(page);
    expect(box.width).toBeLessThan(390);
    expect(box.height).toBeCloseTo(box.width / 2, 0);

    const cdp = await page.context().newCDPSession(page);
    const swipe = async (from: Point, to: Point) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
      for (let i = 1; i <= 10; i++) {
        const p = { x: from.x + ((to.x - from.x) * i) / 10, y: from.y + ((to.y - from.y) * i) / 10 };
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: p.x, y: p.y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await settle(page);
    };
    const scrollY = () => page.evaluate(() => window.scrollY);

    // An upward swipe on the canvas draws; the page stays put.
    const before = await scrollY();
    await swipe(await toPage(page, { x: 400, y: 350 }), await toPage(page, { x: 400, y: 50 }));
    expect(await scrollY()).toBe(before);
    await useTool(page, 'Erase');
    await swipe(await toPage(page, { x: 300, y: 200 }), await toPage(page, { x: 500, y: 200 }));
    const pixels = await canvasPixels(page);
    expectColour(pixels.at({ x: 400, y: 300 }), BLACK, 'finger stroke');
    expectColour(pixels.at({ x: 400, y: 200 }), WHITE, 'erased by finger', 10);
    expectColour(pixels.at({ x: 200, y: 200 }), WHITE, 'beside the finger stroke');
    expect(await scrollY()).toBe(before);

    // The same swipe outside the canvas does scroll: the check above means something.
    await swipe({ x: 195, y: 80 }, { x: 195, y: 20 });
    await expect.poll(scrollY).toBeGreaterThan(before);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: 'test-results/drawing-studio-phone.png', fullPage: true });
  });

  it('enables Submit only with something drawn and a name and email, and checks the email', async () => {
    const page = await studio();
    const submit = page.getByRole('button', { name: 'Submit to Gallery' });
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Your Name').fill('Sam Painter');
    await page.getByLabel('Email Address').fill('sam@example.com');
    expect(await submit.isDisabled(), 'blank canvas').toBe(true);

    await useTool(page, 'Eraser');
    await mouseStroke(page, { x: 100, y: 100 }, { x: 700, y: 300 });
    expect(await page.getByRole('button', { name: 'Undo' }).isEnabled()).toBe(true);
    expect(await submit.isDisabled(), 'white on white is still blank').toBe(true);

    await useTool(page, 'Brush');
    await mouseStroke(page, { x: 100, y: 300 }, { x: 700, y: 100 });
    await expect.poll(() => submit.isEnabled()).toBe(true);

    await page.getByLabel('Your Name').fill('   ');
    expect(await submit.isDisabled(), 'blank name').toBe(true);
    await page.getByLabel('Your Name').fill('Sam Painter');
    await page.getByLabel('Email Address').fill(' ');
    expect(await submit.isDisabled(), 'blank email').toBe(true);

    await page.getByLabel('Email Address').fill('sam@example');
    await submit.click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Invalid email');
    expect(await alert.textContent()).toContain('Please enter a valid email address.');
    expect(page.url()).toMatch(/\/create$/);

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => submit.isDisabled(), { message: 'cleared canvas' }).toBe(true);
  });

  it('downloads a JPEG no larger than 1200x1200', async () => {
    const page = await studio();
    await page.getByRole('button', { name: 'Red', exact: true }).click();
    await page.getByLabel('Size').fill('12');
    await mouseStroke(page, { x: 100, y: 200 }, { x: 700, y: 200 });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('tribute-drawing.jpg');
    // saveAs, not path(): the file lives with the run's one Chromium, reached over a connection
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-download-')), 'drawing.jpg');
    await download.saveAs(saved);
    const file = fs.readFileSync(saved);
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeLessThanOrEqual(1200);
    expect(meta.height).toBeLessThanOrEqual(1200);
    expect([meta.width, meta.height]).toEqual([WIDTH, HEIGHT]);
    const pixels = await decode(file);
    expectColour(pixels.at({ x: 400, y: 200 }), RED, 'downloaded stroke');
    expectColour(pixels.at({ x: 400, y: 100 }), WHITE, 'downloaded paper', 8);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Downloaded!');
  });

  it('sends a drawing to the admin queue with isFromCanvas and the same pixels', async () => {
    const page = await studio();
    await page.getByRole('button', { name: 'Red', exact: true }).click();
    await page.getByLabel('Size').fill('12');
    await mouseStroke(page, { x: 80, y: 80 }, { x: 720, y: 80 });
    await page.getByRole('button', { name: 'Blue', exact: true }).click();
    await useTool(page, 'Rectangle');
    await page.getByLabel('Fill colour').fill('#16a34a');
    await mouseStroke(page, { x: 200, y: 180 }, { x: 600, y: 360 });
    const probes: Point[] = [
      { x: 400, y: 80 },
      { x: 200, y: 270 },
      { x: 400, y: 270 },
      { x: 400, y: 140 },
      { x: 700, y: 300 },
    ];
    const drawn = await canvasPixels(page);

    await page.getByLabel('Title').fill('Canvas sunrise');
    await page.getByLabel('Description').fill('Drawn in the studio');
    await page.getByLabel('Your Name').fill('Robin Sketch');
    await page.getByLabel('Email Address').fill('robin@example.com');
    await page.getByLabel('Submit anonymously').check();

    // Hold the request to see the pending state.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/artworks', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    const pending = page.getByRole('button', { name: 'Submitting...' });
    await expect.poll(() => pending.isVisible()).toBe(true);
    expect(await pending.isDisabled()).toBe(true);
    release();

    await page.waitForURL('**/gallery', { timeout: 15_000 });
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Success!');

    const token = await t.login('admin');
    const headers = { 'x-session-token': token };
    const queue = (await (await fetch(`${t.url}/api/admin/artworks/pending`, { headers })).json()) as Array<
      Record<string, string>
    >;
    const artwork = queue.find((a) => a.title === 'Canvas sunrise');
    expect(artwork).toMatchObject({
      isFromCanvas: 'true',
      artistName: 'Anonymous',
      description: 'Drawn in the studio',
      email: 'robin@example.com',
    });
    const original = await fetch(`${t.url}${artwork!.originalUrl}`, { headers });
    expect(original.status).toBe(200);
    const stored = await decode(Buffer.from(await original.arrayBuffer()));
    expect([stored.width, stored.height]).toEqual([WIDTH, HEIGHT]);
    for (const p of probes)
      expectColour(
        stored.at(p),
        `#${drawn
          .at(p)
          .map((c) => c.toString(16).padStart(2, '0'))
          .join('')}`,
        `stored pixel at ${p.x},${p.y}`,
        12,
      );
  });

  it('sends a drawing made with every tool, spray included, whose recording replays to its image', async () => {
    const page = await studio();
    await page.getByRole('button', { name: 'Red', exact: true }).click();
    await page.getByLabel('Size').fill('8');
    await useTool(page, 'Brush');
    await strokeIn(page, 6, { x: 60, y: 60 }, { x: 150, y: 90 }, { x: 240, y: 50 });
    await useTool(page, 'Spray');
    await page.getByLabel('Size').fill('30');
    await page.getByLabel('Opacity').fill('60');
    await strokeIn(page, 12, { x: 60, y: 150 }, { x: 240, y: 160 });
    await page.getByLabel('Opacity').fill('100');
    await useTool(page, 'Brush');
    await page.getByRole('button', { name: 'Black', exact: true }).click();
    await page.getByLabel('Size').fill('20');
    await strokeIn(page, 6, { x: 60, y: 250 }, { x: 240, y: 250 });
    await useTool(page, 'Eraser');
    await strokeIn(page, 6, { x: 150, y: 215 }, { x: 150, y: 285 });
    await page.getByRole('button', { name: 'Blue', exact: true }).click();
    await page.getByLabel('Size').fill('6');
    await useTool(page, 'Line');
    await strokeIn(page, 3, { x: 300, y: 60 }, { x: 500, y: 90 });
    await useTool(page, 'Arrow');
    await strokeIn(page, 3, { x: 300, y: 150 }, { x: 500, y: 120 });
    await page.getByLabel('Fill colour').fill('#16a34a');
    await page.getByLabel('Opacity').fill('50');
    await useTool(page, 'Rectangle');
    await strokeIn(page, 3, { x: 300, y: 230 }, { x: 500, y: 370 });
    await page.getByLabel('Opacity').fill('100');
    await useTool(page, 'Circle');
    await strokeIn(page, 3, { x: 620, y: 100 }, { x: 670, y: 130 });
    await useTool(page, 'Triangle');
    await strokeIn(page, 3, { x: 540, y: 220 }, { x: 640, y: 380 });
    await useTool(page, 'Star');
    await strokeIn(page, 3, { x: 720, y: 300 }, { x: 735, y: 245 });

    // what the visitor sees, without a JPEG's losses: Fabric's own canvas
    const png = await page.locator('canvas.lower-canvas').evaluate((c: HTMLCanvasElement) => c.toDataURL('image/png'));
    const drawn = await rgbaPixels(Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));

    await page.getByLabel('Title').fill('Every tool');
    await page.getByLabel('Your Name').fill('Tess Toolbox');
    await page.getByLabel('Email Address').fill('tess@example.com');
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/artworks') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Submit to Gallery' }).click();
    const answer = await sent;
    expect(answer.status(), await answer.text()).toBe(201);
    await page.waitForURL('**/gallery', { timeout: 15_000 });

    const headers = { 'x-session-token': await t.login('admin') };
    const { id } = (await answer.json()) as { id: number };
    const recording = (await (
      await fetch(`${t.url}/api/artworks/${id}/strokes`, { headers })
    ).json()) as StrokeRecording;
    expect(recording.strokes.map((s) => s.tool)).toEqual([
      'brush',
      'spray',
      'brush',
      'eraser',
      'line',
      'arrow',
      'rectangle',
      'circle',
      'triangle',
      'star',
    ]);
    // The painter of every replay (contract/paint.ts, here on the server's skia canvas) paints the
    // recording to what Fabric drew, pixel for pixel but for a few anti-aliased edge pixels; the
    // spray's random dots included.
    const painted = paintRgba(recording);
    let off = 0;
    for (let i = 0; i < painted.length; i += 4) {
      const most = Math.max(...[0, 1, 2].map((c) => Math.abs(painted[i + c]! - drawn[i + c]!)));
      if (most > 16) off++;
    }
    console.log(
      `recording's last frame against Fabric's canvas: ${off} of ${WIDTH * HEIGHT} pixels off by more than 16`,
    );
    expect(off / (WIDTH * HEIGHT)).toBeLessThan(0.001);
    // and the server measured it against the JPEG it was sent, as it does for every drawing
    const original = await fetch(`${t.url}/api/artworks/${id}/image/original`, { headers });
    const seen = await rgbaPixels(Buffer.from(await original.arrayBuffer()));
    console.log(`against the stored JPEG: ${(differingShare(painted, seen, WIDTH, HEIGHT) * 100).toFixed(3)} % differ`);
  });

  it('keeps Fabric out of the gallery: it loads only on /create', async () => {
    const page = await studio();
    const fabricLoaded = async () => {
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((name) => name.endsWith('.js')),
      );
      const bodies = await Promise.all(scripts.map(async (url) => (await fetch(url)).text()));
      return bodies.some((body) => body.includes('Trying to initialize a canvas that has already been initialized'));
    };
    expect(await fabricLoaded()).toBe(true);
    await page.goto('/gallery');
    await expect
      .poll(() => page.getByText('No content found').or(page.getByRole('article').first()).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await fabricLoaded()).toBe(false);
  });
});
