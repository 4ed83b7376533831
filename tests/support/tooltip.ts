import type { Locator, Page } from 'playwright-core';

interface TooltipTiming {
  entered?: number;
  shown?: number;
  /** what happened from the hover on, in the page's clock: for the message when no tooltip shows */
  seen: string[];
  trigger?: Element;
}
type Watched = Window & { __tooltipTiming: TooltipTiming };

/**
 * Hovers `trigger` and waits for the tooltip called `name`; returns how long it took to show, in ms
 * of the page's own clock: from the pointer entering the trigger (the input event's time stamp) to
 * the tooltip's element being added. Measured in the page, so a slow test process or a slow round
 * trip to the browser cannot make a delay look shorter or longer than the page made it. When no
 * tooltip shows, the error says what the page saw meanwhile (the pointer leaving, a scroll, a tooltip
 * that came and went, what is under the pointer now).
 */
export async function hoverForTooltip(page: Page, trigger: Locator, name: string, timeout = 2_000): Promise<number> {
  await trigger.evaluate((element) => {
    const timing: TooltipTiming = { seen: [], trigger: element };
    (window as unknown as Watched).__tooltipTiming = timing;
    const note = (what: string) => timing.seen.push(`${Math.round(performance.now())} ${what}`);
    element.addEventListener('pointerenter', (event) => {
      timing.entered ??= event.timeStamp;
      note(`pointerenter (${(event as PointerEvent).pointerType})`);
    });
    for (const type of ['pointerleave', 'pointerdown', 'focusout']) element.addEventListener(type, () => note(type));
    window.addEventListener('scroll', () => note(`scroll to ${Math.round(window.scrollY)}`), { capture: true });
    const isTooltip = (node: Node) =>
      node instanceof Element && (node.matches('[role="tooltip"]') || !!node.querySelector('[role="tooltip"]'));
    const watch = new MutationObserver((changes) => {
      for (const change of changes) {
        if ([...change.addedNodes].some(isTooltip)) {
          timing.shown ??= performance.now();
          note('tooltip added');
        }
        if ([...change.removedNodes].some(isTooltip)) note('tooltip removed');
        if ([...change.removedNodes].some((node) => node.contains(element))) note('trigger removed');
      }
    });
    watch.observe(document.body, { childList: true, subtree: true });
  });
  const hoveredAt = await page.evaluate(() => performance.now());
  await trigger.hover();
  // Waited for in the page, by its clock: `timeout` from the pointer entering (or from the hover, if it
  // never entered). A wait on a locator is polled from the test process through the run's one
  // Playwright server, and at a load of 10 its polls came late: a tooltip added 709 ms after the
  // pointer entered was not seen in 2 s (stop 36, run 20).
  const shownInTime = await page.evaluate(
    ({ timeout, hoveredAt }) =>
      new Promise<boolean>((resolve) => {
        const timing = (window as unknown as Watched).__tooltipTiming;
        const check = () => {
          if (timing.shown !== undefined) return resolve(timing.shown - (timing.entered ?? hoveredAt) <= timeout);
          if (performance.now() - (timing.entered ?? hoveredAt) > timeout) return resolve(false);
          setTimeout(check, 10);
        };
        check();
      }),
    { timeout, hoveredAt },
  );
  if (!shownInTime) {
    const seen = await page.evaluate(() => {
      const { seen, trigger } = (window as unknown as Watched).__tooltipTiming;
      const box = trigger?.getBoundingClientRect();
      const under = box && document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return [
        ...seen,
        `now ${Math.round(performance.now())}: trigger ${trigger?.isConnected ? 'in the page' : 'gone'}` +
          (box ? ` at ${Math.round(box.left)},${Math.round(box.top)}` : '') +
          `; under its centre: ${under ? under.outerHTML.slice(0, 120) : 'nothing'}`,
      ];
    });
    throw new Error(`no tooltip within ${timeout} ms of the pointer entering; the page saw:\n${seen.join('\n')}`);
  }
  // the tooltip the page added is the one named, and a person can see it
  await page.getByRole('tooltip', { name }).waitFor({ state: 'visible', timeout: 10_000 });
  const { entered, shown } = await page.evaluate(() => {
    const { entered, shown } = (window as unknown as Watched).__tooltipTiming;
    return { entered, shown };
  });
  if (entered === undefined || shown === undefined) throw new Error(`no timing for the "${name}" tooltip`);
  return shown - entered;
}
