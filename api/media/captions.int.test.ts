import fs from 'node:fs';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, removeTestMedia, type TestMediaName } from '../../tests/support/media.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';

const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHappy birthday, Alex!\n';
const AS_VTT = { 'content-type': 'text/vtt' };

let files: Record<TestMediaName, string>;
let t: TestServer;
let token: string;
let sender: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  files = await makeTestMedia();
  t = await startTestServer();
  token = await t.login('guest');
  sender = client(t.url, token);
  other = client(t.url, await t.login('guest'));
  admin = client(t.url, await t.login('admin'));
});
afterAll(async () => {
  await t?.close();
  await removeTestMedia();
});

async function submit(name: 'mp4' | 'mp3'): Promise<number> {
  const type = name === 'mp4' ? 'video/mp4' : 'audio/mpeg';
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(files[name])], { type }), `clip.${name}`);
  const up = await fetch(`${t.url}/api/upload-direct`, {
    method: 'POST',
    headers: { 'x-session-token': token },
    body: form,
  });
  const uploaded = (await up.json()) as { path: string };
  const created = await sender('POST', '/api/media', {
    title: `A ${name}`,
    artistName: 'Sam Painter',
    email: 'sam@example.com',
    mediaType: name === 'mp4' ? 'video' : 'audio',
    mediaData: uploaded.path,
    mimeType: type,
  });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

