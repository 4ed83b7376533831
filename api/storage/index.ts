import type { BlobStore } from './blobStore.ts';
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
