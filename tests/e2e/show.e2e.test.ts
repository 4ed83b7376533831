import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder, signedInContext, type Seeder } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
let seed: Seeder;
const contexts: BrowserContext[] = [];
const SCREENS = 'test-results/screens';
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

async function open(role: 'guest' | 'admin', url: string, options = {}): Promise<Page> {
  const { context, page } = await signedInContext(browser, t, role, options);
  contexts.push(context);
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
    // the contract's bound for the typical tap; the slowest is reported (a shared two-core machine
    // runs the server, the database and three browsers here; `npm run bench` measures the server alone)
    const sorted = [...delays].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(300);

    // back a step, then a follower that reloads mid-show lands on the current item
    await presenter.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(async () => (await showNow()).index).toBe(2);
    const current = await showNow();
    const expected = `${current.current!.kind}:${current.current!.id}`;
    await phone.reload();
    await expect.poll(() => slideOf(phone), { timeout: 10_000 }).toBe(expected);
    await expect.poll(() => slideOf(bigScreen)).toBe(expected);

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
  }, 120_000);
});
