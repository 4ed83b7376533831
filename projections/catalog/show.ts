import type pg from 'pg';
import {
  isSubmission,
  type ReactionCounts,
  type ShowAnswer,
  type ShowItemRef,
  type ShowState,
  type ShowStatus,
} from '#contract/live.ts';
import type { Kind } from './items.ts';

type Queryable = Pick<pg.Pool, 'query'>;

export interface ShowRow extends ShowStatus {
  items: ShowItemRef[];
}

const IDLE: ShowRow = { state: 'idle', current: null, index: 0, total: 0, items: [] };

/** The show as the catalog has folded it. */
export async function readShow(db: Queryable): Promise<ShowRow> {
  const { rows } = await db.query<{ state: ShowState; items: ShowItemRef[]; idx: number }>(
    `SELECT state, items, idx FROM catalog_show WHERE id = 1`,
  );
  const row = rows[0];
  if (!row || row.state === 'idle') return IDLE;
  return {
    state: row.state,
    current: row.items[row.idx] ?? null,
    index: row.idx,
    total: row.items.length,
    items: row.items,
  };
}

/** The status part of a show, as `show:changed` carries it. */
export const statusOf = ({ state, current, index, total }: ShowRow): ShowStatus => ({ state, current, index, total });

/** An item's reaction totals. */
export async function reactionTotals(db: Queryable, kind: string, id: number): Promise<ReactionCounts> {
  const { rows } = await db.query<{ reactions: ReactionCounts }>(
    `SELECT reactions FROM catalog_items WHERE kind = $1 AND id = $2`,
    [kind, id],
  );
  return rows[0]?.reactions ?? {};
}

/** How many of the items to come `GET /api/show` lists. */
const UP_NEXT = 10;

/** The show as the catalog holds it, with the catalog position it reflects (one snapshot). */
export async function readShowAnswer(db: Queryable): Promise<ShowAnswer> {
  const { rows } = await db.query<{
    state: ShowState | null;
    items: ShowItemRef[] | null;
    idx: number | null;
    position: string;
  }>(
    `SELECT s.state, s.items, s.idx, catalog_position() AS position
     FROM (SELECT 1) one LEFT JOIN catalog_show s ON s.id = 1`,
  );
  const row = rows[0]!;
  const position = Number(row.position);
  if (!row.state || row.state === 'idle') {
    return { state: 'idle', current: null, index: 0, total: 0, upNext: [], position };
  }
  const items = row.items ?? [];
  const index = row.idx ?? 0;
  return {
    state: row.state,
    current: items[index] ?? null,
    index,
    total: items.length,
    upNext: (await stillThere(db, items.slice(index + 1))).slice(0, UP_NEXT),
    position,
  };
}

/** Of the deck's items, those the catalog still holds: a withdrawn or deleted one is skipped (decision 089); the mural and the montage stay. */
async function stillThere(db: Queryable, items: ShowItemRef[]): Promise<ShowItemRef[]> {
  const submissions = items.filter(isSubmission);
  if (submissions.length === 0) return items;
  const { rows } = await db.query<{ kind: string; id: number }>(
    `SELECT kind, id::int AS id FROM catalog_items WHERE (kind, id) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
    [submissions.map((i) => i.kind), submissions.map((i) => i.id)],
  );
  const held = new Set(rows.map((r) => `${r.kind}-${r.id}`));
  return items.filter((i) => !isSubmission(i) || held.has(`${i.kind}-${i.id}`));
}

/** Every approved item in the reveal's order of `day` (the gallery's order of the day), as the show's list. */
export async function readDeck(db: Queryable, day: string): Promise<Array<{ kind: Kind; id: number }>> {
  const { rows } = await db.query<{ kind: Kind; id: number }>(
    `SELECT c.kind, c.id::int AS id FROM catalog_items c
     WHERE c.status = 'approved' AND NOT c.archived
     ORDER BY md5($1 || ':' || c.kind || ':' || c.id), c.kind, c.id`,
    [day],
  );
  return rows;
}

/** Whether the show, running or paused, holds the item. */
export async function isInShow(db: Queryable, item: { kind: string; id: number }): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM catalog_show
     WHERE id = 1 AND state <> 'idle'
       AND items @> jsonb_build_array(jsonb_build_object('kind', $1::text, 'id', $2::int))`,
    [item.kind, item.id],
  );
  return rows.length > 0;
}
