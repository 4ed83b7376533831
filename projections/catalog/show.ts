import type pg from 'pg';
import type { ReactionCounts, ShowItemRef, ShowState, ShowStatus } from '#contract/live.ts';

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
