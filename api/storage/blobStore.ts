/**
 * The one way the rest of the system stores bytes. Two implementations sit behind it
 * (local files, S3/MinIO) and both must pass the same contract suite (blobStore.int.test.ts).
 */
export interface BlobStore {
  put(key: string, body: Buffer | NodeJS.ReadableStream, meta: { contentType: string }): Promise<{ size: number }>;
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** `end` is inclusive and may run past the last byte (it is clamped); `start` past the end → BlobRangeNotSatisfiable. */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream>;
  /** Deleting a missing key is fine. */
  delete(key: string): Promise<void>;
  /** Deletes every key under a folder-like prefix, which must end with `/` (e.g. `artworks/12/`). */
  deletePrefix(prefix: string): Promise<void>;
  /** The bytes the store holds now, every key's (a listing: for the storage cap, not for every request). */
  bytesStored(): Promise<number>;
  /** Every key the store holds (a listing: for backup and restore, `npm run blobs`). */
  keys(): AsyncIterable<string>;
}

export type BlobRange = { start: number; end: number };

export class BlobNotFound extends Error {
  readonly code = 'NotFound';
  constructor(key: string, options?: ErrorOptions) {
    super(`Blob not found: ${key}`, options);
    this.name = 'BlobNotFound';
  }
}

export class BlobRangeNotSatisfiable extends Error {
  readonly code = 'InvalidRange';
  constructor(key: string, range: BlobRange, options?: ErrorOptions) {
    super(`Range ${range.start}-${range.end} not satisfiable for ${key}`, options);
    this.name = 'BlobRangeNotSatisfiable';
  }
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

const MAX_KEY_BYTES = 1024;

/**
 * Keys are relative, slash-separated paths. The same rules hold for every implementation so a key
 * that works locally also works in MinIO. Segments may not start with `.`: the local store keeps its
 * temp files and content-type sidecars as dot-files, so no key can ever name one of them.
 */
export function assertValidKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw new TypeError(`Invalid blob key ${JSON.stringify(key)}: ${problem}`);
}

function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.length === 0) return 'must be a non-empty string';
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  // oxlint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains NUL or a control character';
  if (key.includes('\\')) return 'contains a backslash';
  if (key.includes('..')) return 'contains ..';
  if (key.startsWith('/')) return 'is absolute';
  for (const segment of key.split('/')) {
    if (segment === '') return 'has an empty path segment';
    if (segment.startsWith('.')) return 'has a segment starting with "."';
  }
  return undefined;
}

export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) {
    throw new TypeError(`Invalid blob prefix ${JSON.stringify(prefix)}: must end with "/"`);
  }
  const problem = keyProblem(prefix.slice(0, -1));
  if (problem) throw new TypeError(`Invalid blob prefix ${JSON.stringify(prefix)}: ${problem}`);
}

export function assertValidRange(range: BlobRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}
