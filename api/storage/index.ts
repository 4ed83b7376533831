import { BlobNotFound, type BlobStore } from './blobStore.ts';
import { LocalBlobStore } from './localBlobStore.ts';
import type { MinioConfig } from './minioBlobStore.ts';

export { BlobNotFound, BlobRangeNotSatisfiable, type BlobStore } from './blobStore.ts';

/**
 * MinIO when the MINIO_* settings are present (CONTRACT §1), otherwise files under `blobDir`. The
 * MinIO client is loaded only then: loading it costs every process (each CLI run, each test file)
 * about half a second of CPU.
 */
export async function createBlobStore(config: { blobDir: string; minio?: MinioConfig }): Promise<BlobStore> {
  if (config.minio) {
    const { createMinioBlobStore } = await import('./minioBlobStore.ts');
    return createMinioBlobStore(config.minio);
  }
  return new LocalBlobStore(config.blobDir);
}

/** A small text blob whole (a caption track: at most 256 KB, decision 123), or undefined when it is gone. */
export async function readText(blobs: BlobStore, key: string): Promise<string | undefined> {
  let source: NodeJS.ReadableStream;
  try {
    source = await blobs.read(key);
  } catch (error) {
    if (error instanceof BlobNotFound) return undefined;
    throw error;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
