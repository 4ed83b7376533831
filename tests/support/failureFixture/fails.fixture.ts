import { describe, expect, it } from 'vitest';

// Fails on purpose, in the three ways a run's summary must name (tests/failureReport.int.test.ts).
describe('a suite', () => {
  it('fails an assertion', () => {
    expect({ seq: 1 }).toEqual({ seq: 2 });
  });

  it('passes, and leaves a rejection behind it', () => {
    void Promise.reject(new Error('rejected after the test'));
  });

  it('passes', () => {
    expect(1).toBe(1);
  });
});
