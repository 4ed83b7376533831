import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MontageStatus } from '#contract/montage.ts';
import { axeViolations, settled } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { removeTestMedia } from '../support/media.ts';
import { seeder, signedInContext, type Seeder } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The presenter puts the montage up (CONTRACT §12, decision 125): only a film of the videos approved
 * now, the one `/api/montage.mp4` serves; every following /reveal plays it.
 */
let t: TestServer;
let browser: Browser;
let seed: Seeder;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  seed = await seeder(t);
  await seed.story({ title: 'The Coffee Machine', content: 'Every morning at seven the coffee machine sang.' });
  await seed.media({ file: 'mp4', title: 'A toast from the team', artistName: 'Mo Tage' });
}, 180_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await t?.close();
  await removeTestMedia();
});

async function open(role: 'guest' | 'admin', url: string, options: BrowserContextOptions = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, role, options);
  contexts.push(context);
  await page.goto(url);
  return page;
}

const slideOf = (page: Page) => page.locator('[data-slide]').getAttribute('data-slide', { timeout: 10_000 });
const montage = async () => (await seed.admin('GET', '/api/admin/montage')).body as MontageStatus;
const putUp = (action: 'goto' | 'queue') => seed.admin('POST', '/api/show', { action, kind: 'montage' });
const NOT_READY = { status: 409, body: { message: 'The montage is not ready' } };

describe('the montage on the show', () => {
  it('cannot be put up before it is made', async () => {
    expect((await seed.admin('POST', '/api/show', { action: 'start' })).status).toBe(200);
    expect(await putUp('goto')).toMatchObject(NOT_READY);
    expect(await putUp('queue')).toMatchObject(NOT_READY);
    expect((await seed.admin('POST', '/api/show', { action: 'goto', kind: 'montage', id: 2 })).status).toBe(404);
    const presenter = await open('admin', '/admin/show');
    await expect.poll(() => presenter.getByRole('button', { name: 'Show the mural' }).isVisible()).toBe(true);
    expect(await presenter.getByRole('button', { name: 'Show the montage' }).count()).toBe(0);
    expect((await seed.admin('POST', '/api/show', { action: 'stop' })).status).toBe(200);
  });

  it('once made, the presenter puts it up and every screen plays it; stale, it is refused and the screen says so', async () => {
    expect((await seed.admin('POST', '/api/admin/montage')).status).toBe(202);
    await expect.poll(async () => (await montage()).state, { timeout: 180_000, interval: 500 }).toBe('ready');

    const presenter = await open('admin', '/admin/show', { viewport: { width: 390, height: 844 } });
    const screen = await open('guest', '/reveal', { viewport: { width: 1280, height: 800 } });
    await presenter.getByRole('button', { name: 'Start the show' }).click();
    await expect.poll(async () => (await seed.guest('GET', '/api/show')).body.state).toBe('running');
    await expect.poll(() => slideOf(screen), { timeout: 30_000 }).toMatch(/^(story|media):/);

    await presenter.getByRole('button', { name: 'Show the montage' }).click();
    await expect.poll(() => slideOf(screen), { timeout: 30_000 }).toBe('montage:1');
    const film = screen.getByLabel('The montage');
    await expect
      .poll(() => film.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await film.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1280, 720]);
    expect(await screen.getByRole('heading', { name: "The film of everyone's messages" }).isVisible()).toBe(true);
    await expect.poll(() => presenter.getByTestId('presenter-current').getAttribute('data-item')).toBe('montage:1');
    expect(await presenter.getByRole('button', { name: 'The montage is on every screen' }).isDisabled()).toBe(true);
    expect((await seed.guest('GET', '/api/show')).body.current).toEqual({ kind: 'montage', id: 1 });
    await shots(presenter, screen);
    // issue 27: axe finds nothing serious on the presenter (phone) or the big screen (desktop) while the
    // film plays, light and dark
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [name, page] of [
        ['presenter', presenter],
        ['reveal', screen],
      ] as const) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        expect(await serious(page), `${name}, ${colorScheme}`).toEqual([]);
      }
    }

    // a video approved during the meeting: the film no longer holds every message, so it is not served
    await seed.media({ file: 'mp4', title: 'A late toast', artistName: 'Val Filmer' });
    await expect.poll(async () => (await montage()).state).toBe('stale');
    expect(await putUp('queue')).toMatchObject(NOT_READY);
    await screen.reload();
    await expect
      .poll(() => screen.getByText('The film is being made again').isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await screen.getByLabel('The montage').count()).toBe(0);

    await presenter.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => slideOf(screen), { timeout: 30_000 }).not.toBe('montage:1');
  }, 480_000);
});

/** axe's serious and critical violations on the page as it is now, each with the elements it names. */
async function serious(page: Page) {
  return (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html}`).join(', ')}`);
}

/** The presenter and the big screen on a phone and a desktop, light and dark (when KEEPSAKE_SHOTS is set). */
async function shots(presenter: Page, screen: Page) {
  const dir = process.env.KEEPSAKE_SHOTS;
  if (!dir) return;
  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [name, page] of [
        ['presenter', presenter],
        ['reveal', screen],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await page.screenshot({ path: path.join(dir, `show-montage-${name}-${size}-${colorScheme}.png`) });
      }
    }
  }
  await presenter.setViewportSize({ width: 390, height: 844 });
}
