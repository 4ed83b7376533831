import type { DomainEvent } from '#events/catalog.ts';
import type { RecordedEvent } from '#events/store.ts';

export type Row = Record<string, unknown>;

/**
 * How one event type changes the catalog: a set-based statement over a run of such events, given as
 * JSON rows in $1 (read with jsonb_to_recordset). `lastPerItem` statements set state, so only the last
 * event per item in a run matters; the others (counters, inserts) take every row.
 */
export interface Statement<T extends DomainEvent['type'] = DomainEvent['type']> {
  sql: string;
  row(event: RecordedEvent<Extract<DomainEvent, { type: T }>>): Row;
  lastPerItem?: boolean;
}

export type Statements<T extends DomainEvent['type']> = { [K in T]: Statement<K> };

export const searchText = (...parts: Array<string | null | undefined>) =>
  parts
    .filter((p): p is string => !!p)
    .join('\n')
    .toLowerCase();

/** The columns an artwork's or a media item's submission fills alike. */
export const submittedColumns = (
  d: {
    title: string | null;
    description: string | null;
    tags: string | null;
    artistName: string;
    emailRef: number;
    submittedAt: string;
  },
  position: number,
) => ({
  title: d.title,
  description: d.description,
  tags: d.tags,
  artist_name: d.artistName,
  email_ref: d.emailRef,
  created_at: d.submittedAt,
  search_text: searchText(d.title, d.description, d.tags, d.artistName),
  at: position,
});

/** Approval and rejection read the same for every kind. */
export function reviewSql(kind: string) {
  return {
    approved: `UPDATE catalog_items c SET status = 'approved', admin_notes = r.notes, approved_at = r.at_time, last_position = r.at
      FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, notes text, at_time timestamptz, at bigint)
      WHERE c.kind = '${kind}' AND c.id = r.id`,
    rejected: `UPDATE catalog_items c SET status = 'rejected', admin_notes = r.notes, approved_at = NULL, last_position = r.at
      FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, notes text, at bigint)
      WHERE c.kind = '${kind}' AND c.id = r.id`,
  };
}

/** Deleting an item takes its comments and likes with it. */
export function deleteSql(kind: string) {
  return `WITH r AS (SELECT id FROM jsonb_to_recordset($1::jsonb) AS r(id bigint)),
      comments AS (DELETE FROM catalog_comments c USING r WHERE c.kind = '${kind}' AND c.item_id = r.id),
      likes AS (DELETE FROM catalog_likes l USING r WHERE l.kind = '${kind}' AND l.item_id = r.id)
    DELETE FROM catalog_items c USING r WHERE c.kind = '${kind}' AND c.id = r.id`;
}
