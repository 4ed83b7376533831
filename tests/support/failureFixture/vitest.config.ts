import { defineConfig } from 'vitest/config';

// A run of its own for tests/failureReport.int.test.ts: a file that fails on purpose, never part of npm test.
export default defineConfig({ test: { include: ['tests/support/failureFixture/*.fixture.ts'] } });
