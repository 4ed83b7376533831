import { describe, expect, it } from 'vitest';
import { jsonDepth } from './jsonBody.ts';

const depth = (text: string, stopAbove?: number) => jsonDepth(Buffer.from(text), stopAbove);

describe('jsonDepth', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(depth('1')).toBe(0);
    expect(depth('"text"')).toBe(0);
    expect(depth('{}')).toBe(1);
    expect(depth('{"a":[1,{"b":[]}],"c":{}}')).toBe(4);
  });

  it('does not count brackets in strings, escaped quotes included', () => {
    expect(depth('{"a":"[[[{{{"}')).toBe(1);
    expect(depth(String.raw`{"a":"\"[[[","b":"\\"}`)).toBe(1);
    expect(depth(String.raw`["\\",[["x"]]]`)).toBe(3);
  });

  it('reads 100,000 levels without recursing, and stops early when told', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(depth(deep)).toBe(100_000);
    expect(depth(deep, 32)).toBe(33);
  });
});
