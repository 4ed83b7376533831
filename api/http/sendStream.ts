import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { parseRange } from './range.ts';

/**
 * Sends a stored file's stream as the answer. `pipeline`, not `pipe`: when the visitor goes away
 * mid-answer (a video scrubbed, a tab closed) the source is destroyed and its file handle closed at
 * once, instead of being left open for the garbage collector ("Closing file descriptor N on garbage
 * collection" under load).
 */
export function sendStream(body: NodeJS.ReadableStream, res: Response): void {
  pipeline(body, res).catch(() => {
    // the visitor left or the store failed mid-answer: both streams are destroyed; nothing to add
  });
}

/**
 * Sends a stored file of `size` bytes with Range support (video and audio players seek with it): the
 * whole file, 206 with `Content-Range` for a byte range, 416 for one past its end; HEAD gets the
 * headers alone. `read` opens the file, or the part asked for.
 */
export async function sendRanged(
  req: Request,
  res: Response,
  file: {
    size: number;
    contentType: string;
    cacheControl: string;
    read: (part?: { start: number; end: number }) => Promise<NodeJS.ReadableStream>;
  },
): Promise<void> {
  const { size } = file;
  const range = parseRange(req.get('range'), size);
  res.set({ 'Accept-Ranges': 'bytes', 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl });
  if (range.kind === 'unsatisfiable') {
    res.status(416).set('Content-Range', `bytes */${size}`).end();
    return;
  }
  const part = range.kind === 'part' ? { start: range.start, end: range.end } : undefined;
  if (part) res.status(206).set('Content-Range', `bytes ${part.start}-${part.end}/${size}`);
  res.set('Content-Length', String(part ? part.end - part.start + 1 : size));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  sendStream(await file.read(part), res);
}
