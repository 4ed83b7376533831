import type { Locator } from 'playwright-core';

let marks = 0;

/**
 * Hands a file input files by their path on this machine, as a person's file picker does: Chromium
 * opens them where they lie. Playwright's own `setInputFiles` cannot over the run's one shared
 * Chromium (a `connect`ed browser counts as remote), so it first copies each file through its
 * WebSocket into a temporary file: 513 MB took 15 s and as much CPU (docs/test-times.md). The
 * browser and the test share this machine, so the path is all Chromium needs; it fires the same
 * `input` and `change` events as a choice in the picker.
 */
export async function chooseFilesOnDisk(input: Locator, paths: string[]): Promise<void> {
  const page = input.page();
  const mark = `chosen-${++marks}`;
  await input.evaluate((element, value) => element.setAttribute('data-choose-files', value), mark);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: `input[type=file][data-choose-files="${mark}"]`,
    });
    if (!nodeId) throw new Error('chooseFilesOnDisk: the locator is not a file input in the top document');
    await cdp.send('DOM.setFileInputFiles', { nodeId, files: paths });
  } finally {
    await cdp.detach();
    await input.evaluate((element) => element.removeAttribute('data-choose-files')).catch(() => {});
  }
}
