import { Router } from 'express';
import { z } from 'zod';
import { GalleryPages } from '#projections/catalog/galleryPage.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../http/errors.ts';
import { dateIn } from '../time.ts';

const GalleryQuery = z.object({
  page: z.coerce
    .number({ error: 'Page must be a whole number from 1' })
    .int('Page must be a whole number from 1')
    .min(1, 'Page must be a whole number from 1')
    .max(100_000)
    .default(1),
  q: z.string({ error: 'Search must be text' }).max(200, 'Search is too long').default(''),
});

export function galleryRoutes(deps: Deps) {
  const router = Router();
  const pages = new GalleryPages();
  router.get('/gallery', async (req, res) => {
    const { page, q } = parseInput(GalleryQuery, req.query);
    res.json(await pages.page(deps.pool, { page, q, day: dateIn(deps.config.timeZone) }));
  });
  return router;
}
