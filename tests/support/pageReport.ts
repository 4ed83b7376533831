import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import type { TestContext } from 'vitest';

/**
 * What every open page showed when an end-to-end test failed, added to the failure's message: its
 * address, whether its server still answers, whether the page answered, its title, text, load and the
 * files it fetched, and a screenshot under test-results/failures/; what the context still waited for,
 * what failed to load, and the errors its pages threw or logged; then the longest delay of this
 * process's event loop in the test, since the test's servers answer from it. A locator that waited
 * 30 s says only what it waited for; this says what was there instead (the page, a gate, an error, an
 * app that never started, or a renderer that no longer answered).
 *
 * A context is described when it closes after its test failed (files that close their contexts in
 * their own `afterEach`), or in the setup file's `afterEach` if it is still open then (files that close
 * them in `afterAll`, or with the browser). A context closed inside the test's body, before vitest
 * knows the test failed, is not described.
 */

let current: TestContext | undefined;
/** when the current test began, on this process's clock */
let began = 0;
const sinceBegan = () => Math.round(performance.now() - began);
const open = new Set<BrowserContext>();
/** This process's event loop during the test: the test's own servers answer the pages from it. */
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
const described = new WeakSet<BrowserContext>();

/** What a context's pages asked for and were told, as it happened: the part a page cannot say itself. */
interface Journal {
  /** requests sent and not yet answered in full, with when they were sent */
  waiting: Map<Request, number>;
  /** requests that failed, errors the pages threw, and errors they logged: the first few */
  troubles: string[];
}
const journals = new WeakMap<BrowserContext, Journal>();
const TROUBLES = 20;

function keepJournal(context: BrowserContext): void {
  const journal: Journal = { waiting: new Map(), troubles: [] };
  journals.set(context, journal);
  const note = (line: string) => {
    if (journal.troubles.length < TROUBLES) journal.troubles.push(`at ${sinceBegan()} ms ${line}`);
  };
  context.on('request', (request) => journal.waiting.set(request, performance.now()));
  context.on('requestfinished', (request) => journal.waiting.delete(request));
  context.on('requestfailed', (request) => {
    journal.waiting.delete(request);
    note(`failed ${request.method()} ${pathOf(request.url())}: ${request.failure()?.errorText ?? 'no reason'}`);
  });
  context.on('weberror', (error) => note(`threw ${error.error().message}`));
  context.on('console', (message) => {
    if (message.type() === 'error') note(`logged ${message.text().slice(0, 300)}`);
  });
}

const pathOf = (url: string) => (URL.canParse(url) ? new URL(url).pathname : url.slice(0, 80));

/** Called by the e2e setup file as each test starts and ends: the test a failing context reports to. */
export function reportingFor(test: TestContext | undefined): void {
  current = test;
  if (test) {
    began = performance.now();
    loopDelay.reset();
    loopDelay.enable();
  } else loopDelay.disable();
}

/** Makes every context the browser opens report its pages before it closes, if the test failed. */
export function reportOnClose(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    keepJournal(context);
    open.add(context);
    context.once('close', () => open.delete(context));
    const close = context.close.bind(context);
    context.close = async (...closeArgs) => {
      await reportPages(context).catch(() => {});
      return close(...closeArgs);
    };
    return context;
  };
  return browser;
}

/** The setup file's `afterEach`: the contexts still open after the test file's own hooks. */
export async function reportOpenContexts(): Promise<void> {
  for (const context of [...open]) await reportPages(context).catch(() => {});
}

const ANSWER_MS = 3000;
let shots = 0;

async function reportPages(context: BrowserContext): Promise<void> {
  const test = current;
  const failure = test?.task.result?.state === 'fail' ? test.task.result.errors?.[0] : undefined;
  if (!test || !failure || described.has(context)) return;
  described.add(context);
  // Vitest takes no annotation once a test has failed, so the report joins the failure's message,
  // which the run's summary prints. Contexts close at once: each appends only what it has.
  for (const page of context.pages()) {
    const description = await describePage(page, test);
    failure.message += `\n\nA page at the failure:\n${description}`;
  }
  const journal = journals.get(context);
  if (journal) {
    const now = performance.now();
    const waiting = [...journal.waiting].map(
      ([r, sent]) => `${r.method()} ${pathOf(r.url())} for ${Math.round(now - sent)} ms`,
    );
    failure.message += `\n\nIts context, ${sinceBegan()} ms into the test: waiting on ${waiting.join(', ') || 'nothing'}`;
    failure.message += `\nfailures and errors: ${journal.troubles.join('; ') || 'none'}`;
  }
  // read after the pages were asked, so the loop has turned since whatever held it
  if (!failure.message.includes('\n\nThe test process:')) {
    // a loop held for seconds leaves every page of the test's servers waiting on an answer
    const ms = (ns: number) => Math.round(ns / 1e6);
    failure.message += `\n\nThe test process: its event loop's longest delay in the test ${ms(loopDelay.max)} ms (p99 ${ms(loopDelay.percentile(99))} ms)`;
  }
}

async function describePage(page: Page, test: TestContext): Promise<string> {
  const url = page.url();
  const lines = [`url ${url}`];
  if (url.startsWith('http')) {
    // the page's server, asked again from here: whether it answers now
    const asked = performance.now();
    const again = await answered(fetch(url, { signal: AbortSignal.timeout(ANSWER_MS) }));
    lines.push(
      again
        ? `the server answered ${again.status} in ${Math.round(performance.now() - asked)} ms`
        : `the server did not answer in ${ANSWER_MS} ms`,
    );
  }
  const text = await answered(
    page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        state: document.readyState,
        title: document.title,
        body: document.body?.innerText ?? '',
        root: document.getElementById('root')?.childElementCount,
        // a reload (the stale-build handler's) or a plain load, and when
        navigation: navigation ? `${navigation.type}, load event at ${Math.round(navigation.loadEventEnd)} ms` : 'none',
        since: Math.round(performance.now()),
        // what the page fetched, in order, and how long each took: a file missing here never came
        fetched: resources.map((r) => `${new URL(r.name).pathname} ${Math.round(r.duration)}ms`),
      };
    }),
  );
  if (text === undefined) lines.push(`the page did not answer in ${ANSWER_MS} ms (a hung or crashed renderer)`);
  else {
    lines.push(`readyState ${text.state}, title "${text.title}", #root has ${text.root ?? 'no'} children`);
    lines.push(`navigation: ${text.navigation}; now ${text.since} ms`);
    lines.push(`text: ${text.body.replace(/\s+/g, ' ').slice(0, 600)}`);
    lines.push(`fetched: ${text.fetched.join(', ').slice(0, 3000)}`);
  }
  const file = path.join(
    'test-results',
    'failures',
    `${path.basename(test.task.file.name).replace(/\.test\.ts$/, '')}-${process.pid}-${++shots}.png`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const shot = await answered(page.screenshot({ path: file, timeout: ANSWER_MS }));
  lines.push(shot ? `screenshot ${file}` : 'no screenshot');
  return lines.join('\n');
}

/** `work`'s value, or undefined if it failed or took longer than ANSWER_MS. */
async function answered<T>(work: Promise<T>): Promise<T | undefined> {
  const done = new AbortController();
  try {
    return await Promise.race([
      work.catch(() => undefined),
      delay(ANSWER_MS, undefined, { signal: done.signal }).catch(() => undefined),
    ]);
  } finally {
    done.abort();
  }
}
