import type { BlobStore } from './blobStore.ts';

/**
 * Copies every blob of one store into another, streaming, with its content type: the blob half of a
 * backup (the configured store into a local folder) and of a restore (back). Keys already in `to`
 * are written again. Returns how many blobs and bytes were copied. docs/runbook.md, README.
 */
export async function copyBlobs(
  from: BlobStore,
  to: BlobStore,
  progress?: (copied: number) => void,
): Promise<{ blobs: number; bytes: number }> {
  let blobs = 0;
  let bytes = 0;
  for await (const key of from.keys()) {
    const meta = await from.stat(key);
    if (!meta) continue; // deleted since it was listed
    const { size } = await to.put(key, await from.read(key), { contentType: meta.contentType });
    blobs += 1;
    bytes += size;
    progress?.(blobs);
  }
  return { blobs, bytes };
}
