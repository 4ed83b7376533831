import { mkdir, stat, statfs } from 'node:fs/promises';
import type { BlobStore } from './blobStore.ts';

/** A disk or a bucket that filled up under a write (another write came first). */
export const isStorageFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT', 'XMinioStorageFull', 'XMinioAdminBucketQuotaExceeded'].includes(
    (error as { code?: string } | null)?.code ?? '',
  );

export interface CapacityConfig {
  /** free space left on every disk an upload is written to (`STORAGE_RESERVE_BYTES`) */
  reserveBytes: number;
  /** the most the blob store may hold (`STORAGE_MAX_BYTES`), for a bucket whose size the server cannot see */
  maxBytes?: number;
}

/**
 * How many bytes an upload may still take before storage is full (docs/decisions/065). An upload is
 * written to each of `dirs` in turn (for a drawing or photo, the local store's directory alone) (the temp file, then the local store's copy) and both exist at
 * once, so a disk holding two of them must have room for two copies, and keeps `reserveBytes` free for
 * PostgreSQL, the jobs' posters and transcodes, and uploads in flight. With `maxBytes` the blob store
 * (a bucket) holds at most that many bytes, counted by listing it.
 */
export class StorageCapacity {
  readonly #blobs: BlobStore;
  readonly #dirs: string[];
  readonly #config: CapacityConfig;

  constructor(blobs: BlobStore, dirs: string[], config: CapacityConfig) {
    this.#blobs = blobs;
    this.#dirs = dirs;
    this.#config = config;
  }

  async room(): Promise<number> {
    const disks = new Map<number, { dir: string; copies: number }>();
    for (const dir of this.#dirs) {
      await mkdir(dir, { recursive: true });
      const { dev } = await stat(dir);
      const disk = disks.get(dev);
      if (disk) disk.copies++;
      else disks.set(dev, { dir, copies: 1 });
    }
    let room = Number.MAX_SAFE_INTEGER;
    for (const { dir, copies } of disks.values()) {
      const fs = await statfs(dir);
      room = Math.min(room, Math.floor((fs.bavail * fs.bsize - this.#config.reserveBytes) / copies));
    }
    if (this.#config.maxBytes !== undefined) {
      room = Math.min(room, this.#config.maxBytes - (await this.#blobs.bytesStored()));
    }
    return Math.max(0, room);
  }
}
