import type { BlobStore } from './blobStore.ts';
import { LocalBlobStore } from './localBlobStore.ts';
import { createMinioBlobStore, type MinioConfig } from './minioBlobStore.ts';

export { BlobNotFound, BlobRangeNotSatisfiable, type BlobStore } from './blobStore.ts';

/** MinIO when the MINIO_* settings are present (CONTRACT §1), otherwise files under `blobDir`. */
export async function createBlobStore(config: { blobDir: string; minio?: MinioConfig }): Promise<BlobStore> {
  if (config.minio) return createMinioBlobStore(config.minio);
  return new LocalBlobStore(config.blobDir);
}
