import { describe, expect, it } from 'vitest';
import { unstorableText } from './errors.ts';

describe('text PostgreSQL cannot hold, found with its path', () => {
  it('finds NUL and unpaired UTF-16 halves in strings and keys, at any depth', () => {
    expect(unstorableText('fine')).toBeUndefined();
    expect(unstorableText('a\u0000b')).toEqual([]);
    expect(unstorableText({ title: 'ok', tags: ['x', 'y\uD800'] })).toEqual(['tags', '1']);
    expect(unstorableText({ strokes: [{ points: [1, 2, 3], color: '#000000\u0000' }] })).toEqual([
      'strokes',
      '0',
      'color',
    ]);
    expect(unstorableText({ ['bad\u0000key']: 1 })).toEqual(['bad\u0000key']);
    expect(unstorableText({ a: { b: '\uDC00 alone' } })).toEqual(['a', 'b']);
    expect(unstorableText({ pair: '\uD83C\uDF89', n: 1, z: null, t: true })).toBeUndefined();
  });
});
