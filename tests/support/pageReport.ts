import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestContext } from 'vitest';

/**
 * What every open page showed when an end-to-end test failed, added to the failure's message: its
 * address, whether it answered, the start of its text, and a screenshot under
 * test-results/failures/. A locator that waited 30 s says only what it waited for; this says what was
 * there instead (the page, a gate, an error, or a renderer that no longer answered).
 *
 * The test files close their browser contexts in their own `afterEach`, before any hook of a setup
 * file runs, so the report is taken as a context closes (`reportOnClose`), while its pages are there.
 */

let current: TestContext | undefined;

/** Called by the e2e setup file before each test: the test a closing context reports to. */
export function reportingFor(test: TestContext | undefined): void {
  current = test;
}

/** Makes every context the browser opens report its pages before it closes, if the test failed. */
export function reportOnClose(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    const close = context.close.bind(context);
    context.close = async (...closeArgs) => {
      await reportPages(context).catch(() => {});
      return close(...closeArgs);
    };
    return context;
  };
  return browser;
}

const ANSWER_MS = 3000;
let shots = 0;

async function reportPages(context: BrowserContext): Promise<void> {
  const test = current;
  const failure = test?.task.result?.state === 'fail' ? test.task.result.errors?.[0] : undefined;
  if (!test || !failure) return;
  // Vitest takes no annotation once a test has failed, so the report joins the failure's message,
  // which the run's summary prints.
  for (const page of context.pages()) {
    failure.message += `\n\nA page at the failure:\n${await describePage(page, test)}`;
  }
}

async function describePage(page: Page, test: TestContext): Promise<string> {
  const lines = [`url ${page.url()}`];
  const text = await answered(
    page.evaluate(() => ({ state: document.readyState, title: document.title, body: document.body?.innerText ?? '' })),
  );
  if (text === undefined) lines.push(`the page did not answer in ${ANSWER_MS} ms (a hung or crashed renderer)`);
  else {
    lines.push(`readyState ${text.state}, title "${text.title}"`);
    lines.push(`text: ${text.body.replace(/\s+/g, ' ').slice(0, 600)}`);
  }
  const file = path.join(
    'test-results',
    'failures',
    `${path.basename(test.task.file.name).replace(/\.test\.ts$/, '')}-${++shots}.png`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const shot = await answered(page.screenshot({ path: file, timeout: ANSWER_MS }));
  lines.push(shot ? `screenshot ${file}` : 'no screenshot');
  return lines.join('\n');
}

function answered<T>(work: Promise<T>): Promise<T | undefined> {
  return Promise.race([
    work.catch(() => undefined),
    new Promise<undefined>((resolve) => void setTimeout(resolve, ANSWER_MS)),
  ]);
}
