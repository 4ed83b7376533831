import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTestMedia } from '../../tests/support/media.ts';
import { seeder } from '../../tests/support/seedGallery.ts';
import { startTestServer, type TestServer } from '../../tests/support/server.ts';
import { appended, waitFor } from '../../tests/support/wait.ts';
import { LocalBlobStore } from '../storage/localBlobStore.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  await removeTestMedia();
});

/** This process's open file descriptors that point at the given file. */
function openHandlesOn(file: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

describe('a visitor who leaves in the middle of a media answer', () => {
  it.skipIf(!fs.existsSync('/proc/self/fd'))('leaves no file handle open behind it', async () => {
    const seed = await seeder(t);
    const id = await seed.media({ file: 'mp3', title: 'Long listen' });
    // the stream is served once the processing job has made its file (409 until then), and the job
    // reads the upload that is made large below
    await appended(t.db.pool, 'MediaProcessed', 1, `media-${id}`);
    const media = await seed.guest('GET', `/api/media/${id}`);
    const streamUrl = media.body.streamUrl as string;
    // make the stored file large, so an answer is still being sent when the visitor leaves
    const dir = path.join(t.dataDir, 'blobs', 'media');
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(dir, f))
      .filter((f) => fs.statSync(f).isFile() && !path.basename(f).startsWith('.'));
    for (const file of files) fs.writeFileSync(file, Buffer.alloc(32 * 1024 * 1024, 7));
    const token = await t.login('guest');

    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      const res = await fetch(`${t.url}${streamUrl}`, {
        headers: { 'x-session-token': token, range: 'bytes=0-' },
        signal: controller.signal,
      });
      expect(res.status).toBe(206);
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
    }
    await new Promise((r) => setTimeout(r, 500));
    const open = files.reduce((sum, file) => sum + openHandlesOn(fs.realpathSync(file)), 0);
    expect(open).toBe(0);
  });
});

describe('a visitor who leaves in the middle of a strokes download', () => {
  it.skipIf(!fs.existsSync('/proc/self/fd'))('leaves no file handle open behind it', async () => {
    const seed = await seeder(t);
    const id = await seed.artwork({ title: 'Drawn' });
    // a recording large enough that the answer is still being sent when the visitor leaves
    const blobs = new LocalBlobStore(path.join(t.dataDir, 'blobs'));
    await blobs.put(`artworks/${id}/strokes.json`, Buffer.alloc(32 * 1024 * 1024, 0x20), {
      contentType: 'application/json',
    });
    const file = fs.realpathSync(path.join(t.dataDir, 'blobs', 'artworks', String(id), 'strokes.json'));
    const token = await t.login('guest');
    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      const res = await fetch(`${t.url}/api/artworks/${id}/strokes`, {
        headers: { 'x-session-token': token },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      await res.body!.getReader().read();
      controller.abort();
    }
    // the streams are destroyed as the connections close: wait for that, not for a garbage collection
    await waitFor(async () => openHandlesOn(file) === 0, 5000).catch(() => undefined);
    expect(openHandlesOn(file)).toBe(0);
  });
});
