import { Router, type Request } from 'express';
import { checkStrokes, MAX_STROKES_BYTES, type StrokeRecording } from '#contract/strokes.ts';
import { findItem } from '#projections/catalog/items.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { sendStream } from '../http/sendStream.ts';
import { itemFolder } from '../kinds.ts';
import { BlobNotFound } from '../storage/index.ts';

export const strokesKey = (artworkId: number) => `${itemFolder('artwork', artworkId)}strokes.json`;

/**
 * The `strokes` a drawing from /create carries (CONTRACT §7), checked before anything is written:
 * undefined when there are none; 400 for a bad recording or one sent with an upload, 413 over 512 KB.
 * Whether it ends on the drawing's image is checked with the image (submitArtwork, CONTRACT §9).
 */
export function strokesOf(req: Request): { bytes: Buffer; recording: StrokeRecording } | undefined {
  const body = req.body as { strokes?: unknown; isFromCanvas?: unknown } | undefined;
  if (body?.strokes === undefined || body.strokes === null) return undefined;
  const bytes = Buffer.from(JSON.stringify(body.strokes));
  if (bytes.length > MAX_STROKES_BYTES) throw new HttpError(413, 'Strokes too large');
  const fail = (message: string) => new HttpError(400, message, { errors: [{ path: 'strokes', message }] });
  if (body.isFromCanvas !== 'true') throw fail('Strokes come only with a drawing');
  const checked = checkStrokes(body.strokes);
  if (!checked.ok) throw fail(checked.message);
  return { bytes, recording: checked.value };
}

/** Keeps a drawing's strokes beside its image (the image's folder, so deleting the artwork takes them). */
export async function saveStrokes(deps: Deps, artworkId: number, bytes: Buffer) {
  await deps.blobs.put(strokesKey(artworkId), bytes, { contentType: 'application/json' });
}

/** `GET /api/artworks/{id}/strokes`: the drawing's recording; 404 for uploads and what the viewer may not see. */
export function strokeRoutes(deps: Deps) {
  const router = Router();
  router.get('/artworks/:id/strokes', async (req, res) => {
    const id = idParam(req.params.id as string);
    const row = id && (await findItem(deps.pool, 'artwork', id, { admin: isAdmin(req) }));
    if (!row) throw notFound('Artwork');
    try {
      const body = await deps.blobs.read(strokesKey(row.id));
      res.set({ 'Content-Type': 'application/json', 'Cache-Control': 'private, max-age=86400' });
      sendStream(body, res);
    } catch (error) {
      if (error instanceof BlobNotFound) throw notFound('Strokes');
      throw error;
    }
  });
  return router;
}

export type { StrokeRecording };
