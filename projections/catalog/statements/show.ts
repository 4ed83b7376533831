import type { DomainEvent } from '#events/catalog.ts';
import type { Change, Statements } from './statement.ts';

/** Screens follow every change of the show (`show:changed`). */
const showChanged = (): Change[] => [{ what: 'show' }];

type ShowType = Extract<
  DomainEvent['type'],
  'ShowStarted' | 'ShowMoved' | 'ShowItemQueued' | 'ShowPaused' | 'ShowResumed' | 'ShowStopped' | 'ReactionsCounted'
>;

/** Sets some columns of the one show row (made on first use: a rebuild starts with none). */
const setShow = (columns: Record<string, string>, recordset: string) => {
  const names = Object.keys(columns);
  return `INSERT INTO catalog_show AS s (id, ${names.join(', ')}, last_position)
    SELECT 1, ${Object.values(columns).join(', ')}, r.at FROM jsonb_to_recordset($1::jsonb) AS r(${recordset}, at bigint)
    ON CONFLICT (id) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}, last_position = EXCLUDED.last_position`;
};

/** The show's statements all set state, so only the last of a run counts (`lastPerItem` on the one row). */
const state = (value: 'running' | 'paused') => ({
  sql: setShow({ state: `'${value}'` }, 'id int'),
  row: ({ position }: { position: number }) => ({ id: 1, at: position }),
  heard: showChanged,
  lastPerItem: true,
});

export const showStatements: Statements<ShowType> = {
  ShowStarted: {
    sql: setShow({ state: `'running'`, items: 'r.items', idx: 'r.idx' }, 'id int, items jsonb, idx int'),
    row: ({ data, position }) => ({ id: 1, items: data.items, idx: data.index, at: position }),
    lastPerItem: true,
    heard: showChanged,
  },
  ShowMoved: {
    sql: setShow({ idx: 'r.idx' }, 'id int, idx int'),
    row: ({ data, position }) => ({ id: 1, idx: data.index, at: position }),
    lastPerItem: true,
    heard: showChanged,
  },
  ShowItemQueued: {
    sql: setShow({ items: 'r.items' }, 'id int, items jsonb'),
    row: ({ data, position }) => ({ id: 1, items: data.items, at: position }),
    lastPerItem: true,
    heard: showChanged,
  },
  ShowPaused: state('paused'),
  ShowResumed: state('running'),
  ShowStopped: {
    sql: setShow({ state: `'idle'`, items: `'[]'::jsonb`, idx: '0' }, 'id int'),
    row: ({ position }) => ({ id: 1, at: position }),
    lastPerItem: true,
    heard: showChanged,
  },
  /** Adds each batch's taps to the item's totals, emoji by emoji. */
  ReactionsCounted: {
    sql: `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(kind text, id bigint, counts jsonb, at bigint)),
          taps AS (SELECT r.kind, r.id, e.key AS emoji, sum(e.value::int) AS n
                   FROM r, jsonb_each_text(r.counts) e GROUP BY r.kind, r.id, e.key),
          added AS (SELECT kind, id, jsonb_object_agg(emoji, n) AS counts FROM taps GROUP BY kind, id),
          latest AS (SELECT kind, id, max(at) AS at FROM r GROUP BY kind, id)
        UPDATE catalog_items c SET reactions = (
            SELECT coalesce(jsonb_object_agg(k, total), '{}'::jsonb) FROM (
              SELECT k, sum(v::int) AS total FROM (
                SELECT key AS k, value AS v FROM jsonb_each_text(c.reactions)
                UNION ALL SELECT key, value FROM jsonb_each_text(a.counts)) u GROUP BY k) t),
          last_position = greatest(c.last_position, l.at)
        FROM added a JOIN latest l USING (kind, id) WHERE c.kind = a.kind AND c.id = a.id`,
    row: ({ data, position }) => ({ kind: data.kind, id: data.itemId, counts: data.counts, at: position }),
    heard: ({ data: d }) => [{ what: 'reactions', kind: d.kind, id: d.itemId, counts: d.counts }],
  },
};
