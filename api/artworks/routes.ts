import { Router } from 'express';
import { findItem, findItemAt, listVisible, toView } from '#projections/catalog/items.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput, storageFull } from '../http/errors.ts';
import { atLogPosition } from '../http/logPosition.ts';
import { sendStream } from '../http/sendStream.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { isStorageFull, StorageCapacity } from '../storage/capacity.ts';
import { BlobNotFound } from '../storage/index.ts';
import { saveStrokes, strokesOf } from '../show/strokes.ts';
import { ArtworkSubmission, submitArtwork } from './submitArtwork.ts';

const VARIANTS = new Set(['original', 'display', 'thumbnail']);

export function artworkRoutes(deps: Deps) {
  const router = Router();
  // a drawing or photo goes straight into the store (the local store's directory, or the bucket)
  const capacity = new StorageCapacity(deps.blobs, deps.config.minio ? [] : [deps.config.blobDir], deps.config.storage);

  router.get('/artworks', async (req, res) => {
    const viewer = { admin: isAdmin(req) };
    const rows = await listVisible(deps.pool, 'artwork', viewer);
    res.json(rows.map((r) => toView(r, viewer)));
  });

  router.post('/artworks', async (req, res) => {
    const input = parseInput(ArtworkSubmission, req.body);
    // a drawing's strokes (CONTRACT §7) are checked before anything is written
    const strokes = strokesOf(req);
    // the image's bytes as sent (its base64 is 4/3 of them): 507 before anything is written if they do not fit
    if ((await capacity.room()) < Math.ceil((input.imageData.length * 3) / 4)) throw storageFull();
    const metadata = await metadataFor(req, deps);
    const submission = { visitorId: req.session?.visitorId, recording: strokes?.recording };
    const { artworkId: id, position } = await submitArtwork(deps, input, metadata, submission).catch(
      (error: unknown) => {
        throw isStorageFull(error) ? storageFull() : error;
      },
    );
    if (strokes) await saveStrokes(deps, id, strokes.bytes);
    // the submitter's next screens (and the admin's queue) read the catalog: answer once it has it
    await readYourWrites(deps, res, position);
    res.status(201).json({
      kind: 'artwork',
      id,
      title: input.title,
      description: input.description,
      altText: input.altText,
      tags: input.tags,
      artistName: input.artistName,
      isFromCanvas: String(input.isFromCanvas),
      status: 'pending',
      createdAt: metadata.now,
      message: 'Your artwork was submitted and is pending approval.',
    });
  });

  router.get('/artworks/:id', async (req, res) => {
    const id = idParam(req.params.id);
    const viewer = { admin: isAdmin(req) };
    const found = id && (await findItemAt(deps.pool, 'artwork', id, viewer));
    if (!found) throw notFound('Artwork');
    atLogPosition(res, found.position).json(toView(found.row, viewer));
  });

  router.get('/artworks/:id/image/:variant', async (req, res) => {
    const id = idParam(req.params.id);
    const row =
      id && VARIANTS.has(req.params.variant) && (await findItem(deps.pool, 'artwork', id, { admin: isAdmin(req) }));
    if (!row || !row.image) throw notFound('Artwork');
    const variant = req.params.variant as 'original' | 'display' | 'thumbnail';
    const image = row.image[variant] ?? row.image.original;
    try {
      const body = await deps.blobs.read(image.key);
      res.set({
        'Content-Type': image.contentType,
        'Cache-Control': 'private, max-age=86400',
        'X-Content-Type-Options': 'nosniff',
      });
      sendStream(body, res);
    } catch (error) {
      if (error instanceof BlobNotFound) throw notFound('Artwork');
      throw error;
    }
  });

  return router;
}
