import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes('.test.') && !e.name.endsWith('.gen.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** Outside libraries each live behind one adapter (STYLE.md); nothing else may import them. */
const ADAPTERS: Array<{ module: RegExp; allowed: RegExp; dirs: string[] }> = [
  { module: /^socket\.io-client$/, allowed: /^web\/src\/live\/connection\.ts$/, dirs: ['web/src'] },
  { module: /^fabric$/, allowed: /^web\/src\/lib\/fabric/, dirs: ['web/src'] },
  {
    module: /^(socket\.io|@socket\.io\/postgres-adapter)$/,
    allowed: /^api\/realtime\//,
    dirs: ['api', 'events', 'projections'],
  },
  { module: /^pg-boss$/, allowed: /^api\/jobs\/jobQueue\.ts$/, dirs: ['api', 'events', 'projections'] },
  { module: /^sharp$/, allowed: /^api\/images\//, dirs: ['api', 'events', 'projections'] },
  {
    module: /^(fluent-ffmpeg|@ffmpeg-installer\/ffmpeg|@ffprobe-installer\/ffprobe)$/,
    allowed: /^api\/video\//,
    dirs: ['api', 'events', 'projections'],
  },
  { module: /^minio$/, allowed: /^api\/storage\//, dirs: ['api', 'events', 'projections'] },
  { module: /^express$/, allowed: /^api\//, dirs: ['events', 'projections'] },
];

describe('adapter boundaries', () => {
  for (const { module, allowed, dirs } of ADAPTERS) {
    it(`only ${allowed.source} imports ${module.source}`, () => {
      const offenders = dirs.flatMap(sources).filter((file) => {
        if (allowed.test(file)) return false;
        const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
        return [...text.matchAll(/from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].some((m) =>
          module.test(m[1] ?? m[2] ?? ''),
        );
      });
      expect(offenders).toEqual([]);
    });
  }
});
