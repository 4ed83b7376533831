import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type pg from 'pg';
import type { GalleryItemView, GalleryPageView } from '#contract/views.ts';
import { toView, type CatalogRow, type Kind } from './items.ts';
import { cardImage } from './cardImages.ts';

export const PAGE_SIZE = 20;
type Queryable = Pick<pg.Pool, 'query'>;

export type { GalleryItemView };
export type GalleryPage = GalleryPageView;

/** A page as the API sends it: the JSON bytes, their ETag, and the catalog position they reflect. */
export interface PageAnswer {
  position: number;
  body: Buffer;
  etag: string;
  /** the body gzipped, made once per cached page */
  gzip(): Buffer;
}

/**
 * The day's order: each item's place comes from a hash of the day and its own identity only, so
 * adding or removing one item never moves the others relative to each other. Compared byte by byte
 * (COLLATE "C"), as `galleryOrder` in contract/views.ts compares `dayOrder` on a screen.
 */
const DAY_ORDER = `md5($1 || ':' || c.kind || ':' || c.id) COLLATE "C", c.kind, c.id`;

/** An item's key in the day's order, as DAY_ORDER computes it: what a gallery item carries as `order`. */
export function dayOrder(day: string, kind: Kind, id: number): string {
  return createHash('md5').update(`${day}:${kind}:${id}`).digest('hex');
}

/**
 * Today's date (YYYY-MM-DD) in this process's time zone, for the live message of an approval: the
 * configured TZ is the zone Node runs in (config takes TZ, else Node's own zone). A screen whose page
 * is of another day loads it again instead of placing the item.
 */
export function processDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
const VISIBLE = `c.status = 'approved' AND NOT c.archived`;

/**
 * Events that never change which items are visible nor their order: an ordering made at one catalog
 * position is still the ordering at a later one when only these came in between. Any other type
 * (including one added later) makes a new ordering, so the list errs on the safe side.
 */
export const ORDER_NEUTRAL_EVENTS = [
  'ItemLiked',
  'ItemUnliked',
  'ItemViewed',
  'CommentPosted',
  'CommentRemoved',
  'ArtworkSubmitted',
  'StorySubmitted',
  'MediaSubmitted',
  'ArtworkRenditionsMade',
  'MediaProcessed',
  'MediaCaptioned',
  // the show and its reactions (totals change a card, not which cards there are nor their order)
  'ShowStarted',
  'ShowMoved',
  'ShowItemQueued',
  'ShowPaused',
  'ShowResumed',
  'ShowStopped',
  'ReactionsCounted',
  // the mural is not in the catalog
  'MuralStrokeDrawn',
  'MuralStrokeErased',
  'MuralFrozen',
  'MuralLocked',
  'MuralUnlocked',
];

/** The chain seq up to which the catalog has applied (migration 007). */
const CATALOG_POSITION = `catalog_position()`;

interface Ordering {
  day: string;
  /** the catalog position up to which this is known to be the catalog's order */
  through: number;
  keys: Array<{ kind: Kind; id: number }>;
}

/** A refresh under way, and the catalog position its answer is known to be at or after. */
interface InFlight<T> {
  atLeast: number;
  promise: Promise<T>;
}

const MAX_CACHED_PAGES = 2_000;

/**
 * Serves gallery pages at the catalog's log position.
 *
 * Without a search, a page is cached as its JSON bytes per (day, page) with the catalog position it
 * reflects, so a request that brings the position costs no query when nothing moved (the API brings
 * the one its process knows, decision 028). The cache never answers older than the position the
 * request brought or read: an entry, or a refresh under way, is used only
 * when it is known to be at or after that position; a request that read a newer position starts a
 * refresh of its own. The day's order is kept in the same way and carried forward across positions
 * where only likes, comments, views and pending submissions came in. A search runs as one query.
 */
export class GalleryPages {
  #pages = new Map<string, PageAnswer>();
  #pageRefreshes = new Map<string, InFlight<PageAnswer>>();
  #ordering?: Ordering;
  #orderingRefresh?: InFlight<Ordering>;

  /** The catalog position now: what a request has seen and what its answer must be at or after. */
  static async position(db: Queryable): Promise<number> {
    const { rows } = await db.query<{ position: string }>(`SELECT ${CATALOG_POSITION} AS position`);
    return Number(rows[0]!.position);
  }

