import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, isValidEmail } from './email.ts';

const GOOD = [
  'a+b@x.com',
  'sam@example.com',
  'first.last@mail.example.co.uk',
  "o'brien@example.ie",
  'robin_sketch-99@example.museum',
  '  padded@example.com  ',
];
const BAD = [
  '',
  'sam@example',
  'a@b.c',
  'no-at-sign.example.com',
  '@example.com',
  'sam@',
  'two@@example.com',
  'a b@example.com',
  '.dot@example.com',
  'dot.@example.com',
  'two..dots@example.com',
  'sam@-example.com',
  'sam@example..com',
  'sam@example.c0m',
];

describe('the email rule', () => {
  it.each(GOOD)('takes %j', (email) => expect(isValidEmail(email)).toBe(true));
  it.each(BAD)('refuses %j', (email) => expect(isValidEmail(email)).toBe(false));

  it("is zod's own z.email() pattern, so server and forms give one answer", () => {
    // the same pattern, written without its needless `\-` escapes
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source.replaceAll('\\-', '-'));
    for (const email of [...GOOD, ...BAD]) {
      expect(z.email().safeParse(email.trim()).success, email).toBe(isValidEmail(email));
    }
  });
});
