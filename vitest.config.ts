import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One file at a time (vitest's default on 2 cores) until each worker has a PostgreSQL of its own:
    // transaction ids are cluster-wide, so a transaction open in one file's database holds back the
    // sealing horizon in another's (a chain test saw 39 of 40 links sealed). docs/test-times.md
    maxWorkers: 1,
    projects: [
      {
        test: {
          name: 'unit',
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
          include: ['{db,api,events,projections,scripts,tests}/**/*.int.test.ts'],
          globalSetup: ['tests/support/postgresGlobalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          // A page in a real browser on 2 busy cores: a poll waits up to 10 s for what should appear
          // (vitest's default is 1 s), as the suite's own visible() helpers do. Speed is measured in
          // `npm run bench`, not here.
          expect: { poll: { timeout: 10_000 } },
          // No retry: a flake is a bug until proved otherwise (the last ones were a job queue that
          // stalled for 30 s and a seeder over the per-visitor limit).
          // one PostgreSQL and one Chromium for the run (each file connects with launchChromium)
          globalSetup: ['tests/support/postgresGlobalSetup.ts', 'tests/support/browserGlobalSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