  /** The page as JSON bytes at or after `seen`, a catalog position known to be committed (else read here). */
  async answer(db: Queryable, opts: { page: number; q: string; day: string; seen?: number }): Promise<PageAnswer> {
    const q = opts.q.trim().toLowerCase();
    if (q) return encode(await searchPage(db, { ...opts, q }));
    const seen = opts.seen ?? (await GalleryPages.position(db));
    const key = `${opts.day}:${opts.page}`;
    const cached = this.#pages.get(key);
    if (cached && cached.position >= seen) return cached;
    const running = this.#pageRefreshes.get(key);
    if (running && running.atLeast >= seen) return running.promise;
    const promise = (async () => {
      const answer = encode(await this.#orderedPage(db, { page: opts.page, day: opts.day, seen }));
      this.#remember(key, answer);
      return answer;
    })().finally(() => {
      if (this.#pageRefreshes.get(key)?.promise === promise) this.#pageRefreshes.delete(key);
    });
    this.#pageRefreshes.set(key, { atLeast: seen, promise });
    return promise;
  }

  /** The page as an object (tests, tools). */
  async page(
    db: Queryable,
    opts: { page: number; q: string; day: string },
  ): Promise<GalleryPage & { position: number }> {
    const answer = await this.answer(db, opts);
    return { ...(JSON.parse(answer.body.toString()) as GalleryPage), position: answer.position };
  }

  #remember(key: string, answer: PageAnswer) {
    const current = this.#pages.get(key);
    if (current && current.position > answer.position) return; // never replace a newer page with an older one
    this.#pages.delete(key);
    this.#pages.set(key, answer);
    if (this.#pages.size > MAX_CACHED_PAGES) this.#pages.delete(this.#pages.keys().next().value!);
  }

  async #orderedPage(
    db: Queryable,
    opts: { page: number; day: string; seen: number },
  ): Promise<GalleryPage & { position: number }> {
    let ordering = await this.#orderingFor(db, opts.day, opts.seen);
    for (let attempt = 0; ; attempt++) {
      const start = (opts.page - 1) * PAGE_SIZE;
      const keys = ordering.keys.slice(start, start + PAGE_SIZE);
      // The rows, the position and whether the order moved since the ordering, in one snapshot.
      const { rows } = await db.query<CatalogRow & { at_position: string; order_moved: boolean }>(
        `WITH here AS (SELECT ${CATALOG_POSITION} AS at_position),
         moved AS (
           SELECT EXISTS (
             SELECT 1 FROM event_chain ch JOIN events e ON e.position = ch.position
             WHERE ch.seq > $3 AND ch.seq <= (SELECT at_position FROM here) AND e.type <> ALL($4::text[])
           ) AS order_moved
         )
         SELECT here.at_position, moved.order_moved, c.*
         FROM here CROSS JOIN moved LEFT JOIN (
           SELECT c.*, NULL AS email FROM catalog_items c
           JOIN unnest($1::text[], $2::bigint[]) AS k(kind, id) ON c.kind = k.kind AND c.id = k.id
         ) c ON true`,
        [keys.map((k) => k.kind), keys.map((k) => k.id), ordering.through, ORDER_NEUTRAL_EVENTS],
      );
      const position = Number(rows[0]!.at_position);
      if (rows[0]!.order_moved && attempt < 3) {
        ordering = await this.#refreshOrdering(db, opts.day, position);
        continue;
      }
      if (rows[0]!.order_moved) return fullQueryPage(db, opts);
      if (this.#ordering === ordering && position > ordering.through) ordering.through = position;
      const byKey = new Map(rows.filter((r) => r.kind).map((r) => [`${r.kind}:${r.id}`, r]));
      const items = keys.flatMap((k) => byKey.get(`${k.kind}:${k.id}`) ?? []).map((r) => galleryView(r, opts.day));
      return { ...pageOf(items, ordering.keys.length, opts.page, opts.day), position };
    }
  }

  /** The day's order as last made; the page statement checks that it still holds. */
  #orderingFor(db: Queryable, day: string, seen: number): Promise<Ordering> {
    const cached = this.#ordering;
    return cached && cached.day === day ? Promise.resolve(cached) : this.#refreshOrdering(db, day, seen);
  }

  /** The day's order made at `seen` or later; requests that need no newer share one refresh. */
  async #refreshOrdering(db: Queryable, day: string, seen: number): Promise<Ordering> {
    const running = this.#orderingRefresh;
    if (running && running.atLeast >= seen) {
      const ordering = await running.promise;
      if (ordering.day === day) return ordering;
    }
    const promise = (async () => {
      const { rows } = await db.query<{ position: string; kinds: Kind[] | null; ids: string[] | null }>(
        `SELECT ${CATALOG_POSITION} AS position, array_agg(kind ORDER BY o) AS kinds, array_agg(id ORDER BY o) AS ids
         FROM (SELECT c.kind, c.id, row_number() OVER (ORDER BY ${DAY_ORDER}) AS o
               FROM catalog_items c WHERE ${VISIBLE}) c`,
        [day],
      );
      const position = Number(rows[0]!.position);
      const ids = rows[0]!.ids ?? [];
      const keys = (rows[0]!.kinds ?? []).map((kind, i) => ({ kind, id: Number(ids[i]) }));
      const ordering: Ordering = { day, through: position, keys };
      const kept = this.#ordering;
      if (!kept || kept.day !== day || kept.through <= position) this.#ordering = ordering;
      return ordering;
    })().finally(() => {
      if (this.#orderingRefresh?.promise === promise) this.#orderingRefresh = undefined;
    });
    this.#orderingRefresh = { atLeast: seen, promise };
    return promise;
  }
}

/** A page in one statement, position included: the fallback while the order keeps moving. */
async function fullQueryPage(db: Queryable, opts: { page: number; day: string }) {
  const { rows } = await db.query<CatalogRow & { total: number; at_position: string }>(
    `SELECT ${CATALOG_POSITION} AS at_position, v.* FROM (SELECT 1) one LEFT JOIN (
       SELECT c.*, NULL AS email, count(*) OVER () AS total FROM catalog_items c
       WHERE ${VISIBLE} ORDER BY ${DAY_ORDER} LIMIT $2 OFFSET $3
     ) v ON true`,
    [opts.day, PAGE_SIZE, (opts.page - 1) * PAGE_SIZE],
  );
  const found = rows.filter((r) => r.kind);
  let total = found[0]?.total ?? 0;
  if (found.length === 0 && opts.page > 1) {
    const { rows: c } = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM catalog_items c WHERE ${VISIBLE}`,
    );
    total = c[0]?.total ?? 0;
  }
  const items = found.map((r) => galleryView(r, opts.day));
  return { ...pageOf(items, Number(total), opts.page, opts.day), position: Number(rows[0]!.at_position) };
}

async function searchPage(db: Queryable, opts: { page: number; q: string; day: string }) {
  const { rows } = await db.query<CatalogRow & { total: number; at_position: string }>(
    `SELECT ${CATALOG_POSITION} AS at_position, v.* FROM (SELECT 1) one LEFT JOIN (
       SELECT c.*, NULL AS email, count(*) OVER () AS total FROM catalog_items c
       WHERE ${VISIBLE} AND strpos(c.search_text, $2) > 0
       ORDER BY ${DAY_ORDER}
       LIMIT $3 OFFSET $4
     ) v ON true`,
    [opts.day, opts.q, PAGE_SIZE, (opts.page - 1) * PAGE_SIZE],
  );
  const found = rows.filter((r) => r.kind);
  let total = found[0]?.total ?? 0;
  if (found.length === 0 && opts.page > 1) {
    const { rows: c } = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM catalog_items c WHERE ${VISIBLE} AND strpos(c.search_text, $1) > 0`,
      [opts.q],
    );
    total = c[0]?.total ?? 0;
  }
  const items = found.map((r) => galleryView(r, opts.day));
  return { ...pageOf(items, Number(total), opts.page, opts.day), position: Number(rows[0]!.at_position) };
}

/** An item as a guest's gallery page shows it on `day`: never an email or an admin's notes. */
export function galleryView(row: CatalogRow, day: string): GalleryItemView {
  return { ...toView(row, { admin: false }), card: cardImage(row), order: dayOrder(day, row.kind, row.id) };
}

function pageOf(items: GalleryItemView[], total: number, page: number, day: string): GalleryPage {
  return { day, items, total, page, pageSize: PAGE_SIZE, pageCount: Math.ceil(total / PAGE_SIZE) };
}

function encode(page: GalleryPage & { position: number }): PageAnswer {
  const { position, ...rest } = page;
  const body = Buffer.from(JSON.stringify(rest));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  let gzipped: Buffer | undefined;
  return { position, body, etag, gzip: () => (gzipped ??= gzipSync(body)) };
}
