import fs from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrowBarbs, starPoints, type Point } from '../../web/src/lib/drawingShapes.ts';
import { launchChromium } from '../support/browser.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';

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
  await expect.poll(() => page.getByRole('link', { name: /Browse Gallery/ }).isVisible(), { timeout: 10_000 }).toBe(true);
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
async function mouseStroke(page: Page, ...points: Point[]) {
  const [first, ...rest] = await Promise.all(points.map((p) => toPage(page, p)));
  await page.mouse.move(first!.x, first!.y);
  await page.mouse.down();
  for (const p of rest) await page.mouse.move(p.x, p.y, { steps: 15 });
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
  const dataUrl = await page.locator('canvas.lower-canvas').evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));
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
});
