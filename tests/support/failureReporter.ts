import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, SerializedError, TestModule, Vitest } from 'vitest/node';

/**
 * What failed in a run, written to a file that `npm test` prints once every phase is over. A log keeps
 * only its end (CI shows the last lines of a run), and the end-to-end phase prints minutes of passing
 * tests after the unit and integration tests' failures: a run that failed must say what failed in its
 * last lines. Besides the failed tests, it keeps what vitest's JSON report leaves out: a file that
 * could not load or whose hooks threw, and an error thrown outside any test (an unhandled rejection),
 * which fails a run where every test passed.
 */
export interface Failure {
  /** the test file, from the repository's root */
  file: string;
  /** the test's name with its suites, or what failed outside a test */
  name: string;
  /** each error's message and the first lines of its stack */
  errors: string[];
}

const STACK_LINES = 8;
const DIFF_LINES = 12;

/** The message, the first frames outside vitest, and the start of an assertion's diff. */
function describeError(error: SerializedError): string {
  const lines = (error.stack ?? error.message ?? String(error)).split('\n');
  const message = error.message && !lines[0]?.includes(error.message) ? [error.message] : [];
  const frames = lines
    .filter((line) => !line.includes('node_modules/vitest/') && !line.includes('at new Promise (<anonymous>)'))
    .slice(0, STACK_LINES);
  const diff =
    typeof error.diff === 'string' ? stripVTControlCharacters(error.diff).split('\n').slice(0, DIFF_LINES) : [];
  // an error thrown outside a test: vitest names the test that was running when it was thrown
  const during = typeof error.VITEST_TEST_NAME === 'string' ? [`(thrown while "${error.VITEST_TEST_NAME}" ran)`] : [];
  return [...message, ...frames, ...diff, ...during].join('\n');
}

export function failuresOf(
  modules: ReadonlyArray<TestModule>,
  unhandled: ReadonlyArray<SerializedError>,
  root: string,
): Failure[] {
  const failures: Failure[] = [];
  for (const module of modules) {
    const file = path.relative(root, module.moduleId);
    const own = module.errors();
    if (own.length > 0)
      failures.push({ file, name: '(the file itself: loading it, or a hook)', errors: own.map(describeError) });
    for (const suite of module.children.allSuites()) {
      const errors = suite.errors();
      if (errors.length > 0)
        failures.push({ file, name: `${suite.fullName} (a hook)`, errors: errors.map(describeError) });
    }
    for (const test of module.children.allTests('failed')) {
      failures.push({ file, name: test.fullName, errors: (test.result().errors ?? []).map(describeError) });
    }
  }
  for (const error of unhandled) {
    failures.push({ file: '(outside any test)', name: 'an unhandled error', errors: [describeError(error)] });
  }
  return failures;
}

/** Usage: `--reporter=./tests/support/failureReporter.ts` with FAILURES_FILE set to where to write. */
export default class FailureReporter implements Reporter {
  #root = process.cwd();

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const out = process.env.FAILURES_FILE;
    if (!out) return;
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(failuresOf(modules, unhandled, this.#root), null, 2));
  }
}
