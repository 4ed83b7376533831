import { hash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_EXPIRY_SECONDS } from '../jobs/jobQueue.ts';
import { UPLOAD_QUOTA } from './uploadQuota.ts';
import { DEFAULT_POSTER_TIMEOUT_MS, DEFAULT_TRANSCODE_TIMEOUT_MS, runTool } from '../video/index.ts';
import { makeTestMedia, removeTestMedia, type TestMediaName } from '../../tests/support/media.ts';
import { client, PASSWORDS, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

const SECRET_TITLE = 'Secret party title';
const LOCATION = '+48.8577+002.2950/';
let t: TestServer;
let dir: string;
let media: Record<TestMediaName, string>;
let tagged: { mp4: string; mp3: string; ffv1: string };
let admin: ReturnType<typeof client>;

const ffmpeg = (args: string[], out: string) =>
  runTool({ tool: 'ffmpeg', args: ['-nostdin', '-v', 'error', '-y', ...args, `file:${out}`], timeoutMs: 60_000 });

beforeAll(async () => {
  t = await startTestServer();
  admin = client(t.url, await t.login('admin'));
  media = await makeTestMedia();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-tagged-'));
  const tags = ['-metadata', `title=${SECRET_TITLE}`, '-metadata', `location=${LOCATION}`];
  tagged = { mp4: path.join(dir, 'phone.mp4'), mp3: path.join(dir, 'song.mp3'), ffv1: path.join(dir, 'ffv1.avi') };
  // what a phone writes: the title and where it was recorded, in a file browsers play as it is
  await ffmpeg(['-i', `file:${media.mp4}`, '-c', 'copy', ...tags, '-f', 'mp4'], tagged.mp4);
  await ffmpeg(['-i', `file:${media.mp3}`, '-c', 'copy', ...tags, '-id3v2_version', '3', '-f', 'mp3'], tagged.mp3);
  const pattern = ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=1'];
  await ffmpeg([...pattern, '-c:v', 'ffv1', '-f', 'avi'], tagged.ffv1);
});
afterAll(async () => {
  await removeTestMedia();
  fs.rmSync(dir, { recursive: true, force: true });
  await t.close();
});

async function upload(token: string, file: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)], { type }), path.basename(file));
  const res = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': token },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get('retry-after') };
}

