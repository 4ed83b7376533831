import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWebmMedia, removeTestMedia } from '../../tests/support/media.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { probeMedia } from '../video/index.ts';

/** Firefox records only WebM (issue 26): it is taken, and served as MP4 or M4A once transcoded. */
let webm: { video: string; audio: string };
let t: TestServer;
let token: string;
beforeAll(async () => {
  [webm, t] = await Promise.all([makeWebmMedia(), startTestServer()]);
  token = await t.login('guest');
});
afterAll(async () => {
  await t?.close();
  await removeTestMedia();
});

describe('WebM uploads', () => {
  it('are probed as WebM and left for the job to transcode', async () => {
    expect(await probeMedia(webm.video)).toMatchObject({
      kind: 'video',
      container: 'webm',
      mimeType: 'video/webm',
      videoCodec: 'vp8',
      audioCodec: 'opus',
      browserPlayable: false,
    });
    expect(await probeMedia(webm.audio)).toMatchObject({
      kind: 'audio',
      container: 'webm',
      mimeType: 'audio/webm',
      audioCodec: 'opus',
      browserPlayable: false,
    });
  });

  it.each([
    ['video', 'video/webm', 'video/mp4', 'h264'],
    ['audio', 'audio/webm', 'audio/mp4', 'aac'],
  ] as const)(
    'a %s WebM goes through upload, approval and streaming, served transcoded',
    async (kind, type, served, codec) => {
      const form = new FormData();
      form.append('file', new Blob([fs.readFileSync(webm[kind])], { type }), `message.webm`);
      const up = await fetch(`${t.url}/api/upload-direct`, {
        method: 'POST',
        headers: { 'x-session-token': token },
        body: form,
      });
      const uploaded = (await up.json()) as any;
      expect(up.status).toBe(201);
      expect(uploaded).toMatchObject({ mediaType: kind, mimeType: type });

      const guest = client(t.url, token);
      const admin = client(t.url, await t.login('admin'));
      const created = await guest('POST', '/api/media', {
        title: 'Recorded in Firefox',
        description: 'Happy birthday',
        artistName: 'Fox Recorder',
        email: 'fox@example.com',
        mediaType: kind,
        mediaData: uploaded.path,
        mimeType: type,
        status: 'pending',
      });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      await admin('PUT', `/api/media/${id}/status`, { status: 'approved' });
      const item = await waitFor(async () => {
        const r = await guest('GET', `/api/media/${id}`);
        return r.body.processing === false && r.body;
      });
      expect(item.mimeType).toBe(served);

      const stream = await fetch(`${t.url}/api/media/${id}/stream`, { headers: { 'x-session-token': token } });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe(served);
      const out = `${t.dataDir}/served-${kind}`;
      fs.writeFileSync(out, Buffer.from(await stream.arrayBuffer()));
      const probed = await probeMedia(out);
      expect(kind === 'video' ? probed.videoCodec : probed.audioCodec).toBe(codec);
      expect(probed.durationSeconds).toBeGreaterThan(2.5);
    },
  );
});
