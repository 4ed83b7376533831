import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Client } from 'minio';
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

export type MinioConfig = {
  endPoint: string;
  port?: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
};

/** Bodies up to one part go up in a single PUT; a streamed put holds at most two parts in memory. */
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const MIN_PART_SIZE = 5 * 1024 * 1024; // S3's minimum for every part but the last

export async function createMinioBlobStore(
  config: MinioConfig,
  options: { partSize?: number } = {},
): Promise<BlobStore> {
  const client = new Client({
    endPoint: config.endPoint,
    port: config.port,
    useSSL: config.useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
  });
  if (!(await client.bucketExists(config.bucket))) {
    await client.makeBucket(config.bucket).catch((err: { code?: string }) => {
      // Another process may have created it between the check and here.
      if (err.code !== 'BucketAlreadyOwnedByYou' && err.code !== 'BucketAlreadyExists') throw err;
    });
  }
  return new MinioBlobStore(client, config.bucket, options.partSize ?? DEFAULT_PART_SIZE);
}

/**
 * Blobs as objects in one bucket.
 *
 * Streams are not handed to `client.putObject` with an unknown size: minio-js 8 then assumes a 5 TiB
 * object and buffers ~550 MiB parts, first lists incomplete uploads to resume one (s3rver answers
 * NotImplemented), and when the source stream fails it pipes without an error handler, so the error
 * is uncaught and the put never settles. Instead put reads
 * the stream in parts itself: a body that fits in one part goes up in one PUT, a larger one as a
 * multipart upload that is completed only after the source ended cleanly. Either way a source that
 * fails midway never produces an object (and an existing object under the key stays untouched).
 */
export class MinioBlobStore implements BlobStore {
  readonly client: Client;
  readonly bucket: string;
  readonly partSize: number;

  constructor(client: Client, bucket: string, partSize: number) {
    if (partSize < MIN_PART_SIZE) throw new RangeError(`partSize must be at least ${MIN_PART_SIZE} bytes`);
    this.client = client;
    this.bucket = bucket;
    this.partSize = partSize;
  }

  async put(key: string, body: Buffer | NodeJS.ReadableStream, meta: { contentType: string }) {
    assertValidKey(key);
    const headers = { 'Content-Type': meta.contentType };
    if (Buffer.isBuffer(body)) {
      await this.client.putObject(this.bucket, key, body, body.length, headers);
      return { size: body.length };
    }
    let size = 0;
    let pending: Buffer | undefined;
    let upload: { id: string; parts: { part: number; etag: string }[] } | undefined;
    try {
      for await (const chunk of inParts(toReadable(body), this.partSize)) {
        size += chunk.length;
        if (pending) {
          upload ??= { id: await this.client.initiateNewMultipartUpload(this.bucket, key, headers), parts: [] };
          await this.uploadPart(key, upload, pending);
        }
        pending = chunk;
      }
      if (!upload) {
        const whole = pending ?? Buffer.alloc(0);
        await this.client.putObject(this.bucket, key, whole, whole.length, headers);
        return { size };
      }
      await this.uploadPart(key, upload, pending ?? Buffer.alloc(0));
      await this.client.completeMultipartUpload(this.bucket, key, upload.id, upload.parts);
      return { size };
    } catch (err) {
      // Best effort: an upload that is never completed is not an object; lifecycle rules reap it.
      if (upload) await this.client.abortMultipartUpload(this.bucket, key, upload.id).catch(() => {});
      throw err;
    }
  }

  async stat(key: string) {
    assertValidKey(key);
    try {
      const stats = await this.client.statObject(this.bucket, key);
      const contentType = stats.metaData['content-type'];
      return { size: stats.size, contentType: typeof contentType === 'string' ? contentType : DEFAULT_CONTENT_TYPE };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: BlobRange): Promise<NodeJS.ReadableStream> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    try {
      if (!range) return await this.client.getObject(this.bucket, key);
      return await this.client.getPartialObject(this.bucket, key, range.start, range.end - range.start + 1);
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFound(key, { cause: err });
      if (range && errorCode(err) === 'InvalidRange') throw new BlobRangeNotSatisfiable(key, range, { cause: err });
      throw err;
    }
  }

  async delete(key: string) {
    assertValidKey(key);
    await this.client.removeObject(this.bucket, key); // S3 deletes are idempotent
  }

  async bytesStored() {
    let total = 0;
    for await (const item of this.client.listObjectsV2(this.bucket, '', true)) total += item.size ?? 0;
    return total;
  }

  async *keys() {
    for await (const item of this.client.listObjectsV2(this.bucket, '', true)) if (item.name) yield item.name;
  }

  async deletePrefix(prefix: string) {
    assertValidPrefix(prefix);
    const names: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      if (item.name) names.push(item.name);
    }
    if (names.length === 0) return;
    const results = await this.client.removeObjects(this.bucket, names);
    const failed = results.find((result) => result?.Error && result.Error.Code !== 'NoSuchKey');
    if (failed?.Error) {
      throw new Error(
        `Could not delete ${failed.Error.Key ?? prefix}: ${failed.Error.Code} ${failed.Error.Message ?? ''}`,
      );
    }
  }

  private async uploadPart(
    key: string,
    upload: { id: string; parts: { part: number; etag: string }[] },
    chunk: Buffer,
  ) {
    const part = upload.parts.length + 1;
    const { etag } = await this.client.uploadPart(
      {
        bucketName: this.bucket,
        objectName: key,
        uploadID: upload.id,
        partNumber: part,
        headers: { 'Content-Length': chunk.length, 'Content-MD5': createHash('md5').update(chunk).digest('base64') },
      },
      chunk,
    );
    upload.parts.push({ part, etag });
  }
}

/** Re-chunks a byte stream into buffers of exactly `size` bytes, the last one possibly shorter. */
async function* inParts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const data of source) {
    const chunk: Buffer = typeof data === 'string' ? Buffer.from(data) : data;
    held.push(chunk);
    heldBytes += chunk.length;
    while (heldBytes >= size) {
      const joined = Buffer.concat(held, heldBytes);
      yield joined.subarray(0, size);
      held = [joined.subarray(size)];
      heldBytes -= size;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}

function toReadable(body: NodeJS.ReadableStream): Readable {
  return body instanceof Readable ? body : new Readable().wrap(body);
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}
