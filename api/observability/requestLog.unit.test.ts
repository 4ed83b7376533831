import { describe, expect, it } from 'vitest';
import { answerLevel } from './requestLog.ts';

const card = '/api/images/artwork/7/Ab3dEf6hIj9kLm0n/480.webp';

describe('the level each answer is logged at', () => {
  it('logs calls at info, failures as errors, and probes only when they fail', () => {
    expect(answerLevel('/api/gallery', 200, false)).toBe('info');
    expect(answerLevel('/api/gallery', 404, false)).toBe('info');
    expect(answerLevel('/api/gallery', 500, false)).toBe('error');
    expect(answerLevel('/api/gallery', 200, true)).toBe('error');
    expect(answerLevel('/api/gallery', 503, false)).toBe('warn');
    expect(answerLevel('/ready', 200, false)).toBe('silent');
    expect(answerLevel('/ready', 503, false)).toBe('silent');
  });

  it('logs a card image sent, unchanged or moved at debug, and one refused or failed as any answer (decision 150)', () => {
    expect(answerLevel(card, 200, false)).toBe('debug');
    expect(answerLevel(card, 304, false)).toBe('debug');
    expect(answerLevel(card, 302, false)).toBe('debug');
    expect(answerLevel(card, 401, false)).toBe('info');
    expect(answerLevel(card, 404, false)).toBe('info');
    expect(answerLevel(card, 500, false)).toBe('error');
    expect(answerLevel(card, 200, true)).toBe('error');
  });
});
