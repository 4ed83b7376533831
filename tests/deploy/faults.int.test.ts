import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#db/postgres.ts';
import { runTool } from '#api/video/index.ts';
import { jpegDataUrl } from '../support/images.ts';
import { makeTestMedia, removeTestMedia } from '../support/media.ts';
import { client, startTestServer } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await removeTestMedia();
});

/** A video long enough that its transcode is still running when the worker is killed. */
async function longVideo(dir: string): Promise<string> {
  const out = path.join(dir, 'long.mov');
  await runTool({
    tool: 'ffmpeg',
    timeoutMs: 120_000,
    args: [
      ...['-nostdin', '-hide_banner', '-v', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=960x540:rate=25:duration=15'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=15'],
      ...['-c:v', 'mjpeg', '-q:v', '8', '-c:a', 'pcm_s16le', '-shortest', '-f', 'mov', out],
    ],
  });
  return out;
}

describe('a worker killed with SIGKILL in the middle of a media job', () => {
  it('has the job run again on another worker, and its effects happen once', async () => {
    const t = await startTestServer({}, 'api');
    cleanup.push(() => t.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-fault-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const workers: ChildProcess[] = [];
    cleanup.push(() => workers.forEach((w) => w.exitCode === null && w.kill('SIGKILL')));
    const startWorker = () => {
      const child = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', 'worker'], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: t.db.url, DATA_DIR: t.dataDir, TZ: 'UTC' },
        stdio: 'ignore',
      });
      workers.push(child);
      return child;
    };

    // the first worker runs the projections and takes the job; it dies with the transcode half done
    const first = startWorker();
    const mark = (what: string) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
    const t0 = Date.now();
    const guestToken = await t.login('guest');
    const admin = client(t.url, await t.login('admin'));
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(await longVideo(dir))], { type: 'video/quicktime' }), 'long.mov');
    const upload = await fetch(`${t.url}/api/upload-direct`, {
      method: 'POST',
      headers: { 'x-session-token': guestToken },
      body: form,
    });
    expect(upload.status).toBe(201);
    const { path: mediaData } = (await upload.json()) as { path: string };
    const submitted = await client(t.url, guestToken)('POST', '/api/media', {
      title: 'Interrupted',
      artistName: 'Kill Nine',
      email: 'nine@example.com',
      mediaType: 'video',
      mediaData,
      mimeType: 'video/quicktime',
    });
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as number;
    mark('submitted');
    expect((await admin('PATCH', `/api/admin/media/${id}`, { status: 'approved' })).status).toBe(200);

    const jobState = async () => {
      const { rows } = await t.db.pool.query<{ state: string; retry_count: number }>(
        `SELECT state, retry_count FROM pgboss.job WHERE name = 'process-media' AND data->>'mediaId' = $1`,
        [String(id)],
      );
      return rows[0];
    };
    const processedEvents = async () =>
      (
        await t.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM events WHERE type = 'MediaProcessed' AND stream_id = $1`,
          [`media-${id}`],
        )
      ).rows[0]!.n;

    await waitFor(async () => (await jobState())?.state === 'active', 60_000, 20);
    await new Promise((r) => setTimeout(r, 500));
    mark('job active; SIGKILL');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect((await jobState())!.state).toBe('active');
    expect(await processedEvents()).toBe(0);

    // a new worker: the dead one's claim goes stale (no heartbeat) and the job runs again
    const started = Date.now();
    startWorker();
    await waitFor(async () => ((await jobState())?.retry_count ?? 0) >= 1, 120_000, 200);
    mark('the dead claim was failed and the job queued again');
    await waitFor(async () => (await jobState())?.state === 'completed', 120_000, 200);
    mark('completed by the second worker');
    const retriedAfterMs = Date.now() - started;
    expect((await jobState())!.retry_count).toBeGreaterThanOrEqual(1);
    expect(await processedEvents()).toBe(1);
    // the job is done once its event is in the log; the read model the API answers from follows it
    // (the projections run in the worker)
    const guest = client(t.url, guestToken);
    await waitFor(async () => (await guest('GET', `/api/media/${id}`)).body.processing === false, 60_000);
    const poster = await fetch(`${t.url}/api/media/${id}/thumbnail`, { headers: { 'x-session-token': guestToken } });
    expect(poster.status).toBe(200);
    console.log(`job retried and completed ${retriedAfterMs} ms after the second worker started`);
  }, 240_000);
});

describe('the object store unreachable for a while', () => {
  it('uploads answer 503 while it is down, nothing is half-written, and they work once it is back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-fault-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    const startStore = async () => {
      const s3 = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir });
      await s3.run();
      return s3;
    };
    let store = await startStore();
    const t = await startTestServer({
      MINIO_ENDPOINT: '127.0.0.1',
      MINIO_PORT: String(port),
      MINIO_USE_SSL: 'false',
      MINIO_ACCESS_KEY: 'S3RVER',
      MINIO_SECRET_KEY: 'S3RVER',
      MINIO_BUCKET: 'tribute-fault',
    });
    cleanup.push(() => t.close());
    cleanup.push(() => store.close().catch(() => {}));
    const guestToken = await t.login('guest');
    const guest = client(t.url, guestToken);
    const artwork = async () =>
      guest('POST', '/api/artworks', {
        artistName: 'Store Outage',
        email: 'outage@example.com',
        imageData: await jpegDataUrl(),
        isFromCanvas: 'false',
      });
    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob([fs.readFileSync((await makeTestMedia()).mp3)], { type: 'audio/mpeg' }), 'x.mp3');
      return fetch(`${t.url}/api/upload-direct`, {
        method: 'POST',
        headers: { 'x-session-token': guestToken },
        body: form,
      });
    };
    const submittedCount = async () =>
      (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE type = 'ArtworkSubmitted'`))
        .rows[0]!.n;

    expect((await artwork()).status).toBe(201);
    expect(await submittedCount()).toBe(1);

    await store.close();
    const refused = await artwork();
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/storage/i);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    const refusedUpload = await upload();
    expect(refusedUpload.status).toBe(503);
    // nothing half-written: no event, no upload recorded
    expect(await submittedCount()).toBe(1);
    const uploads = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM media_uploads`);
    expect(uploads.rows[0]!.n).toBe(0);
    // the store is every process's: readiness reports it and stays 200, so the proxy keeps the
    // process for the gallery and the pages that need no files (decision 079)
    const ready = await fetch(`${t.url}/ready`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).info.storage.ok).toBe(false);

    store = await startStore();
    await waitFor(async () => (await (await fetch(`${t.url}/ready`)).json()).info.storage.ok === true, 20_000);
    expect((await artwork()).status).toBe(201);
    expect(await submittedCount()).toBe(2);
  });
});
