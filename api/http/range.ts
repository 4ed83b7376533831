export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Reads a Range header for a resource of `size` bytes: `bytes=a-b`, `bytes=a-` and the suffix form
 * `bytes=-n`. Several ranges, or a header that is not a byte range, get the whole resource.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, from, to] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || start > end) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
