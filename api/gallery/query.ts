import { z } from 'zod';

/** `GET /api/gallery`'s page and search, with the spec's messages (the gallery at a seq adds `at`). */
export const GalleryQuery = z.object({
  page: z.coerce
    .number({ error: 'Page must be a whole number from 1' })
    .int('Page must be a whole number from 1')
    .min(1, 'Page must be a whole number from 1')
    .max(100_000)
    .default(1),
  q: z.string({ error: 'Search must be text' }).max(200, 'Search is too long').default(''),
});
