import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMinioBlobStore, type MinioConfig } from './minioBlobStore.ts';

/**
 * The app's object-store key needs its own bucket and nothing else (decision 117): a bucket-scoped
 * account (Versity's `userplus`, or `user` owning the bucket) is enough. s3rver has no accounts and
 * no IAM, so what is checked here is what the app asks of the store, through a proxy that records
 * every request: object calls in its one bucket, never the list of all buckets, another bucket, or a
 * bucket's policy or ACL; and a bucket is made only when missing. That Versity refuses the same key
 * anything else is its own (documented) behaviour, not run here.
 */
const BUCKET = 'tribute-scoped';
let dir: string;
let server: S3rver;
let proxy: http.Server;
let config: MinioConfig;
const seen: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port: s3Port } = await server.run();
  proxy = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    const forward = http.request(
      { host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  config = { endPoint: '127.0.0.1', port, useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: BUCKET };
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The bucket-level part of a request: its path's first segment and its sub-resource, if any. */
function scope({ url }: { url: string }) {
  const { pathname, searchParams } = new URL(url, 'http://store');
  const [bucket = '', ...key] = pathname.slice(1).split('/');
  return { bucket, object: key.join('/'), query: [...searchParams.keys()].sort() };
}

describe('what the app asks of the object store', () => {
  it('works in its one bucket with object calls only, and makes the bucket only when it is missing', async () => {
    const first = await createMinioBlobStore(config, { partSize: 5 * 1024 * 1024 });
    const made = seen.filter((r) => r.method === 'PUT' && scope(r).object === '' && scope(r).query.length === 0);
    expect(made.map(scope).map((s) => s.bucket)).toEqual([BUCKET]);

    seen.length = 0;
    const store = await createMinioBlobStore(config, { partSize: 5 * 1024 * 1024 });
    await store.put('artworks/1/original.png', Buffer.from('png'), { contentType: 'image/png' });
    // a stream over one part: a multipart upload
    const big = Buffer.alloc(11 * 1024 * 1024, 7);
    await store.put('media/2/original.mp4', Readable.from([big.subarray(0, 6e6), big.subarray(6e6)]), {
      contentType: 'video/mp4',
    });
    expect((await store.stat('media/2/original.mp4'))?.size).toBe(big.length);
    expect((await buffer(await store.read('artworks/1/original.png'))).toString()).toBe('png');
    expect((await buffer(await store.read('media/2/original.mp4', { start: 0, end: 9 }))).length).toBe(10);
    const keys: string[] = [];
    for await (const key of store.keys()) keys.push(key);
    expect(keys.sort()).toEqual(['artworks/1/original.png', 'media/2/original.mp4']);
    expect(await store.bytesStored()).toBe(big.length + 3);
    await store.delete('artworks/1/original.png');
    await store.deletePrefix('media/2/');
    expect(first).toBeDefined();

    expect(seen.length).toBeGreaterThan(8);
    for (const request of seen) {
      const { bucket, object, query } = scope(request);
      // never the list of every bucket, never another bucket
      expect(bucket, `${request.method} ${request.url}`).toBe(BUCKET);
      // no bucket made again, no policy, ACL or other bucket setting read or written
      if (object === '') {
        expect(['GET', 'HEAD', 'POST'], `${request.method} ${request.url}`).toContain(request.method);
        for (const q of query)
          expect([
            'list-type',
            'prefix',
            'continuation-token',
            'delimiter',
            'location',
            'delete',
            'encoding-type',
            'max-keys',
            'start-after',
          ]).toContain(q);
      } else {
        for (const q of query) expect(['uploads', 'uploadId', 'partNumber']).toContain(q);
      }
    }
  });
});
