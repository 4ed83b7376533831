import { Router, type Request } from 'express';
import { MURAL_STREAM, muralDecider, type MuralCommand } from '#events/mural/mural.ts';
import { handleCommand } from '#events/handle.ts';
import { readMural, readMuralStateAt } from '#projections/catalog/mural.ts';
import { catalogReached } from '#projections/catalog/readYourWrites.ts';
import { isAdmin, requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { drawStroke, MuralStrokeInput } from './drawStroke.ts';
import { eraseStroke } from './eraseStroke.ts';
import { freezeMural } from './freeze.ts';
import { MURAL_LOCK } from './muralLock.ts';

/** The mural (CONTRACT §8): read it, draw on it, undo, and an admin's lock, unlock and freeze. */
export function muralRoutes(deps: Deps) {
  const router = Router();
  const { pool, store } = deps;
  const adminOnly = requireRole('admin');

  router.get('/mural', async (req, res) => {
    res.json(await readMural(pool, req.session?.visitorId ?? null));
  });

  router.post('/mural/strokes', async (req, res) => {
    const input = parseInput(MuralStrokeInput, req.body);
    const metadata = await metadataFor(req, deps.personal);
    res.status(201).json(await drawStroke(deps, req.session!.visitorId, input, metadata));
  });

  router.delete('/mural/strokes/:id', async (req, res) => {
    const id = idParam(req.params.id);
    if (!id) throw new HttpError(404, 'Stroke not found');
    const metadata = await metadataFor(req, deps.personal);
    const by = { visitorId: req.session?.visitorId, admin: isAdmin(req) };
    await catalogReached(pool, await eraseStroke(deps, id, by, metadata));
    res.json({ success: true, id });
  });

  /** Lock and unlock: one event each, the same twice is nothing. */
  async function changeState(req: Request, command: MuralCommand) {
    const metadata = await metadataFor(req, deps.personal);
    const position = await store.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1)`, [MURAL_LOCK]);
      return (await handleCommand(store, MURAL_STREAM, muralDecider, command, metadata, { tx })).lastPosition;
    });
    await catalogReached(pool, position);
    return readMuralStateAt(pool);
  }

  router.post('/mural/lock', adminOnly, async (req, res) => {
    res.json(await changeState(req, { type: 'Lock', now: new Date().toISOString() }));
  });
  router.post('/mural/unlock', adminOnly, async (req, res) => {
    res.json(await changeState(req, { type: 'Unlock', now: new Date().toISOString() }));
  });

  router.post('/mural/freeze', adminOnly, async (req, res) => {
    res.status(201).json(await freezeMural(deps, await metadataFor(req, deps.personal)));
  });

  return router;
}
