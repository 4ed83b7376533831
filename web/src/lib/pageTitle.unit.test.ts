import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageTitle } from './pageTitle.ts';

/**
 * Every screen's path, from the route files as TanStack Router's file naming reads them (`.` is `/`,
 * a trailing `_` leaves the parent's layout, `$id` a parameter): a new screen without a title fails here.
 */
function screenPaths(): string[] {
  const dir = path.join(import.meta.dirname, '../routes');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.tsx') && !f.startsWith('__') && !f.startsWith('-'))
    .map((f) => {
      const segments = f
        .replace(/\.tsx$/, '')
        .split('.')
        .map((s) => s.replace(/_$/, '').replace(/^\$.*/, '42'))
        .filter((s) => s !== 'index');
      return `/${segments.join('/')}`;
    });
}

describe('the tab names every screen', () => {
  it('has a title for each route, none of them "Page Not Found"', () => {
    const paths = screenPaths();
    expect(paths).toEqual(expect.arrayContaining(['/', '/admin/show', '/audit', '/artwork/42', '/gallery']));
    for (const p of paths) expect(pageTitle(p, true), p).not.toMatch(/Page Not Found/);
    expect(pageTitle('/admin/show', true)).toBe('Presenter · Tribute Gallery');
    expect(pageTitle('/audit', true)).toBe('Audit · Tribute Gallery');
    expect(pageTitle('/no-such-page', true)).toBe('Page Not Found · Tribute Gallery');
    expect(pageTitle('/admin', true, 3)).toBe('(3) Admin Panel · Tribute Gallery');
    expect(pageTitle('/admin', true, 0)).toBe('Admin Panel · Tribute Gallery');
  });
});
