import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { HttpError } from './errors.ts';

export interface ReceivedFile {
  path: string;
  filename: string;
  mimeType: string;
  bytes: number;
  fields: Record<string, string>;
}

/**
 * Streams one multipart file to a temp file, never holding it in memory. Refuses a declared type
 * outside video/ and audio/ (415) and anything over maxBytes (413) as soon as it is seen; a request
 * that breaks off, or fails, leaves no temp file behind.
 */
export function receiveMediaFile(
  req: Request,
  opts: { field: string; maxBytes: number; tmpDir: string },
): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: opts.maxBytes, fields: 20, fieldSize: 20_000 },
      });
    } catch {
      reject(new HttpError(400, 'Expected a multipart upload with a file'));
      return;
    }
    fs.mkdirSync(opts.tmpDir, { recursive: true });
    const tmp = path.join(opts.tmpDir, `upload-${randomUUID()}`);
    const fields: Record<string, string> = {};
    let written: Promise<{ filename: string; mimeType: string; bytes: number }> | undefined;
    let incoming: (NodeJS.ReadableStream & { destroy(): void }) | undefined;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      incoming?.destroy();
      req.unpipe(parser);
      req.resume();
      fs.rm(tmp, { force: true }, () => reject(error));
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== opts.field || written) {
        stream.resume();
        return;
      }
      if (!/^(video|audio)\//.test(info.mimeType)) {
        stream.resume();
        fail(new HttpError(415, 'Invalid file type'));
        return;
      }
      incoming = stream;
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.on('limit', () => fail(new HttpError(413, 'File too large')));
      written = pipeline(stream, fs.createWriteStream(tmp)).then(() => ({
        filename: info.filename ?? 'upload',
        mimeType: info.mimeType,
        bytes,
      }));
      written.catch(fail);
    });
    parser.on('error', () => fail(new HttpError(400, 'The upload was malformed')));
    parser.on('close', () => {
      if (settled) return;
      if (!written) return fail(new HttpError(400, 'No file uploaded'));
      written.then((file) => {
        if (settled) return;
        if (file.bytes === 0) return fail(new HttpError(400, 'No file uploaded'));
        settled = true;
        resolve({ path: tmp, fields, ...file });
      }, fail);
    });
    req.on('aborted', () => fail(new HttpError(400, 'The upload was interrupted')));
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, 'The upload was interrupted'));
    });
    req.pipe(parser);
  });
}
