import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { seeder } from '../support/seedGallery.ts';
import { PASSWORDS, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
let browser: Browser;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  const seed = await seeder(t);
  ids.artwork = await seed.artwork({ title: 'Policy sunset' });
  ids.story = await seed.story({ title: 'Policy story', content: 'Told under a strict policy.' });
  ids.video = await seed.media({ file: 'mp4', title: 'Policy clip' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Every Content-Security-Policy violation the page reports, from the console and the DOM event. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  return seen;
}

describe('the Content-Security-Policy', () => {
  it('blocks nothing the app itself loads, on any page', async () => {
    const context = await browser.newContext({ baseURL: t.url, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`Refused to load ${e.blockedURI} (${e.violatedDirective})`),
      );
    });
    const violations = watchViolations(page);
    await page.goto('/');
    await page.getByLabel('Password').fill(PASSWORDS.guest);
    await page.getByRole('button', { name: 'Enter Gallery' }).click();
    await expect.poll(() => page.getByRole('link', { name: /Browse Gallery/ }).isVisible()).toBe(true);

    const pages = [
      '/gallery',
      `/artwork/${ids.artwork}`,
      `/story/${ids.story}`,
      `/media/${ids.video}`,
      '/submit',
      '/submit-story',
      '/submit-media',
      '/reveal',
    ];
    for (const url of pages) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
    }
    // the drawing studio: Fabric's canvases, and an image placed from a data: URL as the studio does
    await page.goto('/create');
    await page.locator('canvas.upper-canvas').waitFor({ timeout: 15_000 });
    await page.mouse.move(400, 400);
    await page.mouse.down();
    await page.mouse.move(500, 450, { steps: 10 });
    await page.mouse.up();
    const shown = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 4;
      const urls = [canvas.toDataURL('image/png')];
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!)));
      urls.push(URL.createObjectURL(blob));
      const loaded = await Promise.all(
        urls.map(
          (src) =>
            new Promise<boolean>((resolve) => {
              const img = new Image();
              img.onload = () => resolve(true);
              img.onerror = () => resolve(false);
              img.src = src;
            }),
        ),
      );
      return loaded;
    });
    expect(shown).toEqual([true, true]);

    // and the policy does refuse what it should: an inline script never runs
    const ranInline = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ranInline).toBe(false);
    const expectedRefusal = violations.filter((v) => /script-src/.test(v));
    expect(expectedRefusal.length).toBeGreaterThan(0);
    expect(violations.filter((v) => !expectedRefusal.includes(v))).toEqual([]);
    await context.close();
  });
});
