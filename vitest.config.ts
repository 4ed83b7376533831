import path from 'node:path';
import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/support/sequencer.ts';

// Node's compile cache for every worker and every process a test starts (a CLI run, a second server):
// a fresh Node importing the server spent 2.0-2.2 s of CPU, 1.3 s with the cache, and a test run
// starts a few hundred. docs/test-times.md
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, 'node_modules/.cache/node-compile-cache');

export default defineConfig({
  test: {
    // Four files at a time on 2 cores: a run spends about 18 minutes of CPU (all its processes:
    // PostgreSQL, Chromium, ffmpeg, the tests) whatever the number of workers, and with two it took
    // 30 minutes, the cores mostly waiting on commits, timers and the browser; with four, 17 minutes.
    // TEST_WORKERS sets another number. Each vitest worker has a PostgreSQL cluster of its own
    // (tests/support/postgresGlobalSetup.ts): transaction ids and the snapshot horizon the chain
    // sealer waits on are cluster-wide, so files sharing one cluster held back each other's sealing (a
    // chain test saw 39 of 40 links sealed). An external DATABASE_URL is one cluster for every worker:
    // one file at a time there. docs/test-times.md (sixth pass)
    maxWorkers: process.env.DATABASE_URL ? 1 : Number(process.env.TEST_WORKERS ?? 4),
    // Each project below runs its files without isolation: a worker process imports the server once
    // and runs file after file, where isolated it started a fresh process for each file and imported
    // it again (int: 446 -> 343 s of CPU, 246 -> 191 s; e2e: 272 -> 256 s). So a test file closes what
    // it starts, and reads a process-wide counter as a change, not a total (docs/decisions/157).
    // the longest files first, from their committed times when this checkout has not run them
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          include: [
            '{contract,db,api,events,projections,scripts}/**/*.unit.test.ts',
            'web/src/**/*.unit.test.ts',
            'tests/**/*.unit.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'int',
          isolate: false,
          include: ['{db,api,events,projections,scripts,tests}/**/*.int.test.ts'],
          // a PostgreSQL cluster per worker; the run's ffmpeg fixtures, made once (tests/support/media.ts)
          globalSetup: ['tests/support/postgresGlobalSetup.ts', 'tests/support/mediaGlobalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          isolate: false,
          include: ['tests/e2e/**/*.e2e.test.ts'],
          // A page in a real browser on 2 busy cores: a poll waits up to 10 s for what should appear
          // (vitest's default is 1 s), as the suite's own visible() helpers do. Speed is measured in
          // `npm run bench`, not here.
          expect: { poll: { timeout: 10_000 } },
          // No retry: a flake is a bug until proved otherwise (the last ones were a job queue that
          // stalled for 30 s and a seeder over the per-visitor limit).
          // one PostgreSQL and one Chromium for the run (each file connects with launchChromium), and
          // the run's ffmpeg fixtures, made once (tests/support/media.ts)
          globalSetup: [
            'tests/support/postgresGlobalSetup.ts',
            'tests/support/browserGlobalSetup.ts',
            'tests/support/mediaGlobalSetup.ts',
          ],
          // a failed test's open pages are described in its report (tests/support/pageReport.ts)
          setupFiles: ['tests/support/pageReport.setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
