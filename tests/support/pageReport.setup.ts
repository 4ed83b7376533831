import { afterEach, beforeEach } from 'vitest';
import { reportingFor, reportOpenContexts } from './pageReport.ts';

// The e2e project's setup file: a browser context that closes while its test has failed reports its
// pages, and so does one still open once the test file's own hooks have run (tests/support/pageReport.ts).
beforeEach((test) => {
  reportingFor(test);
  // after every afterEach, even one that threw: a later close reports to no finished test
  test.onTestFinished(() => reportingFor(undefined));
});
// hooks run in reverse order of registration: this one after the test file's own afterEach
afterEach(() => reportOpenContexts());
