import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startS3 } from '../support/s3.ts';
import { seeder } from '../support/seedGallery.ts';
import { client, startSecondProcess, startTestServer } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The blob half of backup and restore, as README and docs/runbook.md tell it: `npm run blobs --
 * backup DIR` with the app's settings copies the object store into a folder; `restore DIR` copies it
 * into an empty store; the program on the restored store serves the same bytes.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function blobs(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/blobs.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('npm run blobs: backup and restore of the object store', () => {
  it(
    'copies every blob out and into an empty store, which then serves the same images',
    { timeout: 180_000 },
    async () => {
      const original = await startS3();
      cleanup.push(() => original.stop());
      const t = await startTestServer(original.env);
      cleanup.push(() => t.close());
      const backup = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-blob-backup-'));
      cleanup.push(() => fs.rmSync(backup, { recursive: true, force: true }));

      const seed = await seeder(t);
      const ids = [await seed.artwork({ title: 'Kept', color: '#3d5a80' }), await seed.artwork({ title: 'Also kept' })];
      // every job done (the renditions are blobs too)
      await waitFor(async () => {
        const { rows } = await t.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`,
        );
        return rows[0]!.n === 0;
      }, 60_000);
      // each image as the program serves it from the original store
      const token = await t.login('guest');
      const images: { url: string; type: string | null; bytes: Buffer }[] = [];
      for (const id of ids) {
        const { body } = await client(t.url, token)('GET', `/api/artworks/${id}`);
        const res = await fetch(`${t.url}${body.imageData}`, { headers: { 'x-session-token': token } });
        expect(res.status).toBe(200);
        images.push({
          url: body.imageData,
          type: res.headers.get('content-type'),
          bytes: Buffer.from(await res.arrayBuffer()),
        });
      }

      const saved = await blobs(['backup', backup], original.env);
      expect(saved.code, saved.out).toBe(0);
      const count = Number(/backed up (\d+) blobs/.exec(saved.out)?.[1]);
      expect(count).toBeGreaterThanOrEqual(ids.length * 2);

      // a new, empty store: the restore fills it
      const restored = await startS3();
      cleanup.push(() => restored.stop());
      const put = await blobs(['restore', backup], restored.env);
      expect(put.code, put.out).toBe(0);
      expect(put.out).toContain(`restored ${count} blobs`);

      // the original store goes away; a process on the restored one answers every image with its bytes
      await original.stop();
      cleanup.shift();
      const second = await startSecondProcess(t, restored.env);
      cleanup.push(() => second.close());
      for (const image of images) {
        const res = await fetch(`${second.url}${image.url}`, { headers: { 'x-session-token': token } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(image.type);
        expect(Buffer.from(await res.arrayBuffer()).equals(image.bytes)).toBe(true);
      }
    },
  );
});
