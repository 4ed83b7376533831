import type { Locator, Page } from 'playwright-core';

/**
 * Hovers `trigger` and waits for the tooltip called `name`; returns how long it took to show, in ms
 * of the page's own clock: from the pointer entering the trigger (the input event's time stamp) to
 * the tooltip's element being added. Measured in the page, so a slow test process or a slow round
 * trip to the browser cannot make a delay look shorter or longer than the page made it.
 */
export async function hoverForTooltip(page: Page, trigger: Locator, name: string, timeout = 2_000): Promise<number> {
  await trigger.evaluate((element) => {
    const timing: { entered?: number; shown?: number } = {};
    (window as unknown as { __tooltipTiming: typeof timing }).__tooltipTiming = timing;
    element.addEventListener('pointerenter', (event) => (timing.entered ??= event.timeStamp), { once: true });
    const isTooltip = (node: Node) =>
      node instanceof Element && (node.matches('[role="tooltip"]') || !!node.querySelector('[role="tooltip"]'));
    const watch = new MutationObserver((changes) => {
      if (!changes.some((change) => [...change.addedNodes].some(isTooltip))) return;
      timing.shown = performance.now();
      watch.disconnect();
    });
    watch.observe(document.body, { childList: true, subtree: true });
  });
  await trigger.hover();
  await page.getByRole('tooltip', { name }).waitFor({ state: 'visible', timeout });
  const { entered, shown } = await page.evaluate(
    () => (window as unknown as { __tooltipTiming: { entered?: number; shown?: number } }).__tooltipTiming,
  );
  if (entered === undefined || shown === undefined) throw new Error(`no timing for the "${name}" tooltip`);
  return shown - entered;
}
