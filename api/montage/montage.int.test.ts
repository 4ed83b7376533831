import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia, runTool } from '#api/video/index.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let dir: string;
let t: TestServer;
let admin: ReturnType<typeof client>;
let guestToken: string;
let guest: ReturnType<typeof client>;

const ffmpeg = (args: string[]) =>
  runTool({ tool: 'ffmpeg', args: ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args], timeoutMs: 120_000 });

/** A clip of `seconds` of test pattern at `size`, with a tone `volumeDb` loud (or no audio). */
async function clip(name: string, size: string, seconds: number, volumeDb?: number): Promise<string> {
  const out = path.join(dir, name);
  const audio =
    volumeDb === undefined
      ? []
      : ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds},volume=${volumeDb}dB`];
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=${seconds}`],
    ...audio,
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(volumeDb === undefined ? [] : ['-c:a', 'aac', '-shortest']),
    ...['-f', 'mp4', out],
  ]);
  return out;
}

/** Integrated loudness (EBU R128) of the film's audio from `from` for `seconds`, by ffmpeg's ebur128. */
async function loudness(file: string, from: number, seconds: number): Promise<number> {
  const { stderr = '' } = await runTool({
    tool: 'ffmpeg',
    args: [
      ...['-nostdin', '-hide_banner', '-nostats', '-v', 'info', '-ss', String(from), '-t', String(seconds)],
      ...['-i', file, '-map', '0:a', '-af', 'ebur128', '-f', 'null', '-'],
    ],
    timeoutMs: 60_000,
  });
  const summary = stderr.slice(stderr.lastIndexOf('Integrated loudness'));
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)![1]);
}

/** How wide the black bars at the sides of the frame at `at` seconds are, in pixels of the 1280. */
async function sideBar(file: string, at: number): Promise<number> {
  const png = path.join(dir, `frame-${at}.png`);
  await ffmpeg(['-ss', String(at), '-i', file, '-frames:v', '1', png]);
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const row = Math.floor(info.height / 2) * info.width;
  let x = 0;
  while (x < info.width && data[row + x]! < 16) x++;
  return x;
}

async function sendVideo(file: string, name: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), path.basename(file));
  const up = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': guestToken },
    body: form,
  });
  const { path: mediaData } = (await up.json()) as { path: string };
  const sent = await guest('POST', '/api/media', {
    title: `From ${name}`,
    artistName: name,
    email: 'someone@example.com',
    mediaType: 'video',
    mediaData,
    mimeType: 'video/mp4',
  });
  expect(sent.status).toBe(201);
  return sent.body.id as number;
}

const approve = async (id: number) =>
  expect((await admin('PUT', `/api/media/${id}/status`, { status: 'approved' })).status).toBe(200);

async function montageReady(expectedClips: number) {
  await expect
    .poll(async () => (await admin('GET', '/api/admin/montage')).body.state, { timeout: 180_000, interval: 250 })
    .toBe('ready');
  const { body } = await admin('GET', '/api/admin/montage');
  expect(body).toMatchObject({ state: 'ready', progress: 1, clips: expectedClips });
  return body as { duration: number };
}

async function download(token: string, name: string): Promise<string> {
  const res = await fetch(`${t.url}/api/montage.mp4`, { headers: { 'x-session-token': token } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'montage-'));
  t = await startTestServer();
  admin = client(t.url, await t.login('admin'));
  guestToken = await t.login('guest');
  guest = client(t.url, guestToken);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the montage', () => {
  it('joins the approved videos in approval order: 1280×720 H.264/AAC, a card before each, loudness levelled', async () => {
    expect((await admin('GET', '/api/admin/montage')).body).toMatchObject({ state: 'none', clips: 0 });
    expect((await admin('POST', '/api/admin/montage')).status).toBe(409);
    expect((await guest('GET', '/api/montage.mp4')).status).toBe(404);

    const loud = await sendVideo(await clip('loud.mp4', '640x480', 3, -3), 'Loud Lou');
    const quiet = await sendVideo(await clip('quiet.mp4', '480x854', 4, -38), "Quinn O'Quiet: 100% \\ soft");
    const silent = await sendVideo(await clip('silent.mp4', '320x240', 2), 'Sil Ent');
    const unapproved = await sendVideo(await clip('pending.mp4', '320x240', 2, -20), 'Pen Ding');
    // approval order, not submission order: quiet (portrait) first
    for (const id of [quiet, loud, silent]) await approve(id);

    expect((await guest('POST', '/api/admin/montage')).status).toBe(403);
    expect((await guest('GET', '/api/admin/montage')).status).toBe(403);
    const started = await admin('POST', '/api/admin/montage');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'running', clips: 3 });
    // asked again while it runs: the same run
    expect((await admin('POST', '/api/admin/montage')).body).toMatchObject({ state: 'running', clips: 3 });

    const { duration } = await montageReady(3);
    const film = await download(guestToken, 'montage.mp4');
    const probed = await probeMedia(film);
    expect(probed).toMatchObject({ kind: 'video', videoCodec: 'h264', audioCodec: 'aac', width: 1280, height: 720 });
    const expected = 4 + 3 + 2 + 3 * 2;
    expect(Math.abs(probed.durationSeconds - expected)).toBeLessThan(0.5);
    expect(Math.abs(duration - expected)).toBeLessThan(0.5);

    // the portrait clip (405 px wide in 1280) comes first, then the 4:3 one (960 px), each after its card
    expect(await sideBar(film, 1)).toBe(0); // the card fills the frame
    expect(Math.abs((await sideBar(film, 4)) - (1280 - 405) / 2)).toBeLessThan(8);
    expect(Math.abs((await sideBar(film, 8.5)) - (1280 - 960) / 2)).toBeLessThan(8);

    // -3 dB and -38 dB tones both come out at -23 LUFS; the silent clip stays silent
    expect(Math.abs((await loudness(film, 2.2, 3.6)) - -23)).toBeLessThan(1.5);
    expect(Math.abs((await loudness(film, 8.2, 2.6)) - -23)).toBeLessThan(1.5);
    expect(Math.abs((await loudness(film, 0, expected)) - -23)).toBeLessThan(1.5);

    const part = await fetch(`${t.url}/api/montage.mp4`, {
      headers: { 'x-session-token': guestToken, range: 'bytes=0-99' },
    });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);

    // ready and fresh: asking again makes nothing new
    expect((await admin('POST', '/api/admin/montage')).body).toMatchObject({ state: 'ready', clips: 3 });

    // a new approval makes it stale, and a stale film is not served
    await approve(unapproved);
    expect((await admin('GET', '/api/admin/montage')).body.state).toBe('stale');
    expect((await guest('GET', '/api/montage.mp4')).status).toBe(404);
    expect((await admin('POST', '/api/admin/montage')).status).toBe(202);
    await montageReady(4);
    const again = await probeMedia(await download(guestToken, 'again.mp4'));
    expect(Math.abs(again.durationSeconds - (expected + 2 + 2))).toBeLessThan(0.5);

    // the sender withdrawing a video (issue 24) makes it stale, and the film is no longer served
    expect((await guest('DELETE', `/api/mine/media/${loud}`)).status).toBe(200);
    expect((await admin('GET', '/api/admin/montage')).body.state).toBe('stale');
    expect((await guest('GET', '/api/montage.mp4')).status).toBe(404);

    // a deleted video makes it stale too
    expect((await admin('DELETE', `/api/media/${silent}`, undefined, { 'admin-key': ADMIN_KEY })).status).toBe(200);
    expect((await admin('GET', '/api/admin/montage')).body.state).toBe('stale');
  }, 400_000);
});
