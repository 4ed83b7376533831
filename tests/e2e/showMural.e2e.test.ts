import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder, signedInContext, type Seeder } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The presenter puts the mural up: every following /reveal paints it, live (decision 046). */
let t: TestServer;
let browser: Browser;
let seed: Seeder;
const contexts: BrowserContext[] = [];
const SCREENS = 'test-results/screens';
const RED = [0xdc, 0x26, 0x26];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  seed = await seeder(t);
  await seed.story({ title: 'The Coffee Machine', content: 'Every morning at seven the coffee machine sang.' });
  await seed.artwork({ title: 'Sunflowers', artistName: 'Robin Park', color: '#f2cc8f' });
  fs.mkdirSync(SCREENS, { recursive: true });
}, 180_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await t?.close();
});

async function open(role: 'guest' | 'admin', url: string, options: BrowserContextOptions = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, role, options);
  contexts.push(context);
  await page.goto(url);
  return page;
}

const slideOf = (page: Page) => page.locator('[data-slide]').getAttribute('data-slide', { timeout: 10_000 });
/** A pixel of the page's mural canvas, in the mural's own 1600 × 800 coordinates. */
const pixel = (page: Page, x: number, y: number) =>
  page.evaluate(
    ([x, y]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="mural-canvas"]')!;
      return [...canvas.getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3)];
    },
    [x, y],
  );

describe('the mural on the show', () => {
  it('the presenter shows the mural; a follower paints it and a guest’s stroke appears there live; next moves on', async () => {
    await seed.admin('POST', '/api/show', { action: 'stop' });
    const presenter = await open('admin', '/admin/show');
    const screen = await open('guest', '/reveal', { viewport: { width: 1600, height: 900 }, colorScheme: 'dark' });
    await presenter.getByRole('button', { name: 'Start the show' }).click();
    const show = async () =>
      (await seed.guest('GET', '/api/show')).body as { state: string; upNext: Array<{ kind: string; id: number }> };
    await expect.poll(async () => (await show()).state).toBe('running');
    const started = await show();
    await expect.poll(() => slideOf(screen)).not.toBe('mural:1');

    await presenter.getByRole('button', { name: 'Show the mural' }).click();
    await expect.poll(() => slideOf(screen), { timeout: 10_000 }).toBe('mural:1');
    await expect
      .poll(() => screen.getByTestId('mural-canvas').getAttribute('data-position'), { timeout: 15_000 })
      .not.toBeNull();
    await expect.poll(() => presenter.getByTestId('presenter-current').getAttribute('data-item')).toBe('mural:1');
    await expect
      .poll(() => presenter.getByRole('button', { name: 'The mural is on every screen' }).isDisabled())
      .toBe(true);
    await presenter.screenshot({ path: `${SCREENS}/show-mural-presenter.png` });
    expect(await pixel(screen, 450, 400)).toEqual([255, 255, 255]);
    // read-only: nothing to draw with on the big screen, and no reaction bar
    expect(await screen.getByTestId('mural-draw').count()).toBe(0);

    // a guest draws on /mural; the stroke fills in on the big screen
    const artist = await open('guest', '/mural?debug');
    await expect.poll(() => artist.getByTestId('mural-canvas').getAttribute('data-position')).not.toBeNull();
    await artist.getByRole('group', { name: 'Palette' }).getByRole('button', { name: 'Red' }).click();
    await artist.getByRole('slider', { name: /Size/ }).fill('30');
    const box = (await artist.getByTestId('mural-draw').boundingBox())!;
    const at = (x: number, y: number) => [box.x + (x * box.width) / 1600, box.y + (y * box.height) / 800] as const;
    await artist.mouse.move(...at(200, 400));
    await artist.mouse.down();
    await artist.mouse.move(...at(700, 400), { steps: 12 });
    await artist.mouse.up();
    await expect.poll(() => pixel(screen, 450, 400), { timeout: 10_000 }).toEqual(RED);
    expect(await screen.getByTestId('mural-canvas').getAttribute('data-strokes')).toBe('1');
    await screen.screenshot({ path: `${SCREENS}/show-mural-desktop-dark.png` });

    // next goes on to what was next before the mural
    await presenter.getByRole('button', { name: 'Next' }).click();
    const after = started.upNext[0]!;
    await expect.poll(() => slideOf(screen), { timeout: 10_000 }).toBe(`${after.kind}:${after.id}`);
  });
});
