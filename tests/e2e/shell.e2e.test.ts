import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder, signedInContext } from '../support/seedGallery.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';
import { hoverForTooltip } from '../support/tooltip.ts';

let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  fs.mkdirSync('test-results/screens', { recursive: true });
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function visitor(
  options: BrowserContextOptions = {},
  server: TestServer = t,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, ...options });
  contexts.push(context);
  return { context, page: await context.newPage() };
}

const visible = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(true);
const hidden = (locator: { isVisible(): Promise<boolean> }, timeout = 10_000) =>
  expect.poll(() => locator.isVisible(), { timeout }).toBe(false);

async function throughGate(page: Page, password: string) {
  await page.goto('/');
  await visible(page.getByRole('heading', { name: 'Access Required' }));
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Enter Gallery' }).click();
}

const storage = (page: Page) =>
  page.evaluate(() => ({
    authenticated: localStorage.getItem('isAuthenticated'),
    admin: localStorage.getItem('isAdmin'),
    token: localStorage.getItem('sessionToken'),
    welcome: localStorage.getItem('welcomeAgreed'),
  }));

describe('the gate', () => {
  it('shows Loading... while it checks, then only the gate with its texts', async () => {
    const { page } = await visitor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/gate', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/gallery');
    await visible(page.getByText('Loading...'));
    release();
    await visible(page.getByRole('heading', { name: 'Access Required' }));
    await visible(page.getByText('This is a private art gallery. Please enter the password to continue.'));
    await visible(page.getByLabel('Password'));
    await visible(page.getByRole('button', { name: 'Enter Gallery' }));
    // The site stays hidden: no navigation, no gallery.
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await page.getByText('Loading amazing artwork').count()).toBe(0);
  });

  it('says a wrong password is wrong, clears the field, and shows Logging in... meanwhile', async () => {
    const { page } = await visitor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Enter Gallery' }).click();
    await visible(page.getByRole('button', { name: 'Logging in...' }));
    release();
    await visible(page.getByText('Incorrect password. Please try again.'));
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await storage(page)).toMatchObject({ authenticated: null, admin: null });
  });

  it('says Login failed when the server cannot be reached', async () => {
    const { page } = await visitor();
    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await page.goto('/');
    await page.getByLabel('Password').fill(PASSWORDS.guest);
    await page.getByRole('button', { name: 'Enter Gallery' }).click();
    await visible(page.getByText('Login failed. Please try again.'));
  });

  it('can be passed with the keyboard alone', async () => {
    const { page } = await visitor();
    await page.goto('/');
    await visible(page.getByRole('heading', { name: 'Access Required' }));
    // The password field has focus on arrival; Tab reaches the button, Enter submits.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('gate-password');
    await page.keyboard.type(PASSWORDS.guest);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Enter Gallery');
    await page.keyboard.press('Enter');
    await visible(page.getByRole('link', { name: 'Browse Gallery' }));

    // ...and on into the gallery, still by keyboard.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Browse Gallery') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL('**/gallery');
    await visible(page.getByRole('heading', { name: 'The Tribute Gallery' }));
  });

  it('takes an admin to /admin with both flags stored', async () => {
    const { page } = await visitor();
    await throughGate(page, PASSWORDS.admin);
    await page.waitForURL('**/admin');
    await expect.poll(() => storage(page)).toMatchObject({ authenticated: 'true', admin: 'true' });
  });
});

describe('the birthday riddle', () => {
  let birthday: TestServer;
  beforeAll(async () => {
    birthday = await startTestServer({ TRIBUTE_BIRTHDAY: new Date().toISOString().slice(0, 10), TZ: 'UTC' });
  });
  afterAll(() => birthday?.close());

  it('asks instead of the password form, rejects a wrong answer, and lets the right one in', async () => {
    const { page } = await visitor({}, birthday);
    await page.goto('/');
    await visible(page.getByRole('dialog', { name: /A Birthday Riddle/ }));
    await visible(page.getByText('How old is Alex turning?'));
    expect(await page.getByRole('button', { name: 'Enter Gallery' }).count()).toBe(0);

    await page.getByLabel('Your answer').fill('forty nine');
    await page.getByRole('button', { name: 'Submit Answer' }).click();
    await visible(page.getByText("Not quite right! Think about Alex's age in words..."));
    expect(await page.getByLabel('Your answer').inputValue()).toBe('');

    await page.getByLabel('Your answer').fill('Fifty');
    await page.getByRole('button', { name: 'Submit Answer' }).click();
    await visible(page.getByRole('link', { name: 'Browse Gallery' }));
    expect(await storage(page)).toMatchObject({ authenticated: 'true', admin: null });
  });
});

