import type { DomainEvent } from '#events/catalog.ts';
import type { Personal } from '#events/personal.ts';
import type { RecordedEvent } from '#events/store.ts';
import type { Kind } from '#contract/views.ts';
import type { ReactionCounts } from '#contract/live.ts';
import type { ContributionStatus } from '#contract/mine.ts';
import type { MuralChange } from '../mural.ts';

export type Row = Record<string, unknown>;

/**
 * What open screens hear of one event, declared by the statement that changes the read model for it
 * (`Statement.heard`). The live outbox (projections/live/) turns each into its message, read from the
 * read model as the batch leaves it, in the same transaction as the statement: `mine` goes to the
 * sender's own screens only, `forget` and `erased` also take what was said of the items out of the
 * catch-up buffer (decision 073).
 */
export type Change =
  | { what: 'added' | 'removed' | 'queue' | 'likes'; kind: Kind; id: number }
  | { what: 'comment-added' | 'comment-removed'; kind: Kind; id: number; commentId: number }
  | { what: 'show' }
  | MuralChange
  | { what: 'reactions'; kind: Kind; id: number; counts: ReactionCounts }
  | { what: 'captions'; kind: 'media'; id: number }
  | ErasedChange
  | MineChange
  | ForgetChange;

/** A person erased (decision 050): their items and comments leave every screen and are forgotten. */
export type ErasedChange = { what: 'erased'; subjectId: number };
/** The item's status as its sender's screens show it (`mine:changed`, CONTRACT §11). */
export type MineChange = { what: 'mine'; kind: Kind; id: number; status: ContributionStatus };
/** The item is gone from the log's readers for good: what was said of it is forgotten. */
export type ForgetChange = { what: 'forget'; kind: Kind; id: number };

/** A moderation change: the admin queue moves, and the gallery gains or loses the item if it says so. */
export const moderated = (kind: Kind, id: number, gallery?: 'added' | 'removed'): Change[] => [
  ...(gallery ? [{ what: gallery, kind, id }] : []),
  { what: 'queue', kind, id },
];

/** The browser that sent the item hears it decided or withdrawn, and no one else does. */
export const toSender = (kind: Kind, id: number, status: ContributionStatus): Change => ({
  what: 'mine',
  kind,
  id,
  status,
});

/** A delete or a withdrawal: the outbox forgets what it said of the item (its arrival, likes, comments). */
export const forgotten = (kind: Kind, id: number): Change => ({ what: 'forget', kind, id });

/** An event no open screen hears of (a rendition made, a view counted). */
export const unheard = (): Change[] => [];

/**
 * How one event type changes the catalog: a set-based statement over a run of such events, given as
 * JSON rows in $1 (read with jsonb_to_recordset). `lastPerItem` statements set state, so only the last
 * event per item in a run matters; the others (counters, inserts) take every row. An event with
 * personal fields gets their values as they read now (`personal`); its row is null once erased, and
 * the event then changes nothing (docs/decisions/050).
 */
export interface Statement<T extends DomainEvent['type'] = DomainEvent['type']> {
  sql: string;
  row(event: RecordedEvent<Extract<DomainEvent, { type: T }>>, personal: Personal): Row | null;
  /** what open screens hear of the event: the live outbox writes it in the same transaction */
  heard(event: RecordedEvent<Extract<DomainEvent, { type: T }>>): Change[];
  lastPerItem?: boolean;
}

export type Statements<T extends DomainEvent['type']> = { [K in T]: Statement<K> };

export const searchText = (...parts: Array<string | null | undefined>) =>
  parts
    .filter((p): p is string => !!p)
    .join('\n')
    .toLowerCase();

/** The columns an artwork's or a media item's submission fills alike; null once erased. */
export const submittedColumns = (
  d: { emailRef: number; submittedAt: string },
  personal: Personal,
  position: number,
) => {
  if (personal.erased) return null;
  const { title = null, description = null, tags = null, artistName = null } = personal.text;
  return {
    title,
    description,
    tags,
    artist_name: artistName ?? '',
    email_ref: d.emailRef,
    created_at: d.submittedAt,
    search_text: searchText(title, description, tags, artistName),
    at: position,
  };
};

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

/** A sender's edit of an artwork's or a media item's words (CONTRACT §11): the new values, null once erased. */
export function editedWorkSql(kind: string) {
  return `UPDATE catalog_items c SET title = r.title, description = r.description, tags = r.tags,
      artist_name = r.artist_name, search_text = r.search_text, last_position = r.at
    FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, title text, description text, tags text, artist_name text,
      search_text text, at bigint)
    WHERE c.kind = '${kind}' AND c.id = r.id`;
}

export const editedWorkColumns = (id: number, personal: Personal, position: number) => {
  if (personal.erased) return null;
  const { title = null, description = null, tags = null, artistName = null } = personal.text;
  const search_text = searchText(title, description, tags, artistName);
  return { id, title, description, tags, artist_name: artistName ?? '', search_text, at: position };
};
