import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import { cleanTrack } from '#contract/transcript.ts';
import { handleCommand } from '#events/handle.ts';
import { mediaDecider, mediaStream } from '#events/media/media.ts';
import { isSender } from '#projections/catalog/contributions.ts';
import { findItem, toView } from '#projections/catalog/items.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, notFound, storageFull } from '../http/errors.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { itemFolder } from '../kinds.ts';
import { isStorageFull } from '../storage/capacity.ts';
import { readText } from '../storage/index.ts';

/** A caption track of a few minutes' speech is a few kilobytes; a whole film's, under 200 KB. */
export const CAPTIONS_MAX_BYTES = 256 * 1024;
const VTT = 'text/vtt; charset=utf-8';

/**
 * The body of a caption upload: WebVTT text (decision 123). Sent as `text/vtt` (else 415), at most
 * 256 KB (413), UTF-8 (400), and beginning as the WebVTT standard requires: an optional byte order
 * mark, `WEBVTT`, then the end of the line, a space or a tab (else 415, whatever it was called).
 * What is kept is its cues alone, times and words (decision 142): a note, a style or a region a
 * sender's tool left, which no reviewer sees, reaches no one.
 */
export async function readCaptions(req: Request): Promise<Buffer> {
  const type = req.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'text/vtt') throw new HttpError(415, 'Invalid file type');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > CAPTIONS_MAX_BYTES) {
      req.resume(); // the rest is read and dropped, so the answer reaches the sender
      throw new HttpError(413, 'File too large');
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new HttpError(400, 'Captions must be UTF-8 text');
  }
  if (!/^\uFEFF?WEBVTT(?:$|[ \t\r\n])/.test(text)) throw new HttpError(415, 'Invalid file type');
  return Buffer.from(cleanTrack(text), 'utf8');
}

/**
 * A message's WebVTT track, a video's captions or an audio message's transcript (decisions 123, 130):
 * its sender sets or removes it while the message waits for review, an admin at any time. The track is
 * a blob beside the message's other files, so a deletion, a withdrawal or an erasure takes it with
 * them; the one it replaces goes once the event is committed.
 */
export function captionRoutes(deps: Deps) {
  const router = Router();

  async function mayCaption(req: Request): Promise<{ id: number; bySender: boolean }> {
    const id = idParam(req.params.id as string);
    if (!id) throw notFound('Media');
    if (isAdmin(req)) return { id, bySender: false };
    if (await isSender(deps.pool, req.session!.visitorId, 'media', id)) return { id, bySender: true };
    if (await findItem(deps.pool, 'media', id, { admin: false })) {
      throw new HttpError(403, 'Only its sender or an admin may change its captions');
    }
    throw notFound('Media');
  }

  async function setCaptions(req: Request, body: Buffer | null) {
    const { id, bySender } = await mayCaption(req);
    const before = await findItem(deps.pool, 'media', id, { admin: true });
    if (!before?.media) throw notFound('Media');
    const key = body && `${itemFolder('media', id)}captions-${randomUUID()}.vtt`;
    if (key && body) {
      await deps.blobs.put(key, body, { contentType: VTT }).catch((error: unknown) => {
        throw isStorageFull(error) ? storageFull() : error;
      });
    }
    const captions = key && body ? { key, contentType: VTT, bytes: body.length } : null;
    const metadata = await metadataFor(req, deps);
    try {
      const { lastPosition } = await handleCommand(
        deps.store,
        mediaStream(id),
        mediaDecider,
        { type: 'CaptionMedia', data: { captions, bySender }, now: metadata.now },
        metadata,
      );
      const old = before.media.captions?.key;
      if (old && old !== key) await deps.blobs.delete(old).catch(() => {});
      return { id, position: lastPosition };
    } catch (error) {
      if (key) await deps.blobs.delete(key).catch(() => {});
      throw error;
    }
  }

  async function answer(req: Request, res: Parameters<typeof readYourWrites>[1], id: number, position?: number) {
    await readYourWrites(deps, res, position);
    const viewer = { admin: isAdmin(req) };
    const row = await findItem(deps.pool, 'media', id, { admin: true });
    if (!row) throw notFound('Media');
    res.json(toView(row, viewer));
  }

  router.put('/media/:id/captions', async (req, res) => {
    const body = await readCaptions(req);
    const { id, position } = await setCaptions(req, body);
    await answer(req, res, id, position);
  });

  router.delete('/media/:id/captions', async (req, res) => {
    const { id, position } = await setCaptions(req, null);
    await answer(req, res, id, position);
  });

  router.get('/media/:id/captions', async (req, res) => {
    const id = idParam(req.params.id as string);
    const row = id && (await findItem(deps.pool, 'media', id, { admin: isAdmin(req) }));
    if (!row || !row.media) throw notFound('Media');
    const captions = row.media.captions;
    if (!captions) throw new HttpError(404, 'Captions not found');
    // a track stored before decision 142 is served with its cues alone too
    const vtt = await readText(deps.blobs, captions.key);
    if (vtt === undefined) throw new HttpError(404, 'Captions not found');
    res.set({ 'Content-Type': VTT, 'Cache-Control': 'private, no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.send(cleanTrack(vtt));
  });

  return router;
}