async function submit(token: string, file: string, type: string) {
  const up = await upload(token, file, type);
  expect(up.status).toBe(201);
  const created = await client(t.url, token)('POST', '/api/media', {
    title: 'Clip',
    artistName: 'Sam Painter',
    email: 'sam@example.com',
    mediaType: type.startsWith('video') ? 'video' : 'audio',
    mediaData: up.body.path,
    mimeType: type,
  });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

async function servedBytes(token: string, id: number): Promise<Buffer> {
  await admin('PUT', `/api/media/${id}/status`, { status: 'approved' });
  await waitFor(async () => (await client(t.url, token)('GET', `/api/media/${id}`)).body.processing === false);
  const res = await fetch(`${t.url}/api/media/${id}/stream`, { headers: { 'x-session-token': token } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('served media carries no metadata from the upload', () => {
  it.each([
    ['mp4', 'video/mp4'],
    ['mp3', 'audio/mpeg'],
  ] as const)('strips the title and location of a browser-playable %s', async (name, type) => {
    const original = fs.readFileSync(tagged[name]);
    expect(original.includes(SECRET_TITLE)).toBe(true);
    const token = await t.login('guest');
    const served = await servedBytes(token, await submit(token, tagged[name], type));
    expect(served.includes(SECRET_TITLE)).toBe(false);
    expect(served.includes('48.8577')).toBe(false);
    // and it still plays: ffprobe reads its streams
    const copy = path.join(dir, `served.${name}`);
    fs.writeFileSync(copy, served);
    const { stdout } = await runTool({
      tool: 'ffprobe',
      args: ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', `file:${copy}`],
      timeoutMs: 30_000,
    });
    const probed = JSON.parse(stdout) as { streams: unknown[]; format: { tags?: Record<string, string> } };
    expect(probed.streams.length).toBeGreaterThan(0);
    expect(Object.keys(probed.format.tags ?? {})).not.toContain('title');
    expect(Object.keys(probed.format.tags ?? {})).not.toContain('location');
  });

  it('refuses a file whose codec the app does not decode (FFV1), before decoding it', async () => {
    const res = await upload(await t.login('guest'), tagged.ffv1, 'video/x-msvideo');
    expect(res.status).toBe(415);
  });
});

describe('jobs', () => {
  it('lets a media job run longer than its longest transcode before pg-boss retries it', async () => {
    const { rows } = await t.db.pool.query<{ expire_seconds: number }>(
      `SELECT expire_seconds FROM pgboss.queue WHERE name = 'process-media'`,
    );
    const longest = DEFAULT_TRANSCODE_TIMEOUT_MS + DEFAULT_POSTER_TIMEOUT_MS;
    expect(rows[0]!.expire_seconds * 1000).toBeGreaterThan(longest * 1.5);
    expect(rows[0]!.expire_seconds).toBe(JOB_EXPIRY_SECONDS['process-media']);
  });

  it('queues processing only for the uploader of that media or an admin', async () => {
    const owner = await t.login('guest');
    const id = await submit(owner, media.mp3, 'audio/mpeg');
    const stranger = client(t.url, await t.login('guest'));
    expect((await stranger('POST', '/api/process', { id })).status).toBe(404);
    expect((await stranger('POST', '/api/process', { id: 999_999 })).status).toBe(404);
    expect((await client(t.url, owner)('POST', '/api/process', { id })).status).toBe(200);
    expect((await admin('POST', '/api/process', { id })).status).toBe(200);
  });

  it('lets a submission claim only its own visitor’s upload', async () => {
    const up = await upload(await t.login('guest'), media.mp3, 'audio/mpeg');
    const other = client(t.url, await t.login('guest'));
    const claimed = await other('POST', '/api/media', {
      artistName: 'Eve Other',
      email: 'eve@example.com',
      mediaType: 'audio',
      mediaData: up.body.path,
      mimeType: 'audio/mpeg',
    });
    expect(claimed.status).toBe(400);
  });
});

describe('upload quotas per visitor and day', () => {
  it('answers the 21st upload of a day with 429 and Retry-After', async () => {
    const token = await t.login('guest');
    for (let i = 0; i < UPLOAD_QUOTA.files; i++) {
      expect((await upload(token, media.mp3, 'audio/mpeg')).status).toBe(201);
    }
    const refused = await upload(token, media.mp3, 'audio/mpeg');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  });

  it('counts bytes: a visitor with 2 GiB uploaded today gets 429', async () => {
    const token = await t.login('guest');
    const { rows } = await t.db.pool.query<{ visitorId: string }>(
      `SELECT visitor_id AS "visitorId" FROM sessions WHERE token_hash = $1`,
      [hash('sha256', token, 'hex')],
    );
    const { visitorId } = rows[0]!;
    await t.db.pool.query(
      `INSERT INTO media_uploads (id, key, media_type, mime_type, bytes, duration_seconds, browser_playable, uploaded_by)
       VALUES (gen_random_uuid(), 'uploads/big', 'video', 'video/mp4', $2, 3, true, $1)`,
      [visitorId, UPLOAD_QUOTA.bytes],
    );
    expect((await upload(token, media.mp3, 'audio/mpeg')).status).toBe(429);
  });
});

describe('likes', () => {
  it('stay one per browser across a new login from it', async () => {
    const guest = client(t.url, await t.login('guest'));
    const storyId = (await guest('POST', '/api/stories', { content: 'Hi', authorName: 'Kim', isAnonymous: true })).body
      .id;
    await admin('PATCH', `/api/admin/stories/${storyId}`, { status: 'approved' });
    const login = async (cookie: string) => {
      const res = await fetch(`${t.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ password: PASSWORDS.guest }),
      });
      return res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .join('; ');
    };
    const browser = async (cookies: string) => (method: string, url: string) =>
      fetch(`${t.url}${url}`, { method, headers: { cookie: cookies } }).then(async (r) => (await r.json()) as any);
    const first = await login('');
    expect((await (await browser(first))('POST', `/api/stories/${storyId}/likes`)).likeCount).toBe(1);
    const visitor = first.split('; ').find((c) => c.startsWith('tg_visitor='))!;
    const again = await login(first);
    const next = await browser(`${again}; ${visitor}`);
    expect((await next('GET', `/api/stories/${storyId}/likes/check`)).hasLiked).toBe(true);
    expect((await next('POST', `/api/stories/${storyId}/likes`)).likeCount).toBe(1);
  });
});
