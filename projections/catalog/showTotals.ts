import type pg from 'pg';
import { MONTAGE_ITEM, MURAL_ITEM, type ReactionCounts, type ShowItemRef, type ShowStatus } from '#contract/live.ts';
import { readShow } from './show.ts';

type Queryable = Pick<pg.Pool, 'query'>;

export interface ShowItemTotals extends ShowItemRef {
  /** what the item is called on its card: its title, a story's opening words, or its kind and id */
  title: string;
  /** the item's reaction totals so far */
  reactions: ReactionCounts;
}

export interface ShowWithTotals extends ShowStatus {
  /** the show's items in its order, each with its reaction totals */
  items: ShowItemTotals[];
}

/**
 * The show as the catalog has folded it, with each of its items' names and reaction totals: what the
 * audit console shows of the reveal at a seq (decision 044). The mural (decision 046), and an item the
 * catalog no longer holds, keep their place with no totals.
 */
export async function readShowWithTotals(db: Queryable): Promise<ShowWithTotals> {
  const { items, ...status } = await readShow(db);
  if (items.length === 0) return { ...status, items: [] };
  const { rows } = await db.query<{ kind: string; id: number; title: string; reactions: ReactionCounts }>(
    `SELECT c.kind, c.id::int AS id, c.reactions,
       coalesce(nullif(c.title, ''), left(c.content, 40), c.kind || ' ' || c.id) AS title
     FROM catalog_items c
     JOIN jsonb_to_recordset($1::jsonb) AS x(kind text, id bigint) ON c.kind = x.kind AND c.id = x.id`,
    [JSON.stringify(items)],
  );
  const found = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r]));
  return {
    ...status,
    items: items.map((item) => {
      const row = found.get(`${item.kind}:${item.id}`);
      const fallback =
        item.kind === MURAL_ITEM.kind
          ? 'The mural'
          : item.kind === MONTAGE_ITEM.kind
            ? "The film of everyone's messages"
            : `${item.kind} ${item.id}`;
      return { ...item, title: row?.title ?? fallback, reactions: row?.reactions ?? {} };
    }),
  };
}
