import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { jpegDataUrl } from '../support/images.ts';
import { seeder, signedInContext } from '../support/seedGallery.ts';
import { client, PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';
import { appended, caughtUp, waitFor } from '../support/wait.ts';

const SCREENS_DIR = 'test-results/screens';
const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
} as const;

let t: TestServer;
let browser: Browser;
let artworkId: number;
let approvalSeq: number;
const TITLE = 'Sunrise for Alex';
const NOTE = 'Beautiful colours, approved for the reveal';

/** A red line across the mural at height y (CONTRACT §8). */
const muralStroke = (y: number) => ({
  tool: 'brush',
  color: '#dc2626',
  size: 24,
  opacity: 100,
  points: [
    [200, y],
    [1400, y],
  ],
});

const head = async () => {
  await caughtUp(t);
  const { rows } = await t.db.pool.query(`SELECT coalesce(max(seq), 0)::int AS seq FROM event_chain`);
  return rows[0].seq as number;
};

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchChromium()]);
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  const s = await seeder(t);
  await s.artwork({ title: 'Already there' });
  for (const y of [200, 400]) await s.guest('POST', '/api/mural/strokes', muralStroke(y));
  const login = await fetch(`${t.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORDS.admin, name: 'Ada Lovelace' }),
  });
  const ada = client(t.url, ((await login.json()) as { sessionToken: string }).sessionToken);
  const submitted = await s.guest('POST', '/api/artworks', {
    title: TITLE,
    artistName: 'Sam Painter',
    email: 'sam@example.com',
    imageData: await jpegDataUrl(320, 240),
    isFromCanvas: 'false',
  });
  artworkId = submitted.body.id;
  // both artworks' renditions (a job's events) are in before the approval: its seq is the head after it
  await appended(t.db.pool, 'ArtworkRenditionsMade', 2);
  await head();
  await new Promise((r) => setTimeout(r, 1500)); // a pause, so the replay has a stretch to play
  const approved = await ada('PATCH', `/api/admin/artworks/${artworkId}`, { status: 'approved', adminNotes: NOTE });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status}`);
  approvalSeq = await head();
  await s.guest('POST', `/api/artworks/${artworkId}/like`);
  // after the approval the show starts and the mural gets a third stroke: the replay brings both
  const show = await s.admin('POST', '/api/show', { action: 'start' });
  if (show.status !== 200) throw new Error(`show start: ${show.status}`);
  await s.guest('POST', `/api/artworks/${show.body.current.id}/reactions`, { emoji: '👏' });
  await waitFor(async () => (await s.guest('GET', `/api/artworks/${show.body.current.id}`)).body.reactions['👏'] === 1);
  await s.guest('POST', '/api/mural/strokes', muralStroke(600));
  await head();
}, 120_000);

