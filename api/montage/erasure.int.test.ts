import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '#api/video/index.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { readMontage } from './montageRun.ts';

/** Issue 26: an erased sender's name card does not stay in the stored film until the next run. */
let dir: string;
let t: TestServer;
let admin: ReturnType<typeof client>;
let guestToken: string;

async function sendVideo(name: string, email: string): Promise<number> {
  const file = path.join(dir, `${email}.mp4`);
  await runTool({
    tool: 'ffmpeg',
    args: [
      ...['-nostdin', '-hide_banner', '-v', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
    ],
    timeoutMs: 120_000,
  });
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), 'clip.mp4');
  const up = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': guestToken },
    body: form,
  });
  const { path: mediaData } = (await up.json()) as { path: string };
  const sent = await client(t.url, guestToken)('POST', '/api/media', {
    title: `From ${name}`,
    artistName: name,
    email,
    mediaType: 'video',
    mediaData,
    mimeType: 'video/mp4',
  });
  expect(sent.status).toBe(201);
  const id = sent.body.id as number;
  expect((await admin('PUT', `/api/media/${id}/status`, { status: 'approved' })).status).toBe(200);
  return id;
}

async function montageReady(clips: number) {
  await expect
    .poll(async () => (await admin('GET', '/api/admin/montage')).body.state, { timeout: 180_000, interval: 250 })
    .toBe('ready');
  expect((await admin('GET', '/api/admin/montage')).body).toMatchObject({ state: 'ready', clips });
}

const filmPlays = async () =>
  (await fetch(`${t.url}/api/montage.mp4`, { headers: { 'x-session-token': guestToken } })).status;
/** The film files in the local blob store (each has a hidden `.meta.json` beside it). */
const storedFiles = () => {
  const films = path.join(t.dataDir, 'blobs', 'montage');
  return fs.existsSync(films) ? fs.readdirSync(films) : [];
};
const storedFilms = () => storedFiles().filter((file) => !file.startsWith('.'));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'montage-erasure-'));
  t = await startTestServer();
  admin = client(t.url, await t.login('admin'));
  guestToken = await t.login('guest');
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the montage after an erasure', () => {
  it('takes the film with the erased name down at once, until it is made again without them', async () => {
    await sendVideo('Ava Gone', 'ava@example.com');
    const stays = await sendVideo('Bo Stays', 'bo@example.com');
    expect((await admin('POST', '/api/admin/montage')).status).toBe(202);
    await montageReady(2);
    const film = (await readMontage(t.db.pool))!.file_key!;
    expect(storedFilms()).toEqual([path.basename(film)]);
    expect(await filmPlays()).toBe(200);

    const erased = await admin('POST', '/api/admin/erase', { email: 'ava@example.com' });
    expect(erased.status).toBe(200);

    // the film holding Ava's card is gone from the store, not only unserved
    expect(storedFiles()).toEqual([]);
    expect(await filmPlays()).toBe(404);
    expect((await admin('GET', '/api/admin/montage')).body).toMatchObject({ state: 'stale', duration: null });

    expect((await admin('POST', '/api/admin/montage')).status).toBe(202);
    await montageReady(1);
    expect((await readMontage(t.db.pool))!.clips.map((clip) => clip.id)).toEqual([stays]);
    expect(await filmPlays()).toBe(200);
    expect(storedFilms()).toHaveLength(1);
  }, 400_000);
});
