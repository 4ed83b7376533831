import { afterEach, beforeEach } from 'vitest';
import { reportingFor } from './pageReport.ts';

// The e2e project's setup file: a browser context that closes while its test has failed reports its
// pages (tests/support/pageReport.ts).
beforeEach((test) => reportingFor(test));
afterEach(() => reportingFor(undefined));
