import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegDataUrl } from '../../tests/support/images.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import type { Deps } from '../deps.ts';
import { jobHandlers } from './handlers.ts';

/**
 * A person erased while their drawing's renditions job runs (decision 146): the job read the original
 * before the erasure and stores what it made after the erasure removed the item's files. Nothing it
 * made may stay, and nothing may be written to the erased stream. The server here only serves (no
 * worker), so the job runs when the test calls it.
 */
let t: TestServer;
let admin: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer({}, 'api');
  admin = client(t.url, await t.login('admin'));
});
afterAll(async () => {
  await t.close();
});

/** The files the blob store (local, under DATA_DIR) keeps in an artwork's folder. */
const filesOf = (artworkId: number) => {
  const dir = path.join(t.dataDir, 'blobs', 'artworks', String(artworkId));
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
};

const eventsOf = async (stream: string) =>
  (
    await t.db.pool.query<{ type: string }>(`SELECT type FROM events WHERE stream_id = $1 ORDER BY position`, [stream])
  ).rows.map((r) => r.type);

async function submitted(email: string, sender?: ReturnType<typeof client>) {
  const person = sender ?? client(t.url, await t.login('guest'));
  const res = await person('POST', '/api/artworks', {
    title: 'Lanterns for Ottoline',
    artistName: 'Ottoline Fairweather',
    email,
    imageData: await jpegDataUrl(64, 48, '#2255aa'),
    isFromCanvas: 'false',
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe('a renditions job when its artwork is erased', () => {
  it('that erasure lands while the job works: nothing the job made stays, and nothing is appended', async () => {
    const email = 'ottoline@example.com';
    const id = await submitted(email);
    expect(filesOf(id).length).toBeGreaterThan(0); // the original
    // the erasure commits (and removes the item's files) just as the job stores its first rendition
    let erased = false;
    const deps: Deps = {
      ...t.server.deps,
      blobs: Object.assign(Object.create(t.server.deps.blobs) as Deps['blobs'], {
        put: async (...args: Parameters<Deps['blobs']['put']>) => {
          if (!erased) {
            erased = true;
            expect((await admin('POST', '/api/admin/erase', { email })).status).toBe(200);
            expect(filesOf(id)).toEqual([]);
          }
          return t.server.deps.blobs.put(...args);
        },
      }),
    };
    await jobHandlers(deps)['make-artwork-renditions']({ artworkId: id });
    expect(erased).toBe(true);
    expect(filesOf(id)).toEqual([]);
    expect(await eventsOf(`artwork-${id}`)).toEqual(['ArtworkSubmitted']);
  });

  it('after it: a job run later does nothing, and an admin cannot approve the erased drawing', async () => {
    const email = 'bartholomew@example.com';
    const id = await submitted(email);
    expect((await admin('POST', '/api/admin/erase', { email })).status).toBe(200);
    await jobHandlers(t.server.deps)['make-artwork-renditions']({ artworkId: id });
    expect(filesOf(id)).toEqual([]);
    const approve = await admin('PATCH', `/api/admin/artworks/${id}`, { status: 'approved' });
    expect(approve.status).toBe(404);
    expect(await eventsOf(`artwork-${id}`)).toEqual(['ArtworkSubmitted']);
  });
});

describe('a renditions job when its artwork is withdrawn', () => {
  it('the withdrawal takes the folder while the job stores, the attempt fails, and its retry leaves nothing', async () => {
    const person = client(t.url, await t.login('guest'));
    const id = await submitted('wilhelmina@example.com', person);
    // The first rendition is stored after the withdrawal removed the item's folder (the store makes the
    // folder again), and the second fails as a rename into a folder removed meanwhile does: the
    // attempt ends in an error, not in the 404 that would have cleaned up after it.
    let puts = 0;
    const deps: Deps = {
      ...t.server.deps,
      blobs: Object.assign(Object.create(t.server.deps.blobs) as Deps['blobs'], {
        put: async (...args: Parameters<Deps['blobs']['put']>) => {
          puts++;
          if (puts === 1) {
            expect((await person('DELETE', `/api/mine/artwork/${id}`)).status).toBe(200);
            expect(filesOf(id)).toEqual([]);
            return t.server.deps.blobs.put(...args);
          }
          throw Object.assign(new Error('ENOENT: no such file or directory, rename'), { code: 'ENOENT' });
        },
      }),
    };
    await expect(jobHandlers(deps)['make-artwork-renditions']({ artworkId: id })).rejects.toThrow('ENOENT');
    expect(filesOf(id)).toContain('display.webp');
    // the queue runs it again later: the item is gone, and so is what the failed attempt stored
    await jobHandlers(t.server.deps)['make-artwork-renditions']({ artworkId: id });
    expect(filesOf(id)).toEqual([]);
    expect(await eventsOf(`artwork-${id}`)).toEqual(['ArtworkSubmitted', 'ArtworkWithdrawn']);
  });
});
