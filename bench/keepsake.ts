import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import type pg from 'pg';
import { LocalBlobStore } from '#api/storage/localBlobStore.ts';
import { EventStore } from '#events/store.ts';
import { rssBytes, seededArtwork, startApp, type App } from './support.ts';

/** A gallery of this many artworks, each a picture of about 10 MB: a gigabyte of media. */
const ITEMS = Number(process.env.BENCH_KEEPSAKE_ITEMS ?? 100);
const MB = 1024 * 1024;
/** glibc's arenas and trim threshold, as package.json and the Dockerfile set them (decisions 127, 143) */
const MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' };

/** One noisy JPEG of about 10 MB (noise does not compress), stored under every artwork's key. */
async function picture() {
  return sharp({
    create: {
      width: 3000,
      height: 3000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 70 },
    },
  })
    .jpeg({ quality: 100 })
    .toBuffer();
}

async function download(url: string, token: string, pid: number) {
  const before = rssBytes(pid);
  let peak = before;
  let bytes = 0;
  const sampling = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 50);
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-session-token': token } });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampling);
  return { seconds, bytes, growth: Math.max(0, peak - before) };
}

/** Fills the app's gallery with `items` approved artworks, each the same noisy 12 MB picture. */
export async function seedKeepsakeGallery(app: App, pool: pg.Pool, items = ITEMS): Promise<number> {
  const blobs = new LocalBlobStore(path.join(app.dataDir, 'blobs'));
  const image = await picture();
  const store = new EventStore(pool);
  const now = new Date().toISOString();
  for (let i = 0; i < items; i++) {
    const id = 5_000_000 + i;
    await blobs.put(`artworks/${id}/original.jpg`, image, { contentType: 'image/jpeg' });
    const data = seededArtwork(id, now, {
      title: `Picture ${i}`,
      description: null,
      artistName: `Painter ${i % 17}`,
    });
    await store.append(
      `artwork-${id}`,
      0,
      [
        {
          type: 'ArtworkSubmitted',
          schemaVersion: 1,
          data: { ...data, image: { ...data.image, width: 3000, height: 3000, bytes: image.length } },
        },
        { type: 'ArtworkApproved', data: { artworkId: id, adminNotesRef: null, approvedAt: now } },
      ],
      { role: 'system', now },
    );
  }
  const admin = await app.admin();
  for (let tries = 0; ; tries++) {
    const r = await app.call('GET', '/api/gallery?pageSize=1', admin);
    if (((await r.json()) as { total: number }).total >= items) break;
    if (tries > 600) throw new Error('the gallery did not fill');
    await sleep(100);
  }
  return items * image.length;
}

/**
 * `npm run keepsake -- --out FILE` beside the running app, under `/usr/bin/time -v`: the command's
 * own peak RSS (the whole process: Node, sharp and PDFKit) and its time.
 */
export function keepsakeCommandPeak(app: App, databaseUrl: string, file: string) {
  const out = path.join(os.tmpdir(), `keepsake-bench-${process.pid}-${file}`);
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, path.join(import.meta.dirname, '../scripts/keepsake.ts'), '--out', out],
    {
      // as `npm run keepsake` runs it (decision 127)
      env: { ...process.env, ...MALLOC, DATABASE_URL: databaseUrl, DATA_DIR: app.dataDir, NODE_ENV: 'development' },
      encoding: 'utf8',
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1];
  if (run.status !== 0 || !peak) throw new Error(`npm run keepsake -- --out ${file}: ${run.stderr}`);
  const bytes = fs.statSync(out).size;
  fs.rmSync(out, { force: true });
  return { seconds, bytes, peak: Number(peak) * 1024 };
}

/**
 * The keepsake of a gallery with 1 GB of media (CONTRACT §10): time, size and the server's memory
 * growth (peak RSS during the download minus RSS before), for the zip and the book, against a plain
 * `zip -0` of the same files; and the peak RSS of `npm run keepsake` making each.
 */
export async function benchKeepsake(pool: pg.Pool, databaseUrl: string) {
  // the server as `npm start` and the image run it (decision 127)
  const app = await startApp(databaseUrl, MALLOC);
  try {
    const media = await seedKeepsakeGallery(app, pool);
    const admin = await app.admin();
    const zip = await download(`${app.base}/api/admin/keepsake`, admin, app.process.pid!);
    const book = await download(`${app.base}/api/admin/keepsake.pdf`, admin, app.process.pid!);
    const zipCommand = keepsakeCommandPeak(app, databaseUrl, 'keepsake.zip');
    const bookCommand = keepsakeCommandPeak(app, databaseUrl, 'keepsake.pdf');
    const out = path.join(os.tmpdir(), `keepsake-baseline-${process.pid}.zip`);
    const started = performance.now();
    spawnSync('zip', ['-q', '-0', '-r', out, 'artworks'], { cwd: path.join(app.dataDir, 'blobs') });
    const baseline = { seconds: (performance.now() - started) / 1000, bytes: fs.statSync(out).size };
    fs.rmSync(out, { force: true });
    const row = (name: string, r: { seconds: number; bytes: number; growth?: number; peak?: number }) =>
      `| ${name} | ${r.seconds.toFixed(1)} s | ${(r.bytes / MB).toFixed(0)} MB | ${r.growth === undefined ? '—' : `${(r.growth / MB).toFixed(0)} MB`} | ${r.peak === undefined ? '—' : `${(r.peak / MB).toFixed(0)} MB`} |`;
    return [
      `### Keepsake: ${ITEMS} artworks, ${(media / MB).toFixed(0)} MB of pictures`,
      '',
      '| what | time | size | server memory growth (peak RSS − before) | peak RSS of the command |',
      '|---|---|---|---|---|',
      row('`GET /api/admin/keepsake` (zip)', zip),
      row('`GET /api/admin/keepsake.pdf` (book)', book),
      row('`npm run keepsake -- --out keepsake.zip`', zipCommand),
      row('`npm run keepsake -- --out keepsake.pdf`', bookCommand),
      row('baseline: `zip -0 -r` of the same files', baseline),
    ].join('\n');
  } finally {
    await app.stop();
  }
}
