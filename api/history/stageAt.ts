import { Router } from 'express';
import { z } from 'zod';
import { MURAL_HEIGHT, MURAL_WIDTH } from '#contract/mural.ts';
import { readMuralState, readMuralStrokes } from '#projections/catalog/mural.ts';
import { readShowWithTotals } from '#projections/catalog/showTotals.ts';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../http/errors.ts';
import { atSeq, sealedSeq, travelFor } from './galleryAt.ts';

const AtOnly = z.object({ at: atSeq });

/**
 * The show and the mural as they stood right after event SEQ, for admins and auditors (decision 044):
 * the same time-travel fold as `GET /api/gallery?at=SEQ`, read with the catalog's own show and mural
 * queries. `GET /api/admin/show?at=SEQ` → the show's status and its items with their reaction totals;
 * `GET /api/admin/mural?at=SEQ` → the mural's state and its strokes in painting order.
 */
export function stageAtRoutes(deps: Deps) {
  const router = Router();
  const auditors = requireRole('admin', 'auditor');
  const travel = travelFor(deps);

  router.get('/admin/show', auditors, async (req, res) => {
    const { at } = await sealedSeq(deps, parseInput(AtOnly, req.query).at);
    const show = await travel.read(at, readShowWithTotals, ['catalog_show', 'catalog_items']);
    // never kept by the browser: an erasure must take its words out of the next look (decision 075)
    res.set('Cache-Control', 'private, no-store');
    res.json({ ...show, at });
  });

  router.get('/admin/mural', auditors, async (req, res) => {
    const { at } = await sealedSeq(deps, parseInput(AtOnly, req.query).at);
    const mural = await travel.read(
      at,
      async (db) => ({
        ...(await readMuralState(db)),
        strokes: await readMuralStrokes(db),
      }),
      ['catalog_mural', 'catalog_mural_strokes'],
    );
    // never kept by the browser: an erasure must take its words out of the next look (decision 075)
    res.set('Cache-Control', 'private, no-store');
    res.json({ ...mural, width: MURAL_WIDTH, height: MURAL_HEIGHT, at });
  });

  return router;
}