async function written() {
  const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events`);
  const blobs = fs.readdirSync(path.join(t.dataDir, 'blobs'), { recursive: true }).map(String);
  return { events: rows[0]!.n, captions: blobs.filter((f) => f.includes('captions-') && !f.includes('.meta')) };
}

describe('caption tracks (decision 123)', () => {
  it("are set by the video's sender while it waits, by an admin at any time, and served as text/vtt", async () => {
    const id = await submit('mp4');
    const set = await sender('PUT', `/api/media/${id}/captions`, VTT, AS_VTT);
    expect(set).toMatchObject({ status: 200, body: { captionsUrl: `/api/media/${id}/captions` } });
    expect((await written()).captions).toHaveLength(1);

    // approved: the sender's turn is over, an admin may still replace it
    expect((await admin('PUT', `/api/media/${id}/status`, { status: 'approved' })).status).toBe(200);
    const late = await sender('PUT', `/api/media/${id}/captions`, VTT, AS_VTT);
    expect(late.status).toBe(409);
    const served = await other('GET', `/api/media/${id}/captions`);
    expect(served).toMatchObject({ status: 200, body: VTT });
    expect(served.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect((await other('GET', `/api/media/${id}`)).body.captionsUrl).toBe(`/api/media/${id}/captions`);

    const fixed = VTT.replace('Alex', 'Alex!!');
    expect((await admin('PUT', `/api/media/${id}/captions`, `\uFEFF${fixed}`, AS_VTT)).status).toBe(200);
    // (fetch's text() drops the byte order mark the track began with)
    expect((await other('GET', `/api/media/${id}/captions`)).body).toBe(fixed);
    // the track it replaced is gone from the store
    expect((await written()).captions).toHaveLength(1);

    // another guest may not change it; an admin takes it off
    expect(await other('DELETE', `/api/media/${id}/captions`)).toMatchObject({
      status: 403,
      body: { message: 'Only its sender or an admin may change its captions' },
    });
    expect((await admin('DELETE', `/api/media/${id}/captions`)).body.captionsUrl).toBeNull();
    expect(await other('GET', `/api/media/${id}/captions`)).toMatchObject({
      status: 404,
      body: { message: 'Captions not found' },
    });
    expect((await written()).captions).toHaveLength(0);
  });

  it('refuses what is not a WebVTT track of a video, clearly, writing nothing', async () => {
    const video = await submit('mp4');
    // the poster job's own event is not one of these requests'
    await waitFor(async () => (await admin('GET', `/api/media/${video}`)).body.processing === false);
    const before = await written();
    const put = (id: number, body: string, type = 'text/vtt', who = sender) =>
      who('PUT', `/api/media/${id}/captions`, body, { 'content-type': type });
    expect(await put(video, VTT, 'text/plain')).toMatchObject({ status: 415, body: { message: 'Invalid file type' } });
    expect(await put(video, '1\n00:00:00,000 --> 00:00:01,000\nan SRT file\n')).toMatchObject({
      status: 415,
      body: { message: 'Invalid file type' },
    });
    expect(await put(video, 'WEBVTTX\n')).toMatchObject({ status: 415 });
    const latin1 = await fetch(`${t.url}/api/media/${video}/captions`, {
      method: 'PUT',
      headers: { 'x-session-token': token, ...AS_VTT },
      body: new Uint8Array([...Buffer.from('WEBVTT\n\nCaf'), 0xe9, 0x0a]),
    });
    expect({ status: latin1.status, body: await latin1.json() }).toMatchObject({
      status: 400,
      body: { message: 'Captions must be UTF-8 text' },
    });
    expect(await put(video, `WEBVTT\n\n${'x'.repeat(300 * 1024)}`)).toMatchObject({
      status: 413,
      body: { message: 'File too large' },
    });
    expect(await put(video, VTT, 'text/vtt', other)).toMatchObject({
      status: 404,
      body: { message: 'Media not found' },
    });
    expect(await put(999_999, VTT, 'text/vtt', admin)).toMatchObject({
      status: 404,
      body: { message: 'Media not found' },
    });
    expect(await written()).toEqual(before);
  });
  it("are an audio message's transcript by the same rules (decision 130)", async () => {
    const id = await submit('mp3');
    await waitFor(async () => (await admin('GET', `/api/media/${id}`)).body.processing === false);
    const set = await sender('PUT', `/api/media/${id}/captions`, VTT, AS_VTT);
    expect(set).toMatchObject({ status: 200, body: { mediaType: 'audio', captionsUrl: `/api/media/${id}/captions` } });
    expect(await admin('GET', `/api/media/${id}/captions`)).toMatchObject({ status: 200, body: VTT });

    // what is not a WebVTT track is refused for audio as for video, writing nothing
    const before = await written();
    expect(await sender('PUT', `/api/media/${id}/captions`, 'just words\n', AS_VTT)).toMatchObject({
      status: 415,
      body: { message: 'Invalid file type' },
    });
    expect(await other('PUT', `/api/media/${id}/captions`, VTT, AS_VTT)).toMatchObject({
      status: 404,
      body: { message: 'Media not found' },
    });
    expect(await written()).toEqual(before);

    // once decided, only an admin changes it
    expect((await admin('PUT', `/api/media/${id}/status`, { status: 'approved' })).status).toBe(200);
    expect((await sender('DELETE', `/api/media/${id}/captions`)).status).toBe(409);
    expect(await other('PUT', `/api/media/${id}/captions`, VTT, AS_VTT)).toMatchObject({ status: 403 });
    expect((await admin('DELETE', `/api/media/${id}/captions`)).body.captionsUrl).toBeNull();
    expect(await other('GET', `/api/media/${id}/captions`)).toMatchObject({ status: 404 });
  });

  it("keep a track's cues alone, times and words: a note, style or region its tool left reaches no one (decision 142)", async () => {
    const id = await submit('mp4');
    const sent = [
      'WEBVTT - exported by CaptionTool for sam@example.com',
      '',
      'STYLE',
      '::cue { color: lime } /* Sam Painter */',
      '',
      'REGION',
      'id:sam-lower-third',
      '',
      'NOTE draft for sam@example.com, call 555-0100',
      '',
      'intro',
      '00:00:00.000 --> 00:00:01.500 region:sam-lower-third line:0',
      'Happy birthday, Alex!',
      '',
    ].join('\n');
    expect((await sender('PUT', `/api/media/${id}/captions`, sent, AS_VTT)).status).toBe(200);
    const stored = (await written()).captions.filter((f) => f.includes(`/${id}/`));
    expect(stored).toHaveLength(1);
    const file = path.join(t.dataDir, 'blobs', stored[0]!);
    expect(fs.readFileSync(file, 'utf8')).toBe(VTT);
    expect(await admin('GET', `/api/media/${id}/captions`)).toMatchObject({ status: 200, body: VTT });
    const { rows } = await t.db.pool.query<{ bytes: number }>(
      `SELECT (data->'captions'->>'bytes')::int AS bytes FROM events
        WHERE type = 'MediaCaptioned' AND (data->>'mediaId')::int = $1`,
      [id],
    );
    expect(rows).toEqual([{ bytes: Buffer.byteLength(VTT) }]);

    // a track stored as it was sent, before this decision, is served with its cues alone too
    fs.writeFileSync(file, sent);
    expect(await admin('GET', `/api/media/${id}/captions`)).toMatchObject({ status: 200, body: VTT });
  });
});

describe("a pending message's track (CONTRACT §4, §9)", () => {
  interface Heard {
    event: string;
    payload: {
      kind?: string;
      id?: number;
      position?: number;
      item?: { id?: number };
      upTo?: number;
      refetch?: boolean;
      messages?: Heard[];
    };
  }
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  /** A socket of `token`'s session, with everything it hears, once it has joined (its first batch). */
  async function listen(token: string, since?: number) {
    const socket = connect(t.url, {
      auth: since === undefined ? { token } : { token, since },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const heard: Heard[] = [];
    socket.onAny((event: string, payload: Heard['payload']) => heard.push({ event, payload }));
    await waitFor(async () => heard.some((h) => h.event === 'sync:batch'), 10_000);
    return heard;
  }

  it('changes reach the admins as a queue change, and guests hear nothing of that message', async () => {
    const id = await submit('mp4');
    const guest = await listen(await t.login('guest'));
    const admins = await listen(await t.login('admin'));
    const since = guest.find((h) => h.event === 'sync:batch')!.payload.upTo!;

    // its sender adds a track, an admin replaces it, its sender takes it off: all while it waits
    expect((await sender('PUT', `/api/media/${id}/captions`, VTT, AS_VTT)).status).toBe(200);
    expect((await admin('PUT', `/api/media/${id}/captions`, VTT.replace('Alex', 'Alex!'), AS_VTT)).status).toBe(200);
    expect((await sender('DELETE', `/api/media/${id}/captions`)).body.captionsUrl).toBeNull();
    // the three changes, as the chain has them
    const changes = await waitFor(async () => {
      const { rows } = await t.db.pool.query<{ seq: number }>(
        `SELECT c.seq FROM event_chain c JOIN events e ON e.position = c.position
         WHERE e.stream_id = $1 AND e.type = 'MediaCaptioned' ORDER BY c.seq`,
        [`media-${id}`],
      );
      return rows.length === 3 ? rows.map((r) => r.seq) : false;
    }, 30_000);
    // folded, so that what follows is a batch of its own (a batch's queue changes would be one)
    await waitFor(async () => {
      const { rows } = await t.db.pool.query<{ at: number }>(`SELECT catalog_position()::int AS at`);
      return rows[0]!.at >= changes.at(-1)!;
    }, 30_000);

    // then something every screen sees: a screen hears its messages in log order, so once it has
    // this, it has heard whatever came of the track's changes
    const story = await other('POST', '/api/stories', {
      content: 'A story after the tracks',
      authorName: 'Kim',
      email: 'kim@example.com',
    });
    expect((await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' })).status).toBe(200);
    const arrived = (heard: Heard[]) =>
      heard.some((h) => h.event === 'gallery:item-added' && h.payload.item?.id === story.body.id);
    await waitFor(async () => arrived(guest) && arrived(admins), 10_000);

    const aboutIt = (h: Heard) =>
      h.event === 'media:captions-changed' ||
      (h.payload?.kind === 'media' && (h.payload.id === id || h.payload.item?.id === id));
    expect(guest.filter(aboutIt)).toEqual([]);
    // the admins' queue moved, at the last change's position (a batch's queue changes are one)
    expect(admins.some((h) => h.event === 'admin:queue-changed' && h.payload.position === changes.at(-1))).toBe(true);
    // nor does a guest's catch-up from before the changes carry anything of them
    const batch = (await listen(await t.login('guest'), since)).find((h) => h.event === 'sync:batch')!;
    expect(batch.payload.refetch).toBe(false);
    const caughtUp = batch.payload.messages!;
    expect(arrived(caughtUp)).toBe(true);
    expect(caughtUp.filter(aboutIt)).toEqual([]);
    // an admin, who is in the everyone room too, was told of the queue only
    expect(admins.filter(aboutIt)).toEqual([]);
  });
});