describe('dates judged by the browser clock', () => {
  it('shows the welcome rules before the cutoff; continue waits for the checkbox; agreeing once is remembered', async () => {
    const { context, page } = await visitor();
    await context.clock.setFixedTime(new Date('2025-09-01T10:00:00'));
    await throughGate(page, PASSWORDS.guest);
    const dialog = page.getByRole('dialog', { name: "Welcome to Alex's Secret Tribute Gallery" });
    await visible(dialog);
    for (const rule of ['Keep it secret', 'Be respectful', 'Original work only', 'No offensive content']) {
      await visible(dialog.getByText(rule));
    }
    await visible(dialog.getByText('All submissions need approval before appearing in the gallery.'));
    await visible(dialog.getByText('The gallery is revealed at the brokerage meeting on September 11.'));

    const proceed = dialog.getByRole('button', { name: 'Continue to the Gallery' });
    expect(await proceed.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox').check();
    expect(await proceed.isEnabled()).toBe(true);
    await proceed.click();
    await hidden(dialog);
    expect((await storage(page)).welcome).toBe('true');

    await page.reload();
    await visible(page.getByRole('link', { name: 'Browse Gallery' }));
    await page.waitForTimeout(500);
    expect(await dialog.count()).toBe(0);
  });

  it('shows no welcome modal after the cutoff: the first second of the window celebrates instead', async () => {
    const { context, page } = await visitor();
    await context.clock.setFixedTime(new Date('2025-09-11T00:00:01'));
    await throughGate(page, PASSWORDS.guest);
    await page.getByRole('button', { name: 'Enter the Birthday Gallery!' }).click();
    await visible(page.getByRole('heading', { name: 'The Tribute Gallery' }));
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('celebrates a guest who logs in during the celebration window, with 80 pieces of confetti', async () => {
    const { context, page } = await visitor();
    await context.clock.setFixedTime(new Date('2025-09-12T12:00:00'));
    await throughGate(page, PASSWORDS.guest);
    const dialog = page.getByRole('dialog', { name: 'HAPPY BIRTHDAY' });
    await visible(dialog);
    await visible(dialog.getByText('Alex!', { exact: true }));
    expect(await page.getByTestId('confetti').locator('span').count()).toBe(80);
    // The gallery opens only when the modal closes.
    expect((await storage(page)).authenticated).toBeNull();
    await dialog.getByRole('button', { name: 'Enter the Birthday Gallery!' }).click();
    // the button opens the gallery itself, not the landing page
    await visible(page.getByRole('heading', { name: 'The Tribute Gallery' }));
    expect(new URL(page.url()).pathname).toBe('/gallery');
    expect(await page.title()).toBe('Gallery · Tribute Gallery');
    expect((await storage(page)).authenticated).toBe('true');
    // The confetti is gone after its 4000 ms.
    await hidden(page.getByTestId('confetti'), 6000);
  });

  it('drops the confetti for visitors who prefer reduced motion', async () => {
    const { context, page } = await visitor({ reducedMotion: 'reduce' });
    await context.clock.setFixedTime(new Date('2025-09-15T18:00:00'));
    await throughGate(page, PASSWORDS.guest);
    await visible(page.getByRole('dialog', { name: 'HAPPY BIRTHDAY' }));
    expect(await page.getByTestId('confetti').count()).toBe(0);
  });

  it('neither welcomes nor celebrates after the window', async () => {
    const { context, page } = await visitor();
    await context.clock.setFixedTime(new Date('2025-09-16T09:00:00'));
    await throughGate(page, PASSWORDS.guest);
    await visible(page.getByRole('link', { name: 'Browse Gallery' }));
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe('signed in', () => {
  it('logs out: the server ends the session, the flags go, the gate returns', async () => {
    const { page } = await visitor();
    await throughGate(page, PASSWORDS.guest);
    await visible(page.getByRole('button', { name: 'Logout' }));
    const { token } = await storage(page);
    expect(token).toBeTruthy();
    expect((await fetch(`${t.url}/api/auth/session`, { headers: { 'x-session-token': token! } })).status).toBe(200);

    // A logout loads the page again, so nothing of the session stays in memory; the gate may show for
    // a moment before that, in the page about to go, so the flags are read in the one that loads.
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Logout' }).click();
    await reloaded;
    await visible(page.getByRole('heading', { name: 'Access Required' }));
    expect(await storage(page)).toMatchObject({ authenticated: null, admin: null, token: null });
    expect((await fetch(`${t.url}/api/auth/session`, { headers: { 'x-session-token': token! } })).status).toBe(401);
    // The cookie is gone too: the API refuses this browser now.
    expect((await page.request.get('/api/gallery')).status()).toBe(401);
  });

  it('has a header with the five links, a home link, and a live viewer count', async () => {
    const { context, page } = await signedInContext(browser, t, 'guest');
    contexts.push(context);
    await page.goto('/gallery');
    const main = page.getByRole('navigation', { name: 'Main' });
    await visible(main);
    for (const [name, path] of [
      ['Gallery', '/gallery'],
      ['Share Artwork', '/submit'],
      ['Begin Creating', '/create'],
      ['Add Media', '/submit-media'],
      ['Tell a Story', '/submit-story'],
    ]) {
      expect(await main.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(path);
    }
    expect(await page.getByRole('link', { name: 'Tribute Gallery' }).getAttribute('href')).toBe('/');
    const viewing = page.getByText(/^\d+ viewing$/);
    await visible(viewing);
    const count = async () => Number((await viewing.textContent())?.split(' ')[0]);
    // Other tests' browsers may still be open; a second tab here adds one, closing it takes it away.
    await page.waitForTimeout(500);
    const before = await count();
    // The dot beside it pulses once as the count changes (a new dot starts the animation), then rests,
    // and does not pulse on a page just opened (decisions 155 and 156): a pulsing dot keeps the
    // compositor drawing 60 frames a second.
    const dot = page.getByTestId('presence-dot');
    const animation = (d: Element) => {
      const style = getComputedStyle(d);
      return [style.animationName, style.animationIterationCount];
    };
    const pulsing = () => dot.evaluate((d) => d.getAnimations().some((a) => a.playState === 'running'));
    await expect.poll(pulsing, { timeout: 10_000 }).toBe(false);
    await dot.evaluate((d) => d.setAttribute('data-before', ''));
    const second = await context.newPage();
    await second.goto('/gallery');
    await expect.poll(count, { timeout: 10_000 }).toBe(before + 1);
    expect(await dot.evaluate((d) => d.hasAttribute('data-before'))).toBe(false);
    expect(await dot.evaluate(animation)).toEqual(['presence-pulse', '1']);
    const secondDot = second.getByTestId('presence-dot');
    await visible(secondDot);
    expect(await secondDot.evaluate(animation)).toEqual(['none', '1']);
    await expect.poll(pulsing, { timeout: 10_000 }).toBe(false);
    await second.close();
    await expect.poll(count, { timeout: 10_000 }).toBe(before);
    // The landing page has no header.
    await page.goto('/');
    await visible(page.getByRole('link', { name: 'Browse Gallery' }));
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  });

  it('opens and closes the mobile menu on a phone, with a tooltip on its icon button', async () => {
    const { context, page } = await signedInContext(browser, t, 'guest', { viewport: { width: 390, height: 844 } });
    contexts.push(context);
    await page.goto('/gallery');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await visible(toggle);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await hidden(page.getByRole('navigation', { name: 'Mobile' }));

    // Hover: nothing for a while, then the tooltip after its 700 ms delay (timed by the page's clock).
    expect(await hoverForTooltip(page, toggle, 'Open menu')).toBeGreaterThanOrEqual(700);

    await page.screenshot({ path: 'test-results/screens/menu-tooltip-light-phone.png' });
    await toggle.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await visible(menu);
    await page.screenshot({ path: 'test-results/screens/menu-open-light-phone.png' });
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await menu.getByRole('link', { name: 'Tell a Story' }).click();
    await page.waitForURL('**/submit-story');
    await hidden(menu);

    // Escape closes it as well.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(menu);
    await page.keyboard.press('Escape');
    await hidden(menu);
  });

  it('shows one toast at a time: F8 focuses the region, a swipe right past 50 px dismisses it, 5 s ends it', async () => {
    const seed = await seeder(t);
    await seed.artwork({ title: 'Toast Test Piece' });
    const { context, page } = await signedInContext(browser, t, 'guest');
    contexts.push(context);
    await page.route('**/api/artworks/*/likes', (route) => route.fulfill({ status: 500, body: '{"message":"boom"}' }));
    await page.goto('/gallery');
    const like = page.getByRole('button', { name: /^Like \(/ }).first();
    await visible(like);

    const message = page.getByText('Failed to process your request. Please try again.');
    await like.click();
    await visible(message);
    await like.click();
    await visible(message);
    expect(await page.getByRole('alert').count()).toBe(1);

    // focused, the toast waits (a screenshot on a busy machine can outlast its 5 s)
    await page.keyboard.press('F8');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Notifications (F8)');
    await page.screenshot({ path: 'test-results/screens/toast-light-desktop.png' });

    const toastBox = await page.getByRole('alert').boundingBox();
    expect(toastBox!.width).toBeLessThanOrEqual(420);
    const y = toastBox!.y + toastBox!.height / 2;
    const x = toastBox!.x + 40;
    // 30 px is not enough: it springs back.
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 30, y, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect(await message.isVisible()).toBe(true);
    // Past 50 px it goes.
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 80, y, { steps: 8 });
    await page.mouse.up();
    await hidden(message, 2000);

    // Left alone, a toast lasts 5000 ms.
    await page.mouse.move(10, 10);
    await like.click();
    await visible(message);
    const shownAt = Date.now();
    await hidden(message, 8000);
    expect(Date.now() - shownAt).toBeGreaterThan(4000);
  });
});
