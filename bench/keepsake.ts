import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import type pg from 'pg';
import { LocalBlobStore } from '#api/storage/localBlobStore.ts';
import { EventStore } from '#events/store.ts';
import { rssBytes, seededArtwork, startApp } from './support.ts';

/** A gallery of this many artworks, each a picture of about 10 MB: a gigabyte of media. */
const ITEMS = Number(process.env.BENCH_KEEPSAKE_ITEMS ?? 100);
const MB = 1024 * 1024;

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

/**
 * The keepsake of a gallery with 1 GB of media (CONTRACT §10): time, size and the server's memory
 * growth (peak RSS during the download minus RSS before), for the zip and the book, against a plain
 * `zip -0` of the same files.
 */
export async function benchKeepsake(pool: pg.Pool, databaseUrl: string) {
  const app = await startApp(databaseUrl);
  try {
    const blobs = new LocalBlobStore(path.join(app.dataDir, 'blobs'));
    const image = await picture();
    const store = new EventStore(pool);
    const now = new Date().toISOString();
    for (let i = 0; i < ITEMS; i++) {
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
      if (((await r.json()) as { total: number }).total >= ITEMS) break;
      if (tries > 600) throw new Error('the gallery did not fill');
      await sleep(100);
    }
    const media = ITEMS * image.length;
    const zip = await download(`${app.base}/api/admin/keepsake`, admin, app.process.pid!);
    const book = await download(`${app.base}/api/admin/keepsake.pdf`, admin, app.process.pid!);
    const out = path.join(os.tmpdir(), `keepsake-baseline-${process.pid}.zip`);
    const started = performance.now();
    spawnSync('zip', ['-q', '-0', '-r', out, 'artworks'], { cwd: path.join(app.dataDir, 'blobs') });
    const baseline = { seconds: (performance.now() - started) / 1000, bytes: fs.statSync(out).size };
    fs.rmSync(out, { force: true });
    const row = (name: string, r: { seconds: number; bytes: number; growth?: number }) =>
      `| ${name} | ${r.seconds.toFixed(1)} s | ${(r.bytes / MB).toFixed(0)} MB | ${r.growth === undefined ? '—' : `${(r.growth / MB).toFixed(0)} MB`} |`;
    return [
      `### Keepsake: ${ITEMS} artworks, ${(media / MB).toFixed(0)} MB of pictures`,
      '',
      '| what | time | size | server memory growth (peak RSS − before) |',
      '|---|---|---|---|',
      row('`GET /api/admin/keepsake` (zip)', zip),
      row('`GET /api/admin/keepsake.pdf` (book)', book),
      row('baseline: `zip -0 -r` of the same files', baseline),
    ].join('\n');
  } finally {
    await app.stop();
  }
}
