import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';

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
