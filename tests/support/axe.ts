import fs from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';

type WithAxe = Window & { axe: typeof axe };

/** axe-core's minified build: the same rules as `axe.source`, 580 kB instead of 1.3 MB to send and compile. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Puts axe into every document the context loads, before the page's own scripts. Chromium keeps the
 * script and runs it in each new document itself: a file that loads many documents in one context
 * (a11y.e2e's kept tabs) no longer sends and compiles axe after each load, about 1 s of Chromium's
 * time a document (docs/test-times.md, fifth pass). It defines `window.axe` and nothing the app reads.
 */
export async function withAxe(context: BrowserContext): Promise<BrowserContext> {
  await context.addInitScript({ content: AXE_SOURCE });
  return context;
}

/**
 * axe-core's violations on the page as it is now: every rule axe runs by default, as
 * `new AxeBuilder({ page }).analyze()` ran them. axe's source is put into a document once, however
 * often it is checked (two themes of one page): AxeBuilder evaluated its 600 kB twice per check, and
 * finished in a blank page of its own, about 3 s of Chromium's CPU against 1 s for the rules
 * themselves (docs/test-times.md). The app has no frames for AxeBuilder's frame handling to reach.
 * Only violations are listed in full: axe then skips building a selector for every element that
 * passed, which nothing here reads.
 */
export async function axeViolations(page: Page): Promise<axe.Result[]> {
  // a context made withAxe has it already; any other page gets it once per document
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() =>
    (window as unknown as WithAxe).axe.run(document, { resultTypes: ['violations'] }),
  );
  return results.violations;
}

/**
 * Waits until no short animation or transition (an entrance effect, a colour fading to a new theme)
 * is running, so that a screenshot and axe's contrast checks see the settled look. Longer ones (a
 * slide's progress bar, falling confetti) and endless ones (a pulse) are left running.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const short = () =>
      document.getAnimations().filter((animation) => {
        const timing = animation.effect?.getComputedTiming();
        return animation.playState === 'running' && Number(timing?.endTime) <= 1000;
      });
    for (let running = short(); running.length > 0; running = short())
      await Promise.allSettled(running.map((animation) => animation.finished));
  });
}
