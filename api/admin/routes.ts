import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { artworkStream } from '#events/artworks/artwork.ts';
import { artworkDecider, type ArtworkCommand } from '#events/artworks/decide.ts';
import { handleCommand, type Intent } from '#events/handle.ts';
import { queueCounts } from '#projections/catalog/adminQueue.ts';
import { findItemAfter, listArchived, listPending, toView } from '#projections/catalog/items.ts';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { notFound, parseInput } from '../http/errors.ts';

const Review = z.object({
  status: z.enum(['approved', 'rejected', 'archived'], { error: 'Status must be approved, rejected or archived' }),
  adminNotes: z
    .string({ error: 'Admin notes must be text' })
    .max(2000)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null)),
});

const admin = { admin: true };

export function adminRoutes(deps: Deps) {
  const router = Router();
  router.use('/admin', requireRole('admin'));

  router.get('/admin/queue', async (_req, res) => {
    res.json(await queueCounts(deps.pool));
  });

  router.get('/admin/artworks/pending', async (_req, res) => {
    res.json((await listPending(deps.pool, 'artwork')).map((r) => toView(r, admin)));
  });

  router.get('/admin/artworks/archived', async (_req, res) => {
    res.json((await listArchived(deps.pool, 'artwork')).map((r) => toView(r, admin)));
  });

  /** Runs a command on an artwork and answers with the artwork as the catalog then shows it. */
  async function runArtworkCommand(req: Request, res: Response, intent: Intent<ArtworkCommand>) {
    const id = idParam(req.params.id as string);
    if (!id) throw notFound('Artwork');
    const metadata = await metadataFor(req, deps.personal);
    const { lastPosition } = await handleCommand(
      deps.store,
      artworkStream(id),
      artworkDecider,
      { ...intent, now: metadata.now } as ArtworkCommand,
      metadata,
    );
    const row = await findItemAfter(deps.pool, 'artwork', id, admin, lastPosition);
    if (!row) throw notFound('Artwork');
    res.json(toView(row, admin));
  }

  router.patch('/admin/artworks/:id', async (req, res) => {
    const { status, adminNotes } = parseInput(Review, req.body);
    await runArtworkCommand(
      req,
      res,
      status === 'archived' ? { type: 'ArchiveArtwork' } : { type: 'ReviewArtwork', data: { status, adminNotes } },
    );
  });

  router.post('/admin/artworks/:id/unarchive', async (req, res) => {
    await runArtworkCommand(req, res, { type: 'UnarchiveArtwork' });
  });

  return router;
}
