import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable, Transform, type Writable } from 'node:stream';
import type pg from 'pg';
import type { Clock } from '#events/clock.ts';
import { cleanTrack } from '#contract/transcript.ts';
import { exportNdjson } from '#events/export.ts';
import { currentFilm, type Film } from '../montage/film.ts';
import { strokesKey } from '../show/strokes.ts';
import { BlobNotFound, readText, type BlobStore } from '../storage/index.ts';
import { keepsakeItems, keptStreams, leaveOutPrivate, type KeepsakeItem } from './contents.ts';
import { indexHtml, verifyHtml } from './pages.ts';
import { collectCodePoints, fontsCss, webFontsFor } from './webFonts.ts';
import { ZipStream } from './zipStream.ts';

export interface KeepsakeDeps {
  pool: Pick<pg.Pool, 'query'>;
  blobs: BlobStore;
  /** the person the gallery honours */
  name: string;
  /** when it is made: the page's `madeAt`, the book's date */
  clock: Clock;
}

const DIST = path.resolve(import.meta.dirname, '../../dist');

/** The built script and the web app's own stylesheet (`npm run build`). */
function builtAssets() {
  const script = path.join(DIST, 'keepsake/keepsake.js');
  const html = path.join(DIST, 'web/index.html');
  const css = fs.existsSync(html)
    ? fs.readFileSync(html, 'utf8').match(/href="\/?(assets\/[^"]+\.css)"/)?.[1]
    : undefined;
  if (!fs.existsSync(script) || !css) throw new Error('The keepsake needs the built web app: run npm run build');
  return { script, css: path.join(DIST, 'web', css) };
}

/** Where the montage is in the archive. */
export const MONTAGE_FILE = 'files/montage.mp4';

/** The keepsake's data.js: one line per item, pushed as it is read (classic script: file:// loads no JSON). */
function dataScript(
  { name, clock }: Pick<KeepsakeDeps, 'name' | 'clock'>,
  montage: { file: string; clips: number; duration: number } | null,
  items: AsyncIterable<KeepsakeItem>,
  files: KeepsakeItem[],
  codePoints: Set<number>,
  text: (key: string) => Promise<string | undefined>,
): Readable {
  collectCodePoints(name, codePoints);
  return Readable.from(
    (async function* () {
      yield `window.KEEPSAKE=${JSON.stringify({ name, madeAt: clock().toISOString(), montage, items: [] })};\n`;
      for await (const item of items) {
        const { image, media, ...shown } = item;
        files.push({ ...item, comments: [] });
        // the track's words go in the page: Chromium loads no <track> from file:// (decision 128)
        const vtt = media?.captions && (await text(media.captions.key));
        const page = {
          ...shown,
          ...(image
            ? { image: { file: image.file, width: image.width, height: image.height, altText: image.altText } }
            : {}),
          ...(media
            ? {
                media: {
                  ...media,
                  key: undefined,
                  poster: media.poster && { file: media.poster.file },
                  captions: vtt ? { file: media.captions!.file, vtt } : undefined,
                },
              }
            : {}),
          ...(item.strokes ? { strokes: item.strokes } : {}),
        };
        const line = JSON.stringify(page);
        collectCodePoints(line, codePoints);
        yield `window.KEEPSAKE.items.push(${line});\n`;
      }
    })(),
  );
}

/** `log.js`: the lines of log.ndjson as a script, for verify.html (file:// cannot fetch a file beside it). */
function asScript(): Transform {
  let rest = '';
  return new Transform({
    transform(chunk, _enc, done) {
      const lines = (rest + String(chunk)).split('\n');
      rest = lines.pop()!;
      done(null, lines.map((l) => `${JSON.stringify(l)},\n`).join(''));
    },
    flush(done) {
      done(null, `${rest ? `${JSON.stringify(rest)},\n` : ''}];\n`);
    },
  }).once('pipe', function (this: Transform) {
    this.push('window.KEEPSAKE_LOG=[\n');
  });
}

async function blob(blobs: BlobStore, key: string): Promise<NodeJS.ReadableStream | undefined> {
  try {
    return await blobs.read(key);
  } catch (error) {
    if (error instanceof BlobNotFound) return undefined;
    throw error;
  }
}

