import type pg from 'pg';

import type { QueueCounts } from '#contract/views.ts';

export type { QueueCounts };

export async function queueCounts(db: Pick<pg.Pool, 'query'>): Promise<QueueCounts> {
  const { rows } = await db.query<{ artworks: number; stories: number; media: number; archived: number }>(
    `SELECT count(*) FILTER (WHERE kind = 'artwork' AND status = 'pending')::int AS artworks,
            count(*) FILTER (WHERE kind = 'story' AND status = 'pending')::int AS stories,
            count(*) FILTER (WHERE kind = 'media' AND status = 'pending')::int AS media,
            count(*) FILTER (WHERE kind = 'artwork' AND archived)::int AS archived
     FROM catalog_items WHERE status = 'pending' OR archived`,
  );
  const r = rows[0]!;
  return { pending: { artworks: r.artworks, stories: r.stories, media: r.media }, archived: r.archived };
}
