import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  assertValidPrefix,
  assertValidRange,
  BlobNotFound,
  BlobRangeNotSatisfiable,
  DEFAULT_CONTENT_TYPE,
  type BlobRange,
  type BlobStore,
} from './blobStore.ts';

/**
 * Blobs as plain files under `blobDir`, one file per key. The content type lives in a sidecar
 * `.<name>.meta.json` beside the file; the data file is the source of truth for existence and size.
 *
 * A put streams into a dot-prefixed temp file in the target directory and renames it into place, so
 * readers see the old bytes or the new ones, never a partial file, and a failed put leaves no file.
 * (It may leave the empty directories it created; they hold no blob and are harmless.)
 */
export class LocalBlobStore implements BlobStore {
  readonly root: string;

  constructor(blobDir: string) {
    this.root = path.resolve(blobDir);
  }

  async put(key: string, body: Buffer | NodeJS.ReadableStream, meta: { contentType: string }) {
    const file = this.pathOf(key);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const nonce = randomUUID();
    const dataTmp = path.join(dir, `.${path.basename(file)}.${nonce}.tmp`);
    const metaTmp = path.join(dir, `.${path.basename(file)}.${nonce}.meta.tmp`);
    try {
      let size: number;
      if (Buffer.isBuffer(body)) {
        await writeFile(dataTmp, body, { flag: 'wx', flush: true });
        size = body.length;
      } else {
        const out = createWriteStream(dataTmp, { flags: 'wx', flush: true });
        await pipeline(body, out);
        size = out.bytesWritten;
      }
      await writeFile(metaTmp, JSON.stringify({ contentType: meta.contentType }), { flag: 'wx' });
      // Sidecar first: a crash between the renames leaves a sidecar without data, which stat ignores.
      await rename(metaTmp, sidecarOf(file));
      await rename(dataTmp, file);
      return { size };
    } catch (err) {
      await Promise.all([rm(dataTmp, { force: true }), rm(metaTmp, { force: true })]);
      throw err;
    }
  }

  async stat(key: string) {
    const file = this.pathOf(key);
    const stats = await stat(file).catch(ignoreMissing);
    if (!stats?.isFile()) return null;
    return { size: stats.size, contentType: await readContentType(file) };
  }

  async read(key: string, range?: BlobRange): Promise<NodeJS.ReadableStream> {
    const file = this.pathOf(key);
    if (range) assertValidRange(range);
    const handle = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      throw isMissing(err) ? new BlobNotFound(key, { cause: err }) : err;
    });
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new BlobNotFound(key);
      if (!range) return handle.createReadStream();
      if (range.start >= stats.size) throw new BlobRangeNotSatisfiable(key, range);
      return handle.createReadStream({ start: range.start, end: Math.min(range.end, stats.size - 1) });
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async delete(key: string) {
    const file = this.pathOf(key);
    await rm(file, { force: true });
    await rm(sidecarOf(file), { force: true });
  }

  async deletePrefix(prefix: string) {
    assertValidPrefix(prefix);
    await rm(this.inside(prefix), { recursive: true, force: true });
  }

  /** Every file under the root, sidecars and puts in progress included: what the disk holds for the store. */
  async bytesStored() {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(ignoreMissing);
    let total = 0;
    for (const entry of entries ?? []) {
      if (!entry.isFile()) continue;
      const stats = await stat(path.join(entry.parentPath, entry.name)).catch(ignoreMissing);
      total += stats?.size ?? 0;
    }
    return total;
  }

  /** Every blob's key: its path under the root, without the dot-files (sidecars, puts in progress). */
  async *keys() {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(ignoreMissing);
    for (const entry of entries ?? []) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (key.split('/').some((segment) => segment.startsWith('.'))) continue;
      yield key;
    }
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return this.inside(key);
  }

  // Defence in depth: key validation already forbids escaping the root.
  private inside(relative: string): string {
    const resolved = path.resolve(this.root, relative);
    if (!resolved.startsWith(this.root + path.sep)) throw new TypeError(`Blob path escapes the store: ${relative}`);
    return resolved;
  }
}

function sidecarOf(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);
}

async function readContentType(file: string): Promise<string> {
  const text = await readFile(sidecarOf(file), 'utf8').catch(ignoreMissing);
  if (!text) return DEFAULT_CONTENT_TYPE;
  try {
    const parsed: unknown = JSON.parse(text);
    const contentType = (parsed as { contentType?: unknown } | null)?.contentType;
    return typeof contentType === 'string' ? contentType : DEFAULT_CONTENT_TYPE;
  } catch {
    return DEFAULT_CONTENT_TYPE;
  }
}

function isMissing(err: NodeJS.ErrnoException): boolean {
  return err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'EISDIR';
}

function ignoreMissing(err: NodeJS.ErrnoException): undefined {
  if (isMissing(err)) return undefined;
  throw err;
}
