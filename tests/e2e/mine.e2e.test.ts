import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A person at their own browser, through the gate with a password. */
async function signedIn(password: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: t.url, viewport });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/');
  await expect.poll(() => page.getByRole('heading', { name: 'Access Required' }).isVisible()).toBe(true);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Enter Gallery' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Access Required' }).count()).toBe(0);
  return page;
}

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

describe('Your contributions', () => {
  it('a colleague sends a story, fixes it, sees it approved live, and withdraws it from an open gallery', async () => {
    const sender = await signedIn(PASSWORDS.guest);
    await sender.goto('/submit-story');
    await sender.getByLabel('Title').fill('Our first project');
    await sender.getByLabel('Your Story').fill('Alex taught me evrything about shipping.');
    await sender.getByLabel('Your Name').fill('Jo Writer');
    await sender.getByLabel('Email').fill('jo@example.com');
    await sender.getByRole('button', { name: 'Submit to Gallery' }).click();
    await expect.poll(visible(sender, 'Story submitted!'), { timeout: 10_000 }).toBe(true);

    // the admin's queue shows it
    const admin = await signedIn(PASSWORDS.admin);
    await admin.waitForURL('**/admin');
    await admin.getByRole('tab', { name: /^Stories / }).click();
    await expect.poll(visible(admin, 'Alex taught me evrything about shipping.'), { timeout: 10_000 }).toBe(true);

    // the header leads to the sender's list, where it waits for approval
    await sender.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your contributions' }).click();
    await sender.waitForURL('**/mine');
    await expect.poll(() => sender.title()).toBe('Your contributions · Tribute Gallery');
    const card = sender.getByRole('article', { name: 'Our first project' });
    await expect.poll(() => card.getByText('Waiting for approval').isVisible(), { timeout: 10_000 }).toBe(true);

    // the typo is fixed in place; the admin's open queue shows the new words without a reload
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('Your story').fill('Alex taught me everything about shipping.');
    await card.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(visible(sender, 'Changes saved'), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => card.getByText('Alex taught me everything about shipping.').isVisible()).toBe(true);
    await expect.poll(visible(admin, 'Alex taught me everything about shipping.'), { timeout: 10_000 }).toBe(true);
    expect(await admin.getByText('evrything').count()).toBe(0);

    // the admin approves; the sender's open page says so, and a toast tells them
    await admin.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => card.getByText('In the gallery', { exact: true }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(visible(sender, 'Your story is in the gallery!')).toBe(true);
    expect(await card.getByRole('button', { name: 'Edit' }).count()).toBe(0);

    // a colleague is watching the gallery with the story in it
    const watcher = await signedIn(PASSWORDS.guest);
    await watcher.goto('/gallery');
    await expect.poll(visible(watcher, 'Our first project'), { timeout: 10_000 }).toBe(true);

    // withdrawing asks first; keeping it changes nothing
    await card.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = sender.getByRole('dialog', { name: 'Withdraw your story?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await card.getByText('In the gallery', { exact: true }).isVisible()).toBe(true);

    await card.getByRole('button', { name: 'Withdraw' }).click();
    await sender
      .getByRole('dialog', { name: 'Withdraw your story?' })
      .getByRole('button', { name: 'Withdraw story' })
      .click();
    await expect
      .poll(() => sender.getByText('Withdrawn', { exact: true }).first().isVisible(), { timeout: 10_000 })
      .toBe(true);
    // the open gallery loses it without a reload
    await expect.poll(() => watcher.getByText('Our first project').count(), { timeout: 10_000 }).toBe(0);
  });

  it('is linked from the phone menu and says when nothing was sent', async () => {
    const phone = await signedIn(PASSWORDS.guest, { width: 390, height: 844 });
    await phone.goto('/gallery');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Your contributions' }).click();
    await phone.waitForURL('**/mine');
    await expect.poll(visible(phone, 'Nothing sent yet.'), { timeout: 10_000 }).toBe(true);
  });
});
