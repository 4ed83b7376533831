import path from 'node:path';
import { loadConfig } from '#api/config.ts';
import { copyBlobs } from '#api/storage/copyBlobs.ts';
import { createBlobStore } from '#api/storage/index.ts';
import { LocalBlobStore } from '#api/storage/localBlobStore.ts';
import { runCommand, UsageError } from './cli.ts';

const usage = `usage: npm run blobs -- (backup | restore) DIR

  The blob half of a backup (the database's is pg_dump or an events export: README "Back up").
  backup DIR   copies every blob of the configured store (the MINIO_* bucket, or DATA_DIR/blobs)
               into DIR, as plain files with a .meta.json sidecar for each content type
  restore DIR  copies every blob in DIR back into the configured store (an empty one, or the same:
               a key already there is written again)
  Run it with the app's settings, beside a running server or not.`;

await runCommand(usage, async ([command, dir]) => {
  if ((command !== 'backup' && command !== 'restore') || !dir) throw new UsageError('say backup DIR or restore DIR');
  const config = loadConfig();
  const store = await createBlobStore({ blobDir: config.blobDir, minio: config.minio });
  const folder = new LocalBlobStore(path.resolve(dir));
  const [from, to] = command === 'backup' ? [store, folder] : [folder, store];
  const { blobs, bytes } = await copyBlobs(from, to);
  console.log(`${command === 'backup' ? 'backed up' : 'restored'} ${blobs} blobs, ${bytes} bytes`);
  return 0;
});
