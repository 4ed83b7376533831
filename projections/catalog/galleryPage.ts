import type pg from 'pg';
import { toView, type CatalogRow, type ItemView, type Kind } from './items.ts';

export const PAGE_SIZE = 20;
type Queryable = Pick<pg.Pool, 'query'>;

export interface GalleryPage {
  items: ItemView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * The day's order: each item's place comes from a hash of the day and its own identity only, so
 * adding or removing one item never moves the others relative to each other.
 */
const DAY_ORDER = `md5($1 || ':' || c.kind || ':' || c.id), c.kind, c.id`;
const VISIBLE = `c.status = 'approved' AND NOT c.archived`;

interface Ordering {
  day: string;
  catalogAt: string;
  keys: Array<{ kind: Kind; id: number }>;
}

/**
 * Serves gallery pages. Without a search, the day's full order is computed once and kept until the
 * catalog moves (its checkpoint is one indexed lookup per request) or the day turns; a page is then
 * 20 rows by primary key. A search runs as one query.
 */
export class GalleryPages {
  #ordering?: Ordering;
  #refreshing?: Promise<Ordering>;

  async page(db: Queryable, opts: { page: number; q: string; day: string }): Promise<GalleryPage> {
    const q = opts.q.trim().toLowerCase();
    return q ? searchPage(db, { ...opts, q }) : this.#orderedPage(db, opts);
  }

  async #orderedPage(db: Queryable, opts: { page: number; day: string }): Promise<GalleryPage> {
    const ordering = await this.#current(db, opts.day);
    const start = (opts.page - 1) * PAGE_SIZE;
    const keys = ordering.keys.slice(start, start + PAGE_SIZE);
    const rows = keys.length
      ? (
          await db.query<CatalogRow>(
            `SELECT c.*, NULL AS email FROM catalog_items c
             JOIN unnest($1::text[], $2::bigint[]) AS k(kind, id) ON c.kind = k.kind AND c.id = k.id`,
            [keys.map((k) => k.kind), keys.map((k) => k.id)],
          )
        ).rows
      : [];
    const byKey = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r]));
    const items = keys.flatMap((k) => byKey.get(`${k.kind}:${k.id}`) ?? []).map((r) => toView(r, { admin: false }));
    return pageOf(items, ordering.keys.length, opts.page);
  }

  async #current(db: Queryable, day: string): Promise<Ordering> {
    const { rows } = await db.query<{ at: string }>(
      `SELECT coalesce((SELECT transaction_id::text || ':' || position FROM projection_checkpoints WHERE name = 'catalog'), '') AS at`,
    );
    const catalogAt = rows[0]!.at;
    const cached = this.#ordering;
    if (cached && cached.day === day && cached.catalogAt === catalogAt) return cached;
    // concurrent requests share one refresh
    this.#refreshing ??= (async () => {
      const { rows: keys } = await db.query<{ kind: Kind; id: number }>(
        `SELECT c.kind, c.id FROM catalog_items c WHERE ${VISIBLE} ORDER BY ${DAY_ORDER}`,
        [day],
      );
      return (this.#ordering = { day, catalogAt, keys });
    })().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }
}

async function searchPage(db: Queryable, opts: { page: number; q: string; day: string }): Promise<GalleryPage> {
  const { rows } = await db.query<CatalogRow & { total: number }>(
    `SELECT c.*, NULL AS email, count(*) OVER () AS total FROM catalog_items c
     WHERE ${VISIBLE} AND strpos(c.search_text, $2) > 0
     ORDER BY ${DAY_ORDER}
     LIMIT $3 OFFSET $4`,
    [opts.day, opts.q, PAGE_SIZE, (opts.page - 1) * PAGE_SIZE],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && opts.page > 1) {
    const { rows: c } = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM catalog_items c WHERE ${VISIBLE} AND strpos(c.search_text, $1) > 0`,
      [opts.q],
    );
    total = c[0]?.total ?? 0;
  }
  return pageOf(
    rows.map((r) => toView(r, { admin: false })),
    total,
    opts.page,
  );
}

function pageOf(items: ItemView[], total: number, page: number): GalleryPage {
  return { items, total, page, pageSize: PAGE_SIZE, pageCount: Math.ceil(total / PAGE_SIZE) };
}
