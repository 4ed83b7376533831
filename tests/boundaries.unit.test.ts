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

// Outside libraries each stay in their adapter: that is a lint rule (.oxlintrc.json, decision 014).

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
