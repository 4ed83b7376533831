import { Router } from 'express';
import { readMural } from '#projections/catalog/mural.ts';
import { catalogReached } from '#projections/catalog/readYourWrites.ts';
import { isAdmin, requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { addressKey } from '../limits/limits.ts';
import { drawStroke, MuralStrokeInput } from './drawStroke.ts';
import { eraseStroke } from './eraseStroke.ts';
import { freezeMural } from './freeze.ts';
import { lockMural } from './lockMural.ts';

/** The mural (CONTRACT §8): read it, draw on it, undo, and an admin's lock, unlock and freeze. */
export function muralRoutes(deps: Deps) {
  const router = Router();
  const { pool } = deps;
  const adminOnly = requireRole('admin');

  router.get('/mural', async (req, res) => {
    res.json(await readMural(pool, req.session?.visitorId ?? null));
  });

  router.post('/mural/strokes', async (req, res) => {
    const input = parseInput(MuralStrokeInput, req.body);
    const metadata = await metadataFor(req, deps);
    const author = { visitorId: req.session!.visitorId, addressGroup: addressKey(req) };
    res.status(201).json(await drawStroke(deps, author, input, metadata));
  });

  router.delete('/mural/strokes/:id', async (req, res) => {
    const id = idParam(req.params.id);
    if (!id) throw new HttpError(404, 'Stroke not found');
    const metadata = await metadataFor(req, deps);
    const by = { visitorId: req.session?.visitorId, admin: isAdmin(req) };
    await catalogReached(pool, await eraseStroke(deps, id, by, metadata));
    res.json({ success: true, id });
  });

  router.post('/mural/lock', adminOnly, async (req, res) => {
    res.json(await lockMural(deps, 'Lock', await metadataFor(req, deps)));
  });
  router.post('/mural/unlock', adminOnly, async (req, res) => {
    res.json(await lockMural(deps, 'Unlock', await metadataFor(req, deps)));
  });

  router.post('/mural/freeze', adminOnly, async (req, res) => {
    res.status(201).json(await freezeMural(deps, await metadataFor(req, deps)));
  });

  return router;
}
