import type pg from 'pg';
import { toView, type CatalogRow, type ItemView } from './items.ts';

export const PAGE_SIZE = 20;

export interface GalleryPage {
  items: ItemView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * Approved, non-archived items of every kind in the day's order: each item's place comes from a
 * hash of the day and its own identity only, so adding or removing one never moves the others.
 */
export async function galleryPage(
  db: Pick<pg.Pool, 'query'>,
  opts: { page: number; q: string; day: string },
): Promise<GalleryPage> {
  const q = opts.q.trim().toLowerCase();
  const { rows } = await db.query<CatalogRow & { total: number }>(
    `SELECT c.*, NULL AS email, count(*) OVER () AS total FROM catalog_items c
     WHERE c.status = 'approved' AND NOT c.archived AND ($1 = '' OR strpos(c.search_text, $1) > 0)
     ORDER BY md5($2 || ':' || c.kind || ':' || c.id), c.kind, c.id
     LIMIT $3 OFFSET $4`,
    [q, opts.day, PAGE_SIZE, (opts.page - 1) * PAGE_SIZE],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && opts.page > 1) {
    const { rows: c } = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM catalog_items c
       WHERE c.status = 'approved' AND NOT c.archived AND ($1 = '' OR strpos(c.search_text, $1) > 0)`,
      [q],
    );
    total = c[0]?.total ?? 0;
  }
  return {
    items: rows.map((r) => toView(r, { admin: false })),
    total,
    page: opts.page,
    pageSize: PAGE_SIZE,
    pageCount: Math.ceil(total / PAGE_SIZE),
  };
}
