import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, removeTestMedia, type TestMediaName } from '../../tests/support/media.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { ADMIN_KEY, client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

let files: Record<TestMediaName, string>;
let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  files = await makeTestMedia();
  s3 = await startS3();
});
afterAll(async () => {
  await s3.stop();
  await removeTestMedia();
});

const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
};

async function upload(
  t: TestServer,
  token: string,
  file: string,
  type: string,
  field = 'file',
  extra: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append(field, new Blob([fs.readFileSync(file)], { type }), file.split('/').pop());
  const url = field === 'file' ? '/api/upload-direct' : '/api/media/submit-optimized';
  const res = await fetch(`${t.url}${url}`, { method: 'POST', headers: { 'x-session-token': token }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

for (const [storage, env] of [
  ['local files', () => ({})],
  ['MinIO via s3rver', () => s3.env],
] as const) {
  describe(`media (${storage})`, () => {
    let t: TestServer;
    let token: string;
    let guest: ReturnType<typeof client>;
    let admin: ReturnType<typeof client>;
    beforeAll(async () => {
      t = await startTestServer({ ...env(), MEDIA_MAX_BYTES: String(2 * 1024 * 1024) });
      token = await t.login('guest');
      guest = client(t.url, token);
      admin = client(t.url, await t.login('admin'));
    });
    afterAll(() => t.close());

    async function submit(name: 'mp4' | 'mov' | 'avi' | 'mp3' | 'wav' | 'm4a') {
      const up = await upload(t, token, files[name], TYPES[name]!);
      expect(up.status).toBe(201);
      const mediaType = TYPES[name]!.startsWith('video') ? 'video' : 'audio';
      const created = await guest('POST', '/api/media', {
        title: `Clip ${name}`,
        description: 'For Alex',
        artistName: 'Sam Painter',
        email: 'sam@example.com',
        mediaType,
        mediaData: up.body.path,
        mimeType: TYPES[name],
        status: 'pending',
      });
      expect(created.status).toBe(201);
      return created.body.id as number;
    }

    it.each(['mp4', 'mov', 'avi', 'mp3', 'wav', 'm4a'] as const)(
      'takes %s through upload, approval and streaming',
      async (name) => {
        const id = await submit(name);
        expect((await guest('GET', `/api/media/${id}`)).status).toBe(404);
        const approved = await admin('PUT', `/api/media/${id}/status`, { status: 'approved', adminNotes: 'ok' });
        expect(approved.body).toMatchObject({ status: 'approved', kind: 'media' });
        const item = await waitFor(async () => {
          const r = await guest('GET', `/api/media/${id}`);
          return r.body.processing === false && r.body;
        });
        if (name === 'mov' || name === 'avi') expect(item.mimeType).toBe('video/mp4');
        const whole = await fetch(`${t.url}/api/media/${id}/stream`, { headers: { 'x-session-token': token } });
        expect(whole.status).toBe(200);
        const size = Number(whole.headers.get('content-length'));
        expect((await whole.arrayBuffer()).byteLength).toBe(size);
        if (item.mediaType === 'video') {
          const poster = await fetch(`${t.url}/api/media/${id}/thumbnail?v=1`, {
            headers: { 'x-session-token': token },
          });
          expect(poster.headers.get('content-type')).toBe('image/jpeg');
        } else {
          expect((await guest('GET', `/api/media/${id}/thumbnail`)).status).toBe(404);
        }
      },
    );

    it('answers Range requests: 206, open-ended, suffix, and 416 past the end', async () => {
      const id = await submit('mp4');
      await admin('PUT', `/api/media/${id}/status`, { status: 'approved' });
      await waitFor(async () => (await guest('GET', `/api/media/${id}`)).body.processing === false);
      const get = (range: string) =>
        fetch(`${t.url}/api/media/${id}/stream`, { headers: { 'x-session-token': token, range } });
      // what is served is the upload without its metadata, made by the job
      const served = Buffer.from(await (await get('bytes=0-')).arrayBuffer());
      const size = served.length;
      const first = await get('bytes=0-99');
      expect(first.status).toBe(206);
      expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
      expect(Buffer.from(await first.arrayBuffer())).toEqual(served.subarray(0, 100));
      const open = await get(`bytes=${size - 10}-`);
      expect(open.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
      expect((await open.arrayBuffer()).byteLength).toBe(10);
      const suffix = await get('bytes=-20');
      expect(suffix.status).toBe(206);
      expect(Buffer.from(await suffix.arrayBuffer())).toEqual(served.subarray(size - 20));
      const past = await get(`bytes=${size}-`);
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    });

    it.each(['hls', 'concat', 'truncated', 'text'] as const)(
      'refuses a hostile %s file and keeps nothing',
      async (name) => {
        const before = await t.db.pool.query(`SELECT count(*)::int AS n FROM media_uploads`);
        const res = await upload(t, token, files[name], 'video/mp4');
        expect(res).toMatchObject({ status: 415, body: { message: 'Invalid file type' } });
        const after = await t.db.pool.query(`SELECT count(*)::int AS n FROM media_uploads`);
        expect(after.rows[0].n).toBe(before.rows[0].n);
      },
    );

    it('refuses a declared type that is not video or audio, and a file over the limit', async () => {
      expect(await upload(t, token, files.mp4, 'image/png')).toMatchObject({
        status: 415,
        body: { message: 'Invalid file type' },
      });
      const big = `${files.mp4}.big`;
      fs.writeFileSync(big, Buffer.alloc(3 * 1024 * 1024, 1));
      expect(await upload(t, token, big, 'video/mp4')).toMatchObject({
        status: 413,
        body: { message: 'File too large' },
      });
      fs.rmSync(big);
      expect(fs.readdirSync(`${t.dataDir}/tmp`).filter((f) => f.startsWith('upload-'))).toEqual([]);
    });

    it('leaves nothing behind when an upload breaks off midway', async () => {
      const { request } = await import('node:http');
      const before = (await t.db.pool.query(`SELECT count(*)::int AS n FROM media_uploads`)).rows[0].n;
      const boundary = 'xxBOUNDARYxx';
      const url = new URL(`${t.url}/api/upload-direct`);
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'x-session-token': token,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(10_000_000),
        },
      });
      req.on('error', () => {});
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
      );
      req.write(fs.readFileSync(files.mp4).subarray(0, 20_000));
      // the server has begun writing it (a fixed 300 ms was too short on a busy machine)
      const uploading = () => fs.readdirSync(`${t.dataDir}/tmp`).filter((f) => f.startsWith('upload-'));
      await waitFor(async () => uploading().length > 0, 30_000);
      expect(uploading()).toHaveLength(1);
      req.destroy();
      const deadline = Date.now() + 5000;
      while (fs.readdirSync(`${t.dataDir}/tmp`).some((f) => f.startsWith('upload-')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(fs.readdirSync(`${t.dataDir}/tmp`).filter((f) => f.startsWith('upload-'))).toEqual([]);
      expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM media_uploads`)).rows[0].n).toBe(before);
      expect((await client(t.url)('GET', '/api/gate')).status).toBe(200);
    });

    it('sweeps uploads nobody submitted within a day', async () => {
      const up = await upload(t, token, files.mp3, 'audio/mpeg');
      const kept = await upload(t, token, files.wav, 'audio/wav');
      await t.db.pool.query(
        `UPDATE media_uploads SET created_at = now() - interval '2 days' WHERE id = ANY($1::uuid[])`,
        [[up.body.id, kept.body.id]],
      );
      await guest('POST', '/api/media', {
        artistName: 'Sam Painter',
        email: 'sam@example.com',
        mediaType: 'audio',
        mediaData: kept.body.path,
        mimeType: 'audio/wav',
      });
      const { handleSweepUploads } = await import('../jobs/handlers.ts');
      await handleSweepUploads(t.server.deps);
      expect(await t.server.deps.blobs.stat(up.body.supabasePath)).toBeNull();
      expect(await t.server.deps.blobs.stat(kept.body.supabasePath)).not.toBeNull();
      const ids = (await t.db.pool.query(`SELECT id FROM media_uploads`)).rows.map((r) => r.id);
      expect(ids).not.toContain(up.body.id);
      expect(ids).toContain(kept.body.id);
    });

    it('validates the submission with the spec messages', async () => {
      const base = {
        artistName: 'Sam Painter',
        email: 'sam@example.com',
        mediaType: 'video',
        mimeType: 'video/mp4',
        mediaData: '/objects/uploads/x',
      };
      expect((await guest('POST', '/api/media', { ...base, mediaData: '' })).body.message).toBe(
        'Media file is required',
      );
      expect((await guest('POST', '/api/media', { ...base, mediaType: 'image' })).body.message).toBe(
        'Media type is required',
      );
      expect((await guest('POST', '/api/media', { ...base, mimeType: undefined })).body.message).toBe(
        'MIME type is required',
      );
      expect((await guest('POST', '/api/media', { ...base, artistName: 'S' })).body.message).toBe(
        'Artist name is required',
      );
      expect((await guest('POST', '/api/media', { ...base, email: 'x' })).body.message).toBe(
        'Please enter a valid email',
      );
      expect(await guest('POST', '/api/media', base)).toMatchObject({
        status: 400,
        body: { message: 'No file uploaded' },
      });
    });

    it('accepts the submit-optimized fallback, reprocesses idempotently, and deletes with the key', async () => {
      const res = await upload(t, token, files.mov, 'video/quicktime', 'media', {
        title: 'Fallback',
        description: '',
        artistName: 'Sam Painter',
        email: 'sam@example.com',
        mediaType: 'video',
      });
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect((await guest('POST', '/api/process', { id, path: '/x' })).body).toMatchObject({ success: true });
      await admin('PATCH', `/api/admin/media/${id}`, { status: 'approved' });
      const item = await waitFor(async () => {
        const r = await guest('GET', `/api/media/${id}`);
        return r.body.processing === false && r.body;
      });
      expect(item.title).toBe('Fallback');
      const stored = (
        await t.db.pool.query(`SELECT data FROM events WHERE type = 'MediaProcessed' AND data->>'mediaId' = $1`, [
          String(id),
        ])
      ).rows;
      expect(stored).toHaveLength(1);
      expect((await guest('DELETE', `/api/media/${id}`)).status).toBe(401);
      expect(
        (await guest('DELETE', `/api/media/${id}`, undefined, { authorization: `Bearer ${ADMIN_KEY}` })).status,
      ).toBe(200);
      expect((await admin('GET', `/api/media/${id}`)).status).toBe(404);
      const keys = await t.server.deps.blobs.stat(stored[0].data.playable.key);
      expect(keys).toBeNull();
    });

    it('needs a session and an admin for the status call', async () => {
      expect((await client(t.url)('POST', '/api/upload-direct')).status).toBe(401);
      expect((await guest('PUT', '/api/media/1/status', { status: 'approved' })).status).toBe(403);
      expect((await admin('PUT', '/api/media/999/status', { status: 'approved' })).status).toBe(404);
      expect((await admin('PUT', '/api/media/1/status', { status: 'maybe' })).status).toBe(400);
      expect((await guest('POST', '/api/upload-direct', { not: 'multipart' })).status).toBe(400);
    });
  });
}
