import { describe, expect, it } from 'vitest';
import { serializeError } from './logger.ts';

describe('an error as logged', () => {
  it('keeps its type, message, code and stack, causes included', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const error = new TypeError('pool failed', { cause });
    const logged = serializeError(error) as Record<string, string>;
    expect(logged).toMatchObject({ type: 'TypeError', message: 'pool failed: connect ECONNREFUSED 127.0.0.1:5432' });
    expect(logged.stack).toMatch(/^TypeError: pool failed\n\s+at /);
    expect(logged.stack).toContain('caused by: Error: connect ECONNREFUSED');
    expect(serializeError(cause)).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it("leaves out the other fields, such as a PostgreSQL error's detail, which quotes the row", () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "emails_pkey"'), {
      code: '23505',
      detail: 'Key (email)=(lou@example.com) already exists.',
      table: 'emails',
    });
    const logged = serializeError(error);
    expect(Object.keys(logged as object).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(JSON.stringify(logged)).not.toContain('lou@example.com');
  });

  it('passes a value that is no error as it is', () => {
    expect(serializeError('a rejected string')).toBe('a rejected string');
  });
});
