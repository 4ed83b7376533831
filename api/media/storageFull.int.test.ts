import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, removeTestMedia } from '../../tests/support/media.ts';
import { startS3 } from '../../tests/support/s3.ts';
import { client, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { PER_ADDRESS } from '../limits/limits.ts';
import { createBlobStore } from '../storage/index.ts';

/** CONTRACT §9: uploads stop with 507 before the disk or the bucket is full, and per address group. */
let mp4: string;
let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  mp4 = (await makeTestMedia()).mp4;
  s3 = await startS3();
});
afterAll(async () => {
  await s3.stop();
  await removeTestMedia();
});

async function upload(t: TestServer, token: string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(mp4)], { type: 'video/mp4' }), 'clip.mp4');
  const res = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': token, ...headers },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get('retry-after') };
}

const uploadsKept = async (t: TestServer) =>
  (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM media_uploads`)).rows[0]!.n;
/** Every file under DATA_DIR/tmp, resumable uploads' directory (tmp/tus, made at the start) included. */
const tmpFiles = (t: TestServer) =>
  fs
    .readdirSync(path.join(t.dataDir, 'tmp'), { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.join(entry.parentPath, entry.name));

for (const [storage, env] of [
  ['local files', () => ({})],
  ['MinIO via s3rver', () => s3.env],
] as const) {
  describe(`storage full (${storage})`, () => {
    let t: TestServer;
    let stored: () => Promise<number>;
    beforeAll(async () => {
      // room for the clip once, not twice
      const cap = Math.floor(fs.statSync(mp4).size * 1.5);
      t = await startTestServer({ ...env(), STORAGE_MAX_BYTES: String(cap) });
      const blobs = await createBlobStore({
        blobDir: path.join(t.dataDir, 'blobs'),
        minio:
          storage === 'local files'
            ? undefined
            : {
                endPoint: '127.0.0.1',
                port: Number(s3.env.MINIO_PORT),
                useSSL: false,
                accessKey: s3.env.MINIO_ACCESS_KEY,
                secretKey: s3.env.MINIO_SECRET_KEY,
                bucket: s3.env.MINIO_BUCKET,
              },
      });
      stored = () => blobs.bytesStored();
    });
    afterAll(() => t.close());

    it('takes uploads up to STORAGE_MAX_BYTES, then answers 507 Storage is full and keeps nothing of the next', async () => {
      const token = await t.login('guest');
      expect((await upload(t, token)).status).toBe(201);
      const before = { kept: await uploadsKept(t), stored: await stored() };
      expect(before.stored).toBeGreaterThanOrEqual(fs.statSync(mp4).size);

      const full = await upload(t, await t.login('guest'));
      expect(full).toMatchObject({ status: 507, body: { message: 'Storage is full' } });
      expect(await uploadsKept(t)).toBe(before.kept);
      expect(await stored()).toBe(before.stored);
      expect(tmpFiles(t)).toEqual([]);
    });
  });
}

describe('the disk', () => {
  let t: TestServer;
  beforeAll(async () => {
    // a reserve larger than any disk: the server must see the disk as full, with its real free space
    t = await startTestServer({ STORAGE_RESERVE_BYTES: String(2 ** 50) });
  });
  afterAll(() => t.close());

  it('answers 507 before reading an upload when the free space is within the reserve', async () => {
    const full = await upload(t, await t.login('guest'));
    expect(full).toMatchObject({ status: 507, body: { message: 'Storage is full' } });
    expect(await uploadsKept(t)).toBe(0);
    expect(fs.readdirSync(path.join(t.dataDir, 'blobs'), { recursive: true })).toEqual([]);
    expect(tmpFiles(t)).toEqual([]);
  });
});

describe('a drawing or photo', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ STORAGE_MAX_BYTES: '20000' });
  });
  afterAll(() => t.close());

  it('is 507 Storage is full when its image does not fit under STORAGE_MAX_BYTES, and nothing is kept', async () => {
    // noise does not compress: a JPEG of some 50 kB, more than the store may hold
    const noisy = await sharp({
      create: {
        width: 300,
        height: 300,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(20_000);
    const guest = client(t.url, await t.login('guest'));
    const full = await guest('POST', '/api/artworks', {
      title: 'Noise',
      artistName: 'Sam Painter',
      email: 'sam@example.com',
      imageData: `data:image/jpeg;base64,${noisy.toString('base64')}`,
      isFromCanvas: 'false',
    });
    expect(full).toMatchObject({ status: 507, body: { message: 'Storage is full' } });
    expect((await t.db.pool.query(`SELECT 1 FROM events WHERE type = 'ArtworkSubmitted'`)).rows).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'blobs'), { recursive: true })).toEqual([]);
  });
});

describe('upload bytes per address group', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  const newVisitor = async (address: string) => {
    const res = await fetch(`${t.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ password: PASSWORDS.guest }),
    });
    return ((await res.json()) as { sessionToken: string }).sessionToken;
  };

  it('counts what an address uploaded, and a fresh visitor there gets 429 once the office used its day', async () => {
    const next = '198.51.100.2';
    expect((await upload(t, await newVisitor(next), { 'x-forwarded-for': next })).status).toBe(201);
    const { rows } = await t.db.pool.query<{ hits: number }>(`SELECT hits FROM rate_limits WHERE key = $1`, [
      `upload-mib:addr:${next}`,
    ]);
    expect(rows[0]!.hits).toBe(Math.ceil(fs.statSync(mp4).size / 2 ** 20));

    const office = '198.51.100.1';
    // the office's colleagues have sent their 18.75 GiB today
    await t.db.pool.query(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, $2, now() + interval '20 hours')`,
      [`upload-mib:addr:${office}`, PER_ADDRESS.uploadMiB.limit],
    );
    const refused = await upload(t, await newVisitor(office), { 'x-forwarded-for': office });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(19 * 3600);
    expect(await uploadsKept(t)).toBe(1);
    expect((await upload(t, await newVisitor(next), { 'x-forwarded-for': next })).status).toBe(201);
  });
});