/** The green channel of the time-travel mural's pixel at (x, y), in canvas pixels: 255 on paper, low on red ink. */
const muralGreen = (page: Page, x: number, y: number) =>
  page
    .getByTestId('mural-at-canvas')
    .evaluate((c: HTMLCanvasElement, [px, py]) => c.getContext('2d')!.getImageData(px!, py!, 1, 1).data[1], [x, y]);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function axe(page: Page, label: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS_DIR}/${label}.png`, fullPage: label.includes('desktop') });
  return (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.each(Object.entries(VIEWPORTS))('the audit console on %s', (viewportName, options) => {
  it.each(['light', 'dark'] as const)(
    '%s: an auditor signs in, finds who approved an artwork, travels back before it and replays it',
    async (theme) => {
      const label = `audit-${theme}-${viewportName}`;
      const context = await browser.newContext({ baseURL: t.url, colorScheme: theme, ...options });
      const serious: string[] = [];
      try {
        const page = await context.newPage();
        await page.goto('/');
        await page.getByLabel('Password').fill(PASSWORDS.auditor);
        await page.getByText('Admin or auditor? Add your name').click();
        await page.getByLabel('Your name, recorded with what you change').fill(`Olive ${theme} ${viewportName}`);
        await page.getByRole('button', { name: 'Enter Gallery' }).click();
        await page.waitForURL('**/audit**');
        const named = await t.db.pool.query(`SELECT 1 FROM personal_data WHERE kind = 'name' AND value = $1`, [
          `Olive ${theme} ${viewportName}`,
        ]);
        expect(named.rowCount).toBe(1);
        await expect.poll(() => page.getByRole('heading', { name: 'Audit', exact: true }).isVisible()).toBe(true);
        await expect.poll(() => page.getByTestId('chain-head').textContent()).toContain('seq');

        // the stream, newest first: the approval, with the item it names
        const approval = page.getByRole('listitem').filter({ hasText: 'Approved' }).filter({ hasText: 'Ada Lovelace' });
        await expect.poll(() => approval.count(), { timeout: 15_000 }).toBeGreaterThan(0);
        serious.push(...(await axe(page, `${label}-stream`)));

        // who approved it, when and with what note
        await approval
          .first()
          .getByRole('link', { name: `artwork ${artworkId}` })
          .click();
        const timeline = page.getByRole('list', { name: 'Timeline' });
        await expect
          .poll(() => timeline.textContent(), { timeout: 15_000 })
          .toContain('Approved by Ada Lovelace (admin)');
        expect(await timeline.textContent()).toContain(NOTE);
        expect(await page.getByRole('heading', { name: `Artwork ${artworkId}: ${TITLE}` }).isVisible()).toBe(true);
        serious.push(...(await axe(page, `${label}-timeline`)));

        // the gallery just before the approval has no such artwork; a replay brings it in
        await page.getByRole('link', { name: 'Time travel' }).click();
        const slider = page.getByLabel(/Gallery right after event/);
        await expect.poll(() => slider.getAttribute('max')).toBe(String(await head()));
        await slider.fill(String(approvalSeq - 1));
        const gallery = page.getByRole('list', { name: 'Gallery at this event' });
        await expect.poll(() => page.getByTestId('travel-seq').textContent()).toBe(String(approvalSeq - 1));
        await expect.poll(() => gallery.getAttribute('data-at'), { timeout: 15_000 }).toBe(String(approvalSeq - 1));
        await expect.poll(() => gallery.textContent(), { timeout: 15_000 }).toContain('Already there');
        expect(await gallery.textContent()).not.toContain(TITLE);
        // the show had not started, and the mural held its first two strokes, painted
        const mural = page.getByTestId('mural-at-canvas');
        await expect.poll(() => mural.getAttribute('data-at'), { timeout: 15_000 }).toBe(String(approvalSeq - 1));
        expect(await mural.getAttribute('data-strokes')).toBe('2');
        expect(await page.getByTestId('mural-at-summary').textContent()).toContain('2 strokes on the mural');
        expect(await muralGreen(page, 800, 400)).toBeLessThan(100);
        expect(await muralGreen(page, 800, 600)).toBe(255); // paper: no third stroke yet
        await expect.poll(() => page.getByTestId('show-at-state').textContent()).toContain('Not running');
        serious.push(...(await axe(page, `${label}-travel`)));
        await page.getByLabel('Replay speed').selectOption('60');
        await page.getByRole('button', { name: 'Replay from here' }).click();
        await expect.poll(() => gallery.textContent(), { timeout: 20_000 }).toContain(TITLE);
        await expect.poll(() => gallery.textContent(), { timeout: 20_000 }).toMatch(/Sunrise for Alex1 like/);
        await expect.poll(() => mural.getAttribute('data-strokes'), { timeout: 20_000 }).toBe('3');
        expect(await muralGreen(page, 800, 600)).toBeLessThan(100);
        await expect.poll(() => page.getByTestId('show-at-state').textContent()).toMatch(/Running · item 1 of 2/);
        const showItems = page.getByRole('list', { name: 'Items in the show' });
        await expect.poll(() => showItems.locator('li[aria-current="step"]').textContent()).toContain('Applause1');
        await page
          .getByRole('region', { name: 'The show' })
          .locator('..')
          .screenshot({ path: `${SCREENS_DIR}/${label}-show-and-mural.png` });
        serious.push(...(await axe(page, `${label}-replayed`)));
      } finally {
        await context.close();
      }
      expect(serious).toEqual([]);
    },
    120_000,
  );
});

describe('read only', () => {
  it('an auditor cannot moderate, and a guest cannot read the console', async () => {
    const auditor = client(t.url, await t.login('auditor'));
    expect((await auditor('PATCH', `/api/admin/artworks/${artworkId}`, { status: 'rejected' })).status).toBe(403);
    const guest = client(t.url, await t.login('guest'));
    expect((await guest('GET', '/api/admin/events')).status).toBe(403);
    expect((await guest('GET', `/api/gallery?at=1`)).status).toBe(403);
  });
});

describe('erasing from the console', () => {
  it('an admin erases a login name and reads the result; the approval keeps its place, without the name', async () => {
    const { context, page } = await signedInContext(browser, t, 'admin');
    try {
      await page.goto(`/audit?tab=timeline&kind=artwork&id=${artworkId}`);
      const timeline = page.getByRole('list', { name: 'Timeline' });
      await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toContain('Ada Lovelace');
      await page.getByLabel('What').selectOption('name');
      await page.getByLabel('Login name').fill('ada lovelace');
      await page.getByRole('button', { name: 'Erase' }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Erased' }).textContent())
        .toContain('Erased 1 stored name value; the log is unchanged.');
      await expect.poll(() => timeline.textContent()).toContain('Approved by an admin (no name given)');
      expect(await timeline.textContent()).not.toContain('Ada Lovelace');
      expect(await axe(page, 'audit-light-desktop-admin')).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
