import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Upload as TusUpload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, removeTestMedia, type TestMediaName } from '../../tests/support/media.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

/** CONTRACT §12: an upload broken off half-way continues where it stopped (tus 1.0, decision 106). */
const MAX_BYTES = 2 * 1024 * 1024;
let files: Record<TestMediaName, string>;
let t: TestServer;
let token: string;
beforeAll(async () => {
  files = await makeTestMedia();
  t = await startTestServer({ MEDIA_MAX_BYTES: String(MAX_BYTES) });
  token = await t.login('guest');
});
afterAll(async () => {
  await t?.close();
  await removeTestMedia();
});

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function tus(method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) {
  const res = await fetch(`${t.url}${url}`, {
    method,
    headers: { 'x-session-token': token, ...TUS, ...headers },
    body: body ? new Uint8Array(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as any };
}

async function create(length: number, type = 'video/mp4', as = token) {
  const res = await tus('POST', '/api/uploads', {
    'x-session-token': as,
    'upload-length': String(length),
    'upload-metadata': `filename ${b64('clip.mp4')},filetype ${b64(type)}`,
  });
  return { ...res, location: res.headers.get('location') };
}

const offsetOf = async (url: string) => Number((await tus('HEAD', url)).headers.get('upload-offset'));
const patch = (url: string, offset: number, bytes: Buffer, headers: Record<string, string> = {}) =>
  tus(
    'PATCH',
    url,
    { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers },
    bytes,
  );

const uploadsKept = async () =>
  (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM media_uploads`)).rows[0]!.n;
const blobsKept = () => {
  const dir = path.join(t.dataDir, 'blobs', 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
};
const tusFiles = () => fs.readdirSync(path.join(t.dataDir, 'tmp', 'tus'));

/**
 * A PATCH that sends `sent` bytes of a body declared `bytes.length - offset` long, waits until the
 * server holds them, then cuts the connection: what a phone leaving the Wi-Fi does.
 */
async function patchThenCut(url: string, offset: number, bytes: Buffer, sent: number) {
  const { port } = new URL(t.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `PATCH ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-session-token: ${token}\r\nTus-Resumable: 1.0.0\r\n` +
      `Upload-Offset: ${offset}\r\nContent-Type: application/offset+octet-stream\r\n` +
      `Content-Length: ${bytes.length - offset}\r\n\r\n`,
  );
  socket.write(bytes.subarray(offset, offset + sent));
  await waitFor(async () => (await offsetOf(url)) === offset + sent);
  socket.destroy();
}

describe('resumable uploads (tus)', () => {
  it('continues a broken upload where it stopped, to a byte-identical file, and only then stores it', async () => {
    const bytes = fs.readFileSync(files.mp4);
    const uploadsBefore = await uploadsKept();
    const created = await create(bytes.length);
    expect(created.status).toBe(201);
    expect(created.location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    const url = created.location!;

    const half = Math.floor(bytes.length / 2);
    await patchThenCut(url, 0, bytes, half);
    // the cut upload is in the tus folder only: nothing of it is an upload the catalog could claim
    await waitFor(async () => (await offsetOf(url)) === half);
    expect(await uploadsKept()).toBe(uploadsBefore);
    expect(blobsKept()).toBe(0);

    // resume as a client does: ask where it stands, send the rest
    const offset = await offsetOf(url);
    expect(offset).toBe(half);
    const done = await patch(url, offset, bytes.subarray(offset));
    expect(done.status).toBe(200);
    expect(done.headers.get('upload-offset')).toBe(String(bytes.length));
    const body = done.json();
    expect(body).toMatchObject({ success: true, mediaType: 'video', mimeType: 'video/mp4' });

    const stored = fs.readFileSync(path.join(t.dataDir, 'blobs', body.supabasePath));
    expect(Buffer.compare(stored, bytes)).toBe(0);
    expect(await uploadsKept()).toBe(uploadsBefore + 1);
    // the finished upload is forgotten: its URL names nothing, and the tus folder is empty
    expect((await tus('HEAD', url)).status).toBe(404);
    expect(tusFiles()).toEqual([]);

    // and it enters the same pipeline as a plain upload
    const submitted = await client(t.url, token)('POST', '/api/media', {
      title: 'Resumed',
      description: 'Sent over a shaky line',
      artistName: 'Sam Painter',
      email: 'sam@example.com',
      mediaType: 'video',
      mediaData: body.path,
      mimeType: 'video/mp4',
      status: 'pending',
    });
    expect(submitted.status).toBe(201);
  });

  it('resumes with tus-js-client, the client the web app uses', async () => {
    const bytes = fs.readFileSync(files.m4a);
    const created = await create(bytes.length, 'audio/mp4');
    await patchThenCut(created.location!, 0, bytes, Math.floor(bytes.length / 3));
    const result = await new Promise<{ body: string }>((resolve, reject) => {
      const upload = new TusUpload(bytes, {
        endpoint: `${t.url}/api/uploads`,
        uploadUrl: `${t.url}${created.location}`,
        headers: { 'x-session-token': token },
        onProgress: () => {},
        onError: reject,
        onSuccess: ({ lastResponse }) => resolve({ body: lastResponse.getBody() }),
      });
      upload.start();
    });
    const body = JSON.parse(result.body);
    expect(body).toMatchObject({ success: true, mediaType: 'audio' });
    expect(Buffer.compare(fs.readFileSync(path.join(t.dataDir, 'blobs', body.supabasePath)), bytes)).toBe(0);
  });

  it('answers a wrong offset with 409 and keeps what it holds', async () => {
    const bytes = fs.readFileSync(files.mp4);
    const url = (await create(bytes.length)).location!;
    expect((await patch(url, 0, bytes.subarray(0, 1000))).status).toBe(204);
    const stale = await patch(url, 0, bytes.subarray(0, 1000));
    expect(stale.status).toBe(409);
    const ahead = await patch(url, 5000, bytes.subarray(5000, 6000));
    expect(ahead.status).toBe(409);
    expect(await offsetOf(url)).toBe(1000);
    expect((await tus('DELETE', url)).status).toBe(204);
  });

  it('refuses bytes that are not offset+octet-stream, and declared types that are not media, with 415', async () => {
    const bytes = fs.readFileSync(files.mp4);
    const url = (await create(bytes.length)).location!;
    const wrong = await patch(url, 0, bytes.subarray(0, 100), { 'content-type': 'application/octet-stream' });
    expect(wrong.status).toBe(415);
    expect(await offsetOf(url)).toBe(0);
    const text = await create(100, 'text/plain');
    expect(text.status).toBe(415);
    expect(text.json().message).toBe('Invalid file type');
    expect((await tus('DELETE', url)).status).toBe(204);
  });

  it('refuses a whole file that is not audio or video with 415, and keeps nothing of it', async () => {
    const bytes = fs.readFileSync(files.text);
    const before = await uploadsKept();
    const url = (await create(bytes.length)).location!;
    const done = await patch(url, 0, bytes);
    expect(done.status).toBe(415);
    expect(done.json().message).toBe('Invalid file type');
    expect(await uploadsKept()).toBe(before);
    expect(tusFiles()).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp')).filter((f) => f.startsWith('upload-'))).toEqual([]);
    expect((await tus('HEAD', url)).status).toBe(404);
  });

  it('refuses more than the limit with 413, declared or sent', async () => {
    const over = await create(MAX_BYTES + 1);
    expect(over.status).toBe(413);
    const url = (await create(100)).location!;
    const tooMuch = await patch(url, 0, Buffer.alloc(200));
    expect(tooMuch.status).toBe(413);
    expect(await offsetOf(url)).toBe(0);
    expect((await tus('DELETE', url)).status).toBe(204);
  });

  it("keeps each upload to its own visitor: another's HEAD, PATCH and DELETE are 404, and no session is 401", async () => {
    const bytes = fs.readFileSync(files.mp4);
    const url = (await create(bytes.length)).location!;
    const other = await t.login('guest');
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      const res = await tus(
        method,
        url,
        method === 'PATCH'
          ? { 'x-session-token': other, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }
          : { 'x-session-token': other },
        method === 'PATCH' ? bytes.subarray(0, 10) : undefined,
      );
      expect(res.status, method).toBe(404);
    }
    const anonymous = await fetch(`${t.url}${url}`, { method: 'HEAD', headers: TUS });
    expect(anonymous.status).toBe(401);
    expect(await offsetOf(url)).toBe(0);
    expect((await tus('HEAD', '/api/uploads/..')).status).toBe(404);
    expect((await tus('DELETE', url)).status).toBe(204);
    expect((await tus('HEAD', url)).status).toBe(404);
  });
});
