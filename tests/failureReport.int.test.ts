import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Failure } from './support/failureReporter.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe("npm test's summary of what failed", () => {
  it('names a failed assertion with its diff, and an error thrown outside any test, and no test that passed', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tribute-failures-'));
    const out = path.join(dir, 'failures.json');
    const run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'tests/support/failureFixture/vitest.config.ts',
        '--reporter=./tests/support/failureReporter.ts',
      ],
      { cwd: ROOT, env: { ...process.env, FAILURES_FILE: out }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(1);
    const failures = JSON.parse(readFileSync(out, 'utf8')) as Failure[];
    rmSync(dir, { recursive: true, force: true });
    expect(failures.map(({ file, name }) => `${file} > ${name}`)).toEqual([
      'tests/support/failureFixture/fails.fixture.ts > a suite > fails an assertion',
      '(outside any test) > an unhandled error',
    ]);
    const [assertion, unhandled] = failures.map((f) => f.errors.join('\n'));
    expect(assertion).toContain('expected { seq: 1 } to deeply equal { seq: 2 }');
    expect(assertion).toContain('-   "seq": 2,');
    expect(assertion).toMatch(/fails\.fixture\.ts:\d+:\d+/);
    expect(unhandled).toContain('Error: rejected after the test');
  });
});