/**
 * A message's track as the keepsake keeps it: its cues alone, times and words, whatever else the file
 * a sender's tool wrote held (notes, styles, regions, settings: decision 142); undefined when gone.
 */
export async function keptTrack(blobs: BlobStore, key: string): Promise<string | undefined> {
  const vtt = await readText(blobs, key);
  return vtt === undefined ? undefined : cleanTrack(vtt);
}

/**
 * The montage of everyone's video messages (CONTRACT §12), when a film of the videos approved now is
 * ready: stored as it is served. A film replaced while the keepsake is made is left out, not half kept.
 */
async function addFilm(deps: KeepsakeDeps, zip: ZipStream, film: Film | undefined) {
  const source = film && (await blob(deps.blobs, film.key));
  if (!film || !source) return null;
  await zip.add(MONTAGE_FILE, source, true);
  return { file: MONTAGE_FILE, clips: film.clips, duration: film.durationSeconds };
}

/**
 * Writes the keepsake (CONTRACT §10, decision 091) to `out` as a zip, streamed: the pages, the items
 * one line each, every picture, recording and media file one after another, then the log twice (as
 * `log.ndjson`, and as `log.js` for verify.html), both cut at the same head; first the montage, when
 * one is ready (decision 125). Returns the zip's size.
 */
export async function writeKeepsake(deps: KeepsakeDeps, out: Writable): Promise<number> {
  const assets = builtAssets();
  const zip = new ZipStream(out);
  await zip.add('index.html', indexHtml(deps.name));
  await zip.add('verify.html', verifyHtml(deps.name));
  await zip.add('keepsake.js', fs.createReadStream(assets.script));
  await zip.add('style.css', fs.createReadStream(assets.css));

  const montage = await addFilm(deps, zip, await currentFilm(deps.pool));
  const kept = await keptStreams(deps.pool);
  const { rows } = await deps.pool.query<{ seq: string | null }>(`SELECT max(seq) AS seq FROM event_chain`);
  const head = Number(rows[0]!.seq ?? 0);

  const files: KeepsakeItem[] = [];
  const withStrokes = async function* (items: AsyncIterable<KeepsakeItem>) {
    for await (const item of items) {
      const drawn = item.kind === 'artwork' && item.isFromCanvas && (await deps.blobs.stat(strokesKey(item.id)));
      yield drawn ? { ...item, strokes: `files/artwork-${item.id}-strokes.js` } : item;
    }
  };
  const codePoints = new Set<number>();
  await zip.add(
    'data.js',
    dataScript(deps, montage, withStrokes(keepsakeItems(deps.pool)), files, codePoints, (key) =>
      keptTrack(deps.blobs, key),
    ),
  );
  // the fonts for the scripts the gallery's words are in, for a viewer whose machine lacks them
  await zip.add('fonts.css', fontsCss(webFontsFor(codePoints)));

  for (const item of files) {
    const parts = [item.image, item.media, item.media?.poster].filter((p) => p !== undefined);
    for (const part of parts) {
      const source = await blob(deps.blobs, part.key);
      // pictures and media are compressed already
      if (source) await zip.add(part.file, source, true);
    }
    const track = item.media?.captions && (await keptTrack(deps.blobs, item.media.captions.key));
    if (track) await zip.add(item.media!.captions!.file, track);
    if (item.strokes) {
      const source = await blob(deps.blobs, strokesKey(item.id));
      if (!source) continue;
      const wrapped = new PassThrough();
      wrapped.write(`(window.KEEPSAKE_STROKES=window.KEEPSAKE_STROKES||{})[${item.id}]=`);
      source.on('end', () => wrapped.end(';\n')).on('error', (e) => wrapped.destroy(e as Error));
      source.pipe(wrapped, { end: false });
      await zip.add(item.strokes, wrapped);
    }
  }

  const leaveOut = leaveOutPrivate(kept);
  const log = new PassThrough();
  const exported = exportNdjson(deps.pool, log, { to: head }, leaveOut).then(() => log.end());
  await Promise.all([zip.add('log.ndjson', log), exported]);
  const script = asScript();
  const again = new PassThrough();
  again.pipe(script);
  const exportedAgain = exportNdjson(deps.pool, again, { to: head }, leaveOut).then(() => again.end());
  await Promise.all([zip.add('log.js', script), exportedAgain]);
  return zip.finish(out);
}
