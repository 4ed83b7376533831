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

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The seams of issue 28: thin routes, one declared shape, small web files, pure specs, no circle. */
describe('one shape across the seam', () => {
  it('no route file runs SQL: reads are in projections/, writes in one handler per command', () => {
    const routes = sources('api').filter((f) => f.endsWith('/routes.ts'));
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((f) => /\.query\s*[<(]/.test(read(f)))).toEqual([]);
  });

  it('the web app declares no item, comment, kind or queue-count shape: it imports contract/views.ts', () => {
    const offenders = sources('web/src').flatMap((file) => {
      const text = read(file);
      const found: string[] = [];
      if (/'artwork'\s*\|\s*'story'\s*\|\s*'media'/.test(text)) found.push('the kind list');
      // the kinds written out as a list, an option per kind, or the kind-to-URL table (itemKinds.ts builds them)
      if (/['"]artwork['"]\s*,\s*['"]story['"]\s*,\s*['"]media['"]/.test(text)) found.push('the kind list');
      if (/value=["']artwork["']/.test(text)) found.push('the kind list');
      if (/artwork:\s*\{?\s*(?:\w+:\s*)?['"][^'"]*artworks['"]/.test(text)) found.push('the kind-to-URL table');
      if (/pending\??:\s*\{\s*artworks/.test(text)) found.push('the queue counts');
      // an object type with an item's or a comment's fields
      for (const [, name, body] of text.matchAll(/(?:interface\s+(\w+)[^{=]*|type\s+(?:\w+)\s*=\s*)\{([^{}]*)\}/g)) {
        const fields = new Set([...(body ?? '').matchAll(/^\s*(\w+)\??:/gm)].map((m) => m[1]));
        const item =
          fields.has('id') && (fields.has('likeCount') || fields.has('artistName') || fields.has('imageData'));
        const comment = fields.has('id') && fields.has('authorName') && fields.has('createdAt');
        if (item || comment) found.push(`the ${item ? 'item' : 'comment'} type ${name ?? ''}`.trim());
      }
      return found.map((what) => `${file}: ${what}`);
    });
    expect(offenders).toEqual([]);
  });

  it('no web file is over 300 lines, generated ones aside', () => {
    const long = sources('web').filter((f) => read(f).split('\n').length > 301);
    expect(long).toEqual([]);
  });

  it('every events/ folder that decides has a given/when/then spec of its deciders', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'events'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `events/${e.name}`);
    const missing = folders.flatMap((folder) => {
      const files = fs.readdirSync(path.join(ROOT, folder));
      const deciders = files
        .filter((f) => !f.includes('.test.') && f.endsWith('.ts'))
        .flatMap((f) => [...read(`${folder}/${f}`).matchAll(/export const (\w+): Decider</g)].map((m) => m[1]!));
      const specs = files.filter((f) => f.endsWith('.unit.test.ts')).map((f) => read(`${folder}/${f}`));
      return deciders.filter((d) => !specs.some((s) => new RegExp(`\\b${d}\\b`).test(s))).map((d) => `${folder}: ${d}`);
    });
    expect(folders.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('no import circle runs through events/', () => {
    const files = sources('events');
    const edges = new Map(files.map((f) => [f, importedFiles(f).filter((t) => files.includes(t))]));
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, trail: string[]) => {
      const at = trail.indexOf(file);
      if (at >= 0) return void circles.push([...trail.slice(at), file].join(' -> '));
      if (done.has(file)) return;
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it('a projection declares its live messages: no program joins an outbox to a projection by name', () => {
    const program = [...LAYERS, 'scripts', 'bench'].flatMap(sources);
    expect(program.filter((f) => /\.duringBatch\(/.test(read(f)))).toEqual([]);
    expect(read('projections/catalog/catalogProjection.ts')).toMatch(/\blive:\s*writeLiveMessages\b/);
  });

  it('what screens hear of an event is declared beside the statement that changes the read model for it', () => {
    // no switch over event types in the outbox: each catalog statement says what it is heard as (`heard`)
    const outbox = sources('projections').filter((f) => f.startsWith('projections/live/'));
    expect(outbox.filter((f) => /case '[A-Z][a-zA-Z]+':/.test(read(f)))).toEqual([]);
    const statements = sources('projections').filter((f) => f.startsWith('projections/catalog/statements/'));
    const entries = statements.flatMap((f) =>
      [...read(f).matchAll(/^ {2}([A-Z][a-zA-Z]+): /gm)].map((m) => `${f}: ${m[1]}`),
    );
    expect(entries.length).toBeGreaterThan(30);
    expect(read('projections/catalog/statements/statement.ts')).toMatch(/^\s*heard\(event/m);
  });

  it("the outbox recognises no event by its type: a sender's message and a forgetting are declared as heard too", () => {
    const outbox = sources('projections').filter((f) => f.startsWith('projections/live/'));
    const statements = sources('projections').filter((f) => f.startsWith('projections/catalog/statements/'));
    const types = statements.flatMap((f) => [...read(f).matchAll(/^ {2}([A-Z][a-zA-Z]+): /gm)].map((m) => m[1]!));
    // the words the names are built of (`Artwork`, `Approved`), which a pattern or a table joins into one
    const words = new Set(types.flatMap((t) => t.match(/[A-Z][a-z]+/g) ?? []));
    const offenders = outbox.flatMap((file) => {
      const text = read(file);
      const found: string[] = [];
      if (/\.type\b|\['type'\]/.test(text)) found.push("reads an event's type");
      for (const type of types) if (new RegExp(`\\b${type}\\b`).test(text)) found.push(type);
      for (const word of words) if (new RegExp(`['"(|]${word}['"|)]`).test(text)) found.push(`'${word}'`);
      return found.map((what) => `${file}: ${what}`);
    });
    expect(types.length).toBeGreaterThan(30);
    expect(words).toContain('Withdrawn');
    expect(offenders).toEqual([]);
    expect(read('projections/catalog/statements/statement.ts')).toMatch(/what: 'mine'/);
    expect(read('projections/catalog/statements/statement.ts')).toMatch(/what: 'forget'/);
  });

  it("an item's files are kept under the kind's name from the contract, never a folder written by hand", () => {
    const offenders = sources('api').filter((f) => {
      const text = read(f);
      // a key begun by hand (`artworks/${id}/…`), or a kind-to-folder table (`artwork: 'artworks'`, `folder: 'media'`)
      return /[`'"](?:artworks|stories|media)\/\$\{/.test(text) || /(?:artwork|folder):\s*['"]artworks['"]/.test(text);
    });
    expect(offenders).toEqual([]);
    expect(read('api/kinds.ts')).toMatch(/itemFolder = \(kind: Kind, id: number\): string => `\$\{KIND_PATH\[kind\]\}/);
  });
});

/**
 * One clock (decision 147): the time the program records or shows (an event's `now`, a read model's
 * or a live message's day, a keepsake's date, an anchor's `at`, an answer) is read from the clock
 * the process was given (`deps.clock`, threaded down as a `Clock`); only `api/time.ts` reads the
 * system's. These files read it too, to measure elapsed time alone (timeouts, deadlines, rate-limit
 * windows, a cache's expiry, a temp file's unique name), each with its reason beside the read.
 */
const ELAPSED_TIME_ONLY = [
  'api/auth/sessions.ts',
  'api/history/auditorPace.ts',
  'api/limits/limits.ts',
  'api/limits/postgresStore.ts',
  'api/media/resumable.ts',
  'api/media/uploadQuota.ts',
  'api/mural/drawStroke.ts',
  'api/realtime/liveTail.ts',
  'api/video/tools.ts',
  'events/anchors.ts',
  'projections/catalog/readYourWrites.ts',
];

/** `new Date()` (or `new Date`), `Date.now`, `Date()`, `Temporal.Now`: a read of what time it is. */
const READS_THE_TIME = /\bnew\s+Date\b(?!\s*\(\s*[^)\s])|\bDate\.now\b|(?<![\w.$])Date\s*\(\s*\)|\bTemporal\.Now\b/;

describe('one clock', () => {
  const reading = ['api', 'events', 'projections'].flatMap(sources).filter((f) => READS_THE_TIME.test(read(f)));

  it('the log, the read models and the api read what time it is from the clock they are given', () => {
    expect(reading.filter((f) => f !== 'api/time.ts' && !ELAPSED_TIME_ONLY.includes(f))).toEqual([]);
    expect(reading).toContain('api/time.ts');
  });

  it('each file allowed to measure elapsed time still does, with its reason beside it', () => {
    for (const file of ELAPSED_TIME_ONLY) {
      expect(reading, file).toContain(file);
      expect(read(file), file).toMatch(/not domain time \(decision 147\)/);
    }
  });
});
