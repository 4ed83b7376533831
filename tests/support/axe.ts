import axe from 'axe-core';
import type { Page } from 'playwright-core';

type WithAxe = Window & { axe: typeof axe };

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
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
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
