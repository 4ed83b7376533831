import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder, signedInContext } from '../support/seedGallery.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { appended, caughtUp } from '../support/wait.ts';

let t: TestServer;
let browser: Browser;
let head: number;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
  const seed = await seeder(t);
  await seed.artwork({ title: 'Harbour at Dawn' });
  await seed.artwork({ title: 'Paper Cranes' });
  await seed.story({ title: 'The Coffee Machine', content: 'Every morning at eight.' });
  // the head is read once every event is in: the artworks' renditions come from a job, later
  await appended(t.db.pool, 'ArtworkRenditionsMade', 2);
  await caughtUp(t);
  const { rows } = await t.db.pool.query(`SELECT coalesce(max(seq), 0)::int AS seq FROM event_chain`);
  head = rows[0].seq as number;
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const origin = () => new URL(t.url).origin;

describe("the auditor's shareable links (decision 124)", () => {
  it('a filter set on the event stream is in the address, and the copied link opens the same view', async () => {
    const { context, page } = await signedInContext(browser, t, 'admin');
    await page.goto('/audit');
    const events = page.getByRole('list', { name: 'Events, newest first' }).getByRole('listitem');
    await expect.poll(() => events.count(), { timeout: 15_000 }).toBeGreaterThan(3);
    await page.getByLabel('Kind').selectOption('story');
    await page.getByLabel('Type').selectOption('StoryApproved');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('StoryApproved');
    const link = page.url();
    expect(new URL(link).searchParams.get('kind')).toBe('story');
    await expect.poll(() => events.count()).toBe(1);

    // a colleague opens the copied link in a browser of their own
    const other = await signedInContext(browser, t, 'admin');
    await other.page.goto(link);
    const theirs = other.page.getByRole('list', { name: 'Events, newest first' }).getByRole('listitem');
    await expect.poll(() => theirs.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => theirs.first().textContent()).toMatch(/story/);
    expect(await other.page.getByLabel('Type').inputValue()).toBe('StoryApproved');
    expect(await other.page.getByLabel('Kind').inputValue()).toBe('story');
    await other.context.close();
    await context.close();
  });

  it("the time slider's position is in the address, and a link to a seq opens the gallery as it was then", async () => {
    const { context, page } = await signedInContext(browser, t, 'admin');
    await page.goto('/audit?tab=travel');
    const seq = page.getByTestId('travel-seq');
    await expect.poll(() => seq.textContent(), { timeout: 15_000 }).toBe(String(head));
    const slider = page.getByLabel(/Gallery right after event/);
    await slider.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(() => new URL(page.url()).searchParams.get('at')).toBe(String(head - 4));

    const other = await signedInContext(browser, t, 'admin');
    await other.page.goto(`${origin()}/audit?tab=travel&at=3`);
    await expect.poll(() => other.page.getByTestId('travel-seq').textContent(), { timeout: 15_000 }).toBe('3');
    // nonsense in the address is left out, never an error
    await other.page.goto(`${origin()}/audit?tab=travel&at=-2&type=NoSuchType&since=yesterday`);
    await expect.poll(() => other.page.getByTestId('travel-seq').textContent(), { timeout: 15_000 }).toBe(String(head));
    await other.context.close();
    await context.close();
  });
});
