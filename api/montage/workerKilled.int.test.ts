import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia, runTool } from '#api/video/index.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let t: TestServer;
let admin: ReturnType<typeof client>;
const workers: ChildProcess[] = [];

/** A job worker of its own, on the test server's database and DATA_DIR (its blobs and tmp). */
function startWorker(): ChildProcess {
  const worker = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', 'worker'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.db.url, DATA_DIR: t.dataDir, NODE_ENV: 'test' },
    stdio: 'ignore',
  });
  workers.push(worker);
  return worker;
}

async function kill(worker: ChildProcess, signal: NodeJS.Signals) {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill(signal);
  await exited;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'montage-killed-'));
  t = await startTestServer({}, 'api');
  admin = client(t.url, await t.login('admin'));
});
afterAll(async () => {
  for (const worker of workers) await kill(worker, 'SIGTERM');
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function approvedVideo(index: number) {
  const file = path.join(dir, `clip-${index}.mp4`);
  await runTool({
    tool: 'ffmpeg',
    args: [
      ...['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=6'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=6', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
    ],
    timeoutMs: 60_000,
  });
  const token = await t.login('guest');
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), 'clip.mp4');
  const up = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': token },
    body: form,
  });
  const sent = await client(t.url, token)('POST', '/api/media', {
    title: `Clip ${index}`,
    artistName: `Sender ${index}`,
    email: 'x@example.com',
    mediaType: 'video',
    mediaData: ((await up.json()) as { path: string }).path,
    mimeType: 'video/mp4',
  });
  // the catalog is the workers' (this server is an API process): approved once it knows the item
  await expect
    .poll(async () => (await admin('PUT', `/api/media/${sent.body.id}/status`, { status: 'approved' })).status, {
      timeout: 60_000,
    })
    .toBe(200);
}

const montage = async () => (await admin('GET', '/api/admin/montage')).body as { state: string; progress: number };
const leftovers = () => fs.readdirSync(path.join(t.dataDir, 'tmp')).filter((name) => name.startsWith('montage-'));

describe('a montage worker killed mid-way', () => {
  it('is started again by another worker; nothing half-made is served, and the film comes out whole', async () => {
    const setup = startWorker();
    for (const index of [1, 2, 3]) await approvedVideo(index);
    await expect.poll(async () => (await admin('GET', '/api/admin/montage')).body.approvedVideos).toBe(3);
    await kill(setup, 'SIGTERM');
    expect((await admin('POST', '/api/admin/montage')).status).toBe(202);

    const first = startWorker();
    await expect.poll(async () => (await montage()).progress, { timeout: 120_000, interval: 100 }).toBeGreaterThan(0);
    await kill(first, 'SIGKILL');
    expect((await montage()).state).toBe('running');
    expect((await montage()).progress).toBeLessThan(1);
    expect((await client(t.url, await t.login('guest'))('GET', '/api/montage.mp4')).status).toBe(404);
    expect(leftovers()).toHaveLength(1); // the killed run's work, which its retry removes

    startWorker();
    await expect.poll(async () => (await montage()).state, { timeout: 240_000, interval: 250 }).toBe('ready');
    const res = await fetch(`${t.url}/api/montage.mp4`, { headers: { 'x-session-token': await t.login('guest') } });
    expect(res.status).toBe(200);
    const film = path.join(dir, 'film.mp4');
    fs.writeFileSync(film, Buffer.from(await res.arrayBuffer()));
    const probed = await probeMedia(film);
    expect(probed).toMatchObject({ width: 1280, height: 720, videoCodec: 'h264', audioCodec: 'aac' });
    expect(Math.abs(probed.durationSeconds - 3 * (6 + 2))).toBeLessThan(0.5);
    expect(leftovers()).toEqual([]);
  }, 400_000);
});
