import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { queueCounts } from '#projections/catalog/adminQueue.ts';
import { findItem, listArchived, listPending, toView, type Kind } from '#projections/catalog/items.ts';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { requireAdminKey } from '../auth/adminKey.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, notFound, parseInput } from '../http/errors.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { KIND_NAMES, KINDS, removeItemFiles } from '../kinds.ts';
import { moderate, type Moderation } from './moderate.ts';

const adminNotes = z
  .string({ error: 'Admin notes must be text' })
  .max(2000, 'Admin notes must be 2000 characters or fewer')
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

/** The item's version the admin saw (body `expectedVersion`, or `If-Match`): a deliberate change of decision. */
const expectedVersion = z
  .number({ error: 'expectedVersion must be a whole number' })
  .int('expectedVersion must be a whole number')
  .min(0, 'expectedVersion must be a whole number')
  .optional();

const Review = z.object({
  status: z.enum(['approved', 'rejected', 'archived'], { error: 'Status must be approved, rejected or archived' }),
  adminNotes,
  expectedVersion,
});
const MediaStatus = z.object({
  status: z.enum(['approved', 'rejected'], { error: 'Status must be approved or rejected' }),
  adminNotes,
  expectedVersion,
});

/** `If-Match: 3` or `"3"` (a weak `W/"3"` too) as a version; anything else is bad input. */
function ifMatchVersion(req: Request): number | undefined {
  const header = req.get('if-match');
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  if (!match)
    throw new HttpError(400, 'If-Match must be the item version', {
      errors: [{ path: 'If-Match', message: 'If-Match must be the item version' }],
    });
  return Number(match[1]);
}

const admin = { admin: true };

/** The review panel's calls, and the detail pages' deletes (admin key). */
export function adminRoutes(deps: Deps) {
  const router = Router();
  const adminOnly = requireRole('admin');
  router.use('/admin', adminOnly);

  /** Runs a moderation action and answers with the item as the catalog then shows it. */
  async function act(req: Request, res: Response, kind: Kind, action: Moderation) {
    const id = idParam(req.params.id as string);
    if (!id) throw notFound(KINDS[kind].label);
    const metadata = await metadataFor(req, deps);
    const before = action.type === 'delete' ? await findItem(deps.pool, kind, id, admin) : undefined;
    const position = await moderate(deps.store, kind, id, action, metadata, deps.personal);
    const reached = await readYourWrites(deps, res, position);
    if (action.type === 'delete') {
      await removeItemFiles(deps.blobs, [{ kind, id, uploadKey: before?.media?.file.key }]);
      res.json({ success: true, message: `${KINDS[kind].label} deleted` });
      return;
    }
    if (!reached) {
      // saved, but the catalog (the worker) has not applied it yet: the answer says what was saved,
      // never the item as the catalog still shows it, nor 404 for an item it does not know yet
      res.status(202).json({
        success: true,
        id,
        ...(action.type === 'review' ? { status: action.status } : { archived: action.type === 'archive' }),
        message: `${KINDS[kind].label} saved; the gallery shows it once it has caught up`,
      });
      return;
    }
    const row = await findItem(deps.pool, kind, id, admin);
    if (!row) throw notFound(KINDS[kind].label);
    res.json(toView(row, admin));
  }

  const review = (req: Request): Moderation => {
    const { status, adminNotes, expectedVersion } = parseInput(Review, req.body);
    if (status === 'archived') return { type: 'archive' };
    return { type: 'review', status, adminNotes, expectedVersion: expectedVersion ?? ifMatchVersion(req) };
  };

  router.get('/admin/queue', async (_req, res) => {
    res.json(await queueCounts(deps.pool));
  });
  router.get('/admin/artworks/archived', async (_req, res) => {
    res.json((await listArchived(deps.pool, 'artwork')).map((r) => toView(r, admin)));
  });
  router.post('/admin/artworks/:id/unarchive', (req, res) => act(req, res, 'artwork', { type: 'unarchive' }));

  for (const kind of KIND_NAMES) {
    const { path } = KINDS[kind];
    router.get(`/admin/${path}/pending`, async (_req, res) => {
      res.json((await listPending(deps.pool, kind)).map((r) => toView(r, admin)));
    });
    router.patch(`/admin/${path}/:id`, (req, res) => act(req, res, kind, review(req)));
    router.delete(`/${path}/:id`, requireAdminKey(deps.config.adminKey), (req, res) =>
      act(req, res, kind, { type: 'delete' }),
    );
  }

  router.put('/media/:id/status', adminOnly, (req, res) => {
    const { status, adminNotes, expectedVersion } = parseInput(MediaStatus, req.body);
    return act(req, res, 'media', {
      type: 'review',
      status,
      adminNotes,
      expectedVersion: expectedVersion ?? ifMatchVersion(req),
    });
  });

  return router;
}
