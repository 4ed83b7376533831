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
        // a type-only import is not a dependency at run time: the adapter still owns the library
        const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^import type .*$/gm, '');
        return [...text.matchAll(/from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].some((m) =>
          module.test(m[1] ?? m[2] ?? ''),
        );
      });
      expect(offenders).toEqual([]);
    });
  }
});

/**
 * The layers, lowest first. A file may import its own layer and the ones below it, never one above:
 * contract (shared types and rules) < db < events (the log) < projections (read models) < api.
 * The web app sees only the contract. scripts/, bench/ and tests/ sit on top and may use anything.
 */
const LAYERS = ['contract', 'db', 'events', 'projections', 'api'] as const;

function layerOf(file: string): string | undefined {
  const top = file.split('/')[0]!;
  if (top === 'web') return 'web';
  return (LAYERS as readonly string[]).includes(top) ? top : undefined;
}

function importedFiles(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].flatMap((m) => {
    const spec = m[1]!;
    if (spec.startsWith('#')) return [spec.slice(1)];
    if (spec.startsWith('.')) return [path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec))];
    return [];
  });
}

describe('layers', () => {
  const files = [...LAYERS, 'web/src'].flatMap(sources);

  it('finds the files it checks', () => {
    for (const layer of LAYERS) expect(files.some((f) => f.startsWith(`${layer}/`))).toBe(true);
  });

  it('no import points up a layer, and the web app imports only the contract', () => {
    const offenders = files.flatMap((file) => {
      const from = layerOf(file)!;
      return importedFiles(file)
        .filter((target) => {
          const to = layerOf(target);
          if (to === undefined) return true; // scripts/, bench/, tests/ or outside the tree
          if (from === 'web') return to !== 'web' && to !== 'contract';
          if (to === 'web') return true;
          return LAYERS.indexOf(to as (typeof LAYERS)[number]) > LAYERS.indexOf(from as (typeof LAYERS)[number]);
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(offenders).toEqual([]);
  });
});
