import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '#api/config.ts';
import { writeKeepsakeBook } from '#api/keepsake/book.ts';
import { writeKeepsake } from '#api/keepsake/keepsake.ts';
import { createBlobStore } from '#api/storage/index.ts';
import { systemClock } from '#api/time.ts';
import { argValue, runCommand, UsageError, withStore } from './cli.ts';

const usage = `usage: npm run keepsake -- --out FILE.zip (or FILE.pdf)

  Writes the keepsake (CONTRACT §10), the same file as GET /api/admin/keepsake: the gallery's
  approved items as a page that opens from disk, its log and a page that verifies it. Run it with
  the app's settings (DATABASE_URL or DATA_DIR, the blob store), beside a running server or not.
  A name ending in .pdf writes the printable book instead (GET /api/admin/keepsake.pdf).`;

await runCommand(usage, async (args) => {
  const out = argValue(args, '--out');
  if (!out) throw new UsageError('say --out FILE.zip');
  const config = loadConfig();
  const blobs = await createBlobStore({ blobDir: config.blobDir, minio: config.minio });
  const target = path.resolve(out);
  // written beside, then renamed: a failed run leaves no half keepsake under the name asked for
  const partial = `${target}.partial`;
  const bytes = await withStore(async (store) => {
    const file = fs.createWriteStream(partial);
    try {
      const deps = { pool: store.pool, blobs, name: config.tribute.name, clock: systemClock };
      if (target.endsWith('.pdf')) {
        await writeKeepsakeBook(deps, file);
        return file.bytesWritten;
      }
      return await writeKeepsake(deps, file);
    } catch (error) {
      file.destroy();
      fs.rmSync(partial, { force: true });
      throw error;
    }
  });
  fs.renameSync(partial, target);
  console.log(`wrote ${target} (${bytes} bytes)`);
  return 0;
});
