import { Router, type Response } from 'express';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import type { Clock } from '../time.ts';
import { writeKeepsakeBook } from './book.ts';
import { writeKeepsake } from './keepsake.ts';

/** The date in a file name: `2026-11-25`. */
const today = (clock: Clock) => clock().toISOString().slice(0, 10);

/** Once bytes are sent a failure can only cut the download short: the client sees an incomplete file. */
async function streaming(res: Response, work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy(error as Error);
  }
}

/** `GET /api/admin/keepsake` and `GET /api/admin/keepsake.pdf` (CONTRACT §10), admins only. */
export function keepsakeRoutes(deps: Deps) {
  const router = Router();
  const keepsake = { pool: deps.pool, blobs: deps.blobs, name: deps.config.tribute.name, clock: deps.clock };
  router.get('/admin/keepsake', requireRole('admin'), (_req, res) =>
    streaming(res, async () => {
      res.type('application/zip');
      res.set('Content-Disposition', `attachment; filename="keepsake-${today(deps.clock)}.zip"`);
      await writeKeepsake(keepsake, res);
    }),
  );
  router.get('/admin/keepsake.pdf', requireRole('admin'), (_req, res) =>
    streaming(res, async () => {
      res.type('application/pdf');
      res.set('Content-Disposition', `attachment; filename="keepsake-${today(deps.clock)}.pdf"`);
      await writeKeepsakeBook(keepsake, res);
    }),
  );
  return router;
}
