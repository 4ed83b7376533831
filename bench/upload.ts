import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runTool } from '#api/video/index.ts';
import { freePort } from '#db/postgres.ts';
import { rssBytes, startApp, startProcess } from './support.ts';

const BIG = path.join(os.tmpdir(), 'tribute-bench-508mib.mp4');
const ffmpeg = (args: string[]) =>
  runTool({ tool: 'ffmpeg', timeoutMs: 600_000, args: ['-nostdin', '-v', 'error', '-y', ...args] });

/** About 508 MiB of valid H.264 (the limit is 512): two seconds of incompressible noise, repeated by stream copy. Cached. */
async function bigVideo(): Promise<string> {
  if (fs.existsSync(BIG)) return BIG;
  const seed = `${BIG}.seed.mp4`;
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    "nullsrc=s=1280x720:r=25,geq=lum='random(1)*255':cb=128:cr=128",
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '1',
    '-pix_fmt',
    'yuv420p',
    seed,
  ]);
  await ffmpeg([
    '-protocol_whitelist',
    'file',
    '-stream_loop',
    '9',
    '-i',
    seed,
    '-c',
    'copy',
    '-fs',
    '533000000',
    '-movflags',
    '+faststart',
    BIG,
  ]);
  fs.rmSync(seed);
  return BIG;
}

const rssMiB = (pid: number) => rssBytes(pid) / 2 ** 20;

/** The naive way, for comparison: a bare HTTP server that gathers the whole body in memory. */
const NAIVE_SERVER = `
  const http = require('node:http');
  http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => { const body = Buffer.concat(chunks); res.end(String(body.length)); });
  }).listen(Number(process.env.PORT), () => console.log('http://ready'));`;

async function naiveUploadGrowth(file: string): Promise<number> {
  const port = await freePort();
  const server = await startProcess(['-e', NAIVE_SERVER], { PORT: String(port) });
  try {
    const idle = rssMiB(server.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid!))), 20);
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file, { type: 'video/mp4' }), 'big.mp4');
    await (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: form })).text();
    clearInterval(sampler);
    return peak - idle;
  } finally {
    server.kill('SIGKILL');
  }
}

/** Memory of the real server process while a ~508 MiB file streams in, then the time until its poster exists. */
export async function benchUpload(databaseUrl: string) {
  const file = await bigVideo();
  const size = fs.statSync(file).size;
  const naiveGrowth = await naiveUploadGrowth(file);
  const app = await startApp(databaseUrl);
  const server = app.process;
  try {
    const base = app.base;
    const sessionToken = await app.login();
    const headers = { 'x-session-token': sessionToken };

    const idle = rssMiB(server.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid!))), 20);
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file, { type: 'video/mp4' }), 'big.mp4');
    const started = performance.now();
    const uploaded = await fetch(`${base}/api/upload-direct`, { method: 'POST', headers, body: form });
    const uploadMs = performance.now() - started;
    clearInterval(sampler);
    const up = (await uploaded.json()) as { path: string; message?: string };
    if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${up.message}`);

    const submittedAt = performance.now();
    const created = await fetch(`${base}/api/media`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        mediaData: up.path,
        mediaType: 'video',
        mimeType: 'video/mp4',
        artistName: 'Bench',
        email: 'b@example.com',
      }),
    });
    const { id } = (await created.json()) as { id: number };
    let processed = false;
    while (!processed && performance.now() - submittedAt < 600_000) {
      const { rows } = await query(
        databaseUrl,
        `SELECT 1 FROM events WHERE type = 'MediaProcessed' AND data->>'mediaId' = $1`,
        [String(id)],
      );
      processed = rows.length > 0;
      if (!processed) await sleep(100);
    }
    const jobMs = performance.now() - submittedAt;
    return [
      '### 512 MB-class upload (`POST /api/upload-direct`), server process measured from /proc',
      '',
      `File: ${(size / 1024 / 1024).toFixed(0)} MiB of H.264, streamed as multipart by fetch.`,
      '',
      '| server RSS before | peak during upload | growth | naive (buffering) growth | upload time | throughput | submit → poster job done |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      `| ${idle.toFixed(0)} MiB | ${peak.toFixed(0)} MiB | ${(peak - idle).toFixed(0)} MiB | ${naiveGrowth.toFixed(0)} MiB | ${(uploadMs / 1000).toFixed(1)} s | ${(size / 1024 / 1024 / (uploadMs / 1000)).toFixed(0)} MiB/s | ${(jobMs / 1000).toFixed(1)} s |`,
    ].join('\n');
  } finally {
    await app.stop();
  }
}

async function query(url: string, sql: string, params: unknown[]) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}
