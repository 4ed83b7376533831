import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, settled, withAxe } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { removeTestMedia } from '../support/media.ts';
import { seeder } from '../support/seedGallery.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Every screen, light and dark, at 1280x800 and 390x844: axe finds nothing serious or critical. A
 * screenshot of each lands in test-results/screens/ for a person to look at with `A11Y_SHOTS=1`, and of
 * any that fails always: 84 screenshots cost about a quarter of this file's CPU (Chromium's GPU
 * process, docs/test-times.md), which a run nobody looks at need not pay.
 *
 * A screen is opened once per viewport and checked in both themes, switching the colour scheme the
 * way a system setting does (the app's dark look is CSS only): a new page for each check cost most of
 * this file's time (docs/test-times.md). A signed-in screen is opened by loading its address in a tab
 * kept for its role and viewport (a new document each time, as a visitor typing the address gets),
 * not in a new context and tab per screen; its two viewports are checked at once. Each context puts axe
 * into its documents itself (`withAxe`), so a load does not wait for axe to be sent and compiled.
 */
let t: TestServer;
let birthday: TestServer;
let browser: Browser;
const ids = { artwork: 0, story: 0, media: 0 };

const SCREENS_DIR = 'test-results/screens';
const SHOTS = process.env.A11Y_SHOTS === '1';
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[];
const THEMES = ['light', 'dark'] as const;

interface Finding {
  screen: string;
  theme: string;
  viewport: string;
  rule: string;
  impact: string | null | undefined;
  targets: string[];
  summary: string;
}
const findings: Finding[] = [];

/** Each role signed in once: the session cookie and the flags the app keeps, as signedInContext gives them. */
const signIns: Partial<Record<'guest' | 'admin', Promise<BrowserContextOptions['storageState']>>> = {};
function signIn(role: 'guest' | 'admin') {
  signIns[role] ??= (async () => {
    const context = await browser.newContext({ baseURL: t.url });
    try {
      const response = await context.request.post('/api/auth/login', { data: { password: PASSWORDS[role] } });
      const { sessionToken } = (await response.json()) as { sessionToken: string };
      const { cookies } = await context.storageState();
      const flags = { isAuthenticated: 'true', sessionToken, ...(role === 'admin' ? { isAdmin: 'true' } : {}) };
      return {
        cookies,
        origins: [{ origin: t.url, localStorage: Object.entries(flags).map(([name, value]) => ({ name, value })) }],
      };
    } finally {
      await context.close();
    }
  })();
  return signIns[role];
}

type Viewport = (typeof VIEWPORTS)[keyof typeof VIEWPORTS];

/** One tab per role and viewport, signed in once, that the signed-in screens are loaded in one after another. */
const tabs = new Map<string, Promise<Page>>();
function tab(role: 'guest' | 'admin', viewport: Viewport): Promise<Page> {
  const key = `${role} ${viewport.width}x${viewport.height}`;
  let page = tabs.get(key);
  if (!page) {
    page = (async () => {
      const context = await withAxe(
        await browser.newContext({ baseURL: t.url, viewport, storageState: await signIn(role) }),
      );
      return context.newPage();
    })();
    tabs.set(key, page);
  }
  return page;
}

beforeAll(async () => {
  [t, birthday, browser] = await Promise.all([
    startTestServer(),
    startTestServer({ TRIBUTE_BIRTHDAY: new Date().toISOString().slice(0, 10), TZ: 'UTC' }),
    launchChromium(),
  ]);
  const seed = await seeder(t);
  ids.artwork = await seed.artwork({
    title: 'Harbour at Dawn',
    artistName: 'Morgan Lee',
    description: 'Boats in the mist',
  });
  ids.story = await seed.story({
    title: 'The Coffee Machine',
    content: 'Every morning at seven\nthe coffee machine sang.',
  });
  ids.media = await seed.media({
    file: 'mp4',
    title: 'Team Video',
    description: 'A message from the team',
    tags: 'party, cheers',
  });
  await seed.story({
    content: 'A story without a title, told anonymously, about the first open house we ran.',
    isAnonymous: true,
  });
  await seed.media({ file: 'mp3', title: 'Birthday Song', description: 'Sung by the sales floor' });
  await seed.comment('artworks', ids.artwork, 'Lovely colours');
  // Something waiting in the admin queue.
  await seed.guest('POST', '/api/stories', {
    title: 'Pending story',
    content: 'Waiting for review',
    authorName: 'Robin Writer',
    email: 'robin@example.com',
    isAnonymous: false,
  });
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
}, 180_000);

afterAll(async () => {
  fs.writeFileSync('test-results/a11y.json', `${JSON.stringify(findings, null, 2)}\n`);
  for (const page of tabs.values()) await (await page).context().close();
  await browser?.close();
  await Promise.all([t?.close(), birthday?.close()]);
  await removeTestMedia();
});

interface Screen {
  name: string;
  /** A dialog over the page: photograph the viewport, not the whole page behind it. */
  dialog?: boolean;
  /** Opens the screen and returns something that is visible once it is ready. */
  open(context: { viewport: Viewport }): Promise<{
    page: Page;
    ready: Locator;
    close(): Promise<void>;
  }>;
}

function signedIn(
  role: 'guest' | 'admin',
  path: string | (() => string),
  ready: (page: Page) => Locator,
  /** what a person does on the page to reach the screen (a button that opens a panel) */
  setup?: (page: Page) => Promise<void>,
): Screen['open'] {
  return async ({ viewport }) => {
    const page = await tab(role, viewport);
    // each screen loads in the light scheme, as in a new tab; the tab is left dark by the last check
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(typeof path === 'string' ? path : path());
    await setup?.(page);
    return { page, ready: ready(page), close: async () => undefined };
  };
}

function anonymous(
  server: () => TestServer,
  ready: (page: Page) => Locator,
  setup?: (context: BrowserContext, page: Page) => Promise<void>,
): Screen['open'] {
  return async ({ viewport }) => {
    const context = await withAxe(await browser.newContext({ baseURL: server().url, viewport }));
    const page = await context.newPage();
    await page.goto('/');
    await setup?.(context, page);
    return { page, ready: ready(page), close: () => context.close() };
  };
}

async function passGate(context: BrowserContext, page: Page, time: string) {
  await context.clock.setFixedTime(new Date(time));
  await page.reload();
  await page.getByLabel('Password').fill(PASSWORDS.guest);
  await page.getByRole('button', { name: 'Enter Gallery' }).click();
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { name }).first();

const SCREENS: Screen[] = [
  { name: 'gate', open: anonymous(() => t, heading('Access Required')) },
  {
    name: 'riddle',
    dialog: true,
    open: anonymous(
      () => birthday,
      (page) => page.getByText('How old is Alex turning?'),
    ),
  },
  {
    name: 'welcome',
    dialog: true,
    open: anonymous(
      () => t,
      (page) => page.getByRole('dialog', { name: /Welcome to/ }),
      (context, page) => passGate(context, page, '2025-09-01T10:00:00'),
    ),
  },
  {
    name: 'birthday',
    dialog: true,
    open: anonymous(
      () => t,
      (page) => page.getByRole('dialog', { name: 'HAPPY BIRTHDAY' }),
      (context, page) => passGate(context, page, '2025-09-12T10:00:00'),
    ),
  },
  { name: 'landing', open: signedIn('guest', '/', (page) => page.getByRole('link', { name: 'Browse Gallery' })) },
  { name: 'gallery', open: signedIn('guest', '/gallery', (page) => page.locator('main article').first()) },
  // Detail paths need the ids seeded in beforeAll, so they are read when the screen opens.
  { name: 'artwork', open: signedIn('guest', () => `/artwork/${ids.artwork}`, heading('Harbour at Dawn')) },
  { name: 'story', open: signedIn('guest', () => `/story/${ids.story}`, heading('The Coffee Machine')) },
  { name: 'media', open: signedIn('guest', () => `/media/${ids.media}`, heading('Team Video')) },
  { name: 'submit', open: signedIn('guest', '/submit', heading('Submit Your Artwork')) },
  { name: 'submit-story', open: signedIn('guest', '/submit-story', (page) => page.locator('main h1').first()) },
  { name: 'submit-media', open: signedIn('guest', '/submit-media', (page) => page.locator('main h1').first()) },
  { name: 'create', open: signedIn('guest', '/create', (page) => page.locator('main canvas').first()) },
  {
    name: 'record',
    // the recorder's panel, the camera on (Chromium's test camera, tests/support/browser.ts)
    open: signedIn(
      'guest',
      '/submit-media',
      (page) => page.getByRole('button', { name: 'Start recording' }),
      (page) => page.getByRole('button', { name: 'Record video' }).click(),
    ),
  },
  { name: 'mural', open: signedIn('guest', '/mural', (page) => page.getByTestId('mural-canvas')) },
  { name: 'mine', open: signedIn('guest', '/mine', (page) => page.getByText('Nothing sent yet.')) },
  { name: 'admin', open: signedIn('admin', '/admin', (page) => page.getByRole('tab').first()) },
  {
    name: 'presenter',
    open: signedIn('admin', '/admin/show', (page) => page.getByRole('button', { name: 'Start the show' })),
  },
  { name: 'reveal', open: signedIn('guest', '/reveal', (page) => page.getByRole('toolbar', { name: 'Slideshow' })) },
  { name: '404', open: signedIn('guest', '/no-such-page', heading('Page Not Found')) },
  {
    name: 'health-check',
    // The server answers /health-check itself (plain text for monitors); this is the app's own screen.
    open: async ({ viewport }) => {
      const context = await withAxe(
        await browser.newContext({ baseURL: t.url, viewport, storageState: await signIn('guest') }),
      );
      const page = await context.newPage();
      await page.route('**/health-check', async (route) =>
        route.fulfill({ response: await route.fetch({ url: `${t.url}/` }) }),
      );
      await page.goto('/health-check');
      return { page, ready: page.getByText('System Status: Operational'), close: () => context.close() };
    },
  },
];

describe.each(SCREENS.map((screen) => [screen.name, screen] as const))('%s', (name, screen) => {
  // one page per viewport, checked in both themes
  const pages: Partial<Record<keyof typeof VIEWPORTS, Awaited<ReturnType<Screen['open']>>>> = {};
  beforeAll(async () => {
    for (const viewportName of VIEWPORT_NAMES) {
      const opened = await screen.open({ viewport: VIEWPORTS[viewportName] });
      pages[viewportName] = opened;
      // a locator's own wait: expect.poll belongs to a test, not a hook
      await opened.ready
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 })
        .catch(async (error: unknown) => {
          await opened.page.screenshot({ path: `${SCREENS_DIR}/${name}-${viewportName}-NOT-READY.png` });
          throw error;
        });
      await opened.page.waitForLoadState('networkidle').catch(() => undefined);
      // entrance animations settled, so the screenshot and the contrast checks see the final look
      await settled(opened.page);
    }
  });
  afterAll(async () => {
    for (const opened of Object.values(pages)) await opened.close();
  });

  it.each(THEMES)('%s theme: no serious or critical axe violations', async (theme) => {
    // both viewports at once, each in its own tab; findings in the viewports' order
    const checked = await Promise.all(
      VIEWPORT_NAMES.map(async (viewportName) => {
        const { page } = pages[viewportName]!;
        await page.emulateMedia({ colorScheme: theme });
        await settled(page);
        const violations = await axeViolations(page);
        if (SHOTS || violations.some((v) => v.impact === 'serious' || v.impact === 'critical')) {
          await page.screenshot({
            path: `${SCREENS_DIR}/${name}-${theme}-${viewportName}.png`,
            fullPage: viewportName === 'desktop' && !screen.dialog,
          });
        }
        return violations.map((violation): Finding => ({
          screen: name,
          theme,
          viewport: viewportName,
          rule: violation.id,
          impact: violation.impact,
          targets: violation.nodes.map((node) => node.target.join(' ')),
          summary: violation.help,
        }));
      }),
    );
    findings.push(...checked.flat());
    const serious = checked.flat().filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
    expect(serious).toEqual([]);
  });
});
