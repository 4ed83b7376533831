import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The packages a process resolves while it imports `entries` (a fresh Node, as a CLI run or a test
 * file), and the compile cache it uses.
 */
function startOf(entries: string[]): { loaded: string[]; compileCache: string | undefined } {
  const script = `
    import { getCompileCacheDir, registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        if (!/^[.#/]|^node:/.test(specifier)) seen.add(specifier);
        return next(specifier, context);
      },
    });
    for (const entry of ${JSON.stringify(entries)}) await import(entry);
    console.log(JSON.stringify({ loaded: [...seen], compileCache: getCompileCacheDir() }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).not.toMatch(/Error/);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as ReturnType<typeof startOf>;
}

describe('what a process loads at start (docs/test-times.md)', () => {
  // Each costs every process that loads it about half a second of CPU: each CLI run, each second
  // process and each test file, which on two busy cores is minutes of a test run.
  it('loads zxcvbn only to judge production secrets, the MinIO client only when MinIO is configured, and compiles once a run', () => {
    // the server's whole graph (storage, routes, jobs, projections) and the configuration every
    // process and CLI reads
    const { loaded, compileCache } = startOf(['#api/server.ts', '#api/config.ts']);
    expect(loaded).toContain('pg');
    expect(loaded.filter((name) => /zxcvbn|^minio/.test(name))).toEqual([]);
    // and compiles them once a run, not once a process (vitest.config.ts)
    expect(compileCache).toContain('node-compile-cache');
    // a fresh Node importing the server's graph takes seconds of wall time on two busy cores
  }, 60_000);
});
