import type pg from 'pg';
import { z } from 'zod';

/**
 * Names and free text outside the log (docs/decisions/050): an event holds the id of a
 * `personal_data` row (`titleRef`), never the value, so erasing a person blanks the row and the hash
 * chain stays as it was. Events written before (schema v1) held the values inline; they are read as
 * v2 with their refs null and the values under `inline`, shown until their stream is erased.
 */
export const PersonalRef = z.number().int().positive();

/** The fields each event type keeps as personal data, as `<field>Ref` in its data. */
export const PERSONAL_FIELDS = {
  ArtworkSubmitted: ['title', 'description', 'tags', 'artistName', 'altText'],
  MediaSubmitted: ['title', 'description', 'tags', 'artistName'],
  StorySubmitted: ['title', 'content', 'authorName'],
  CommentPosted: ['authorName', 'content'],
  // an admin's note on a decision is free text that can name people: erasable like the rest
  ArtworkApproved: ['adminNotes'],
  ArtworkRejected: ['adminNotes'],
  StoryApproved: ['adminNotes'],
  StoryRejected: ['adminNotes'],
  MediaApproved: ['adminNotes'],
  MediaRejected: ['adminNotes'],
  ArtworkEdited: ['title', 'description', 'tags', 'artistName'],
  MediaEdited: ['title', 'description', 'tags', 'artistName'],
  StoryEdited: ['title', 'content', 'authorName'],
} as const;
type WithPersonal = keyof typeof PERSONAL_FIELDS;
export type PersonalField = (typeof PERSONAL_FIELDS)[WithPersonal][number];

export const refKey = (field: PersonalField) => `${field}Ref` as const;
/** The personal_data kind a field's rows are stored as: `artistName` → `artist_name`. */
export const kindOf = (field: PersonalField) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** What a v1 event held inline, kept on the event as read (never written at v2). */
export const Inline = z.record(z.string(), z.string().nullable()).optional();

/** An artwork's or a media item's words and maker as v1 held them, inline. */
export const WORK_WORDS_V1 = {
  title: z.string().nullable(),
  description: z.string().nullable(),
  tags: z.string().nullable(),
  artistName: z.string(),
};

/** The same as v2 holds them: refs to personal_data rows (and, read from v1, the values under `inline`). */
export const WORK_WORD_REFS = {
  titleRef: PersonalRef.nullable(),
  descriptionRef: PersonalRef.nullable(),
  tagsRef: PersonalRef.nullable(),
  artistNameRef: PersonalRef.nullable(),
  inline: Inline,
};

/** A decision's note as v1 held it (inline), and as v2 holds it (a ref; read from v1, under `inline`). */
export const REVIEW_NOTES_V1 = { adminNotes: z.string().nullable() };
export const REVIEW_NOTES = { adminNotesRef: PersonalRef.nullable(), inline: Inline };

/** The upcaster from v1 (values inline) to v2 (refs): the values move under `inline`, the refs are null. */
export function inlineToRefs(fields: readonly PersonalField[]) {
  return (data: Record<string, unknown>): Record<string, unknown> => {
    const upcast: Record<string, unknown> = { ...data };
    const inline: Record<string, string | null> = {};
    for (const field of fields) {
      inline[field] = (data[field] as string | null | undefined) ?? null;
      delete upcast[field];
      upcast[refKey(field)] = null;
    }
    return { ...upcast, inline };
  };
}

/** An event's personal values as they read now: null where erased; `erased` once its stream was erased. */
export interface Personal {
  erased: boolean;
  text: Partial<Record<PersonalField, string | null>>;
}
const NOTHING: Personal = { erased: false, text: {} };

const fieldsOf = (type: string): readonly PersonalField[] => PERSONAL_FIELDS[type as WithPersonal] ?? [];

/** What `resolvePersonal` reads of a recorded event (events/store.ts), without importing the store. */
interface PersonalHolder {
  type: string;
  streamId: string;
  data: unknown;
}

/**
 * The personal values of a batch of events, in one query: a ref's current value, or a v1 event's
 * inline value unless its stream was erased. An event counts as erased when its stream was, or when
 * any of its refs was (a person's values are erased together; an imported log knows erasures this
 * way). Read models call it as they apply events, so a replay after an erasure (a rebuild, or the
 * gallery at an earlier seq) never brings the values back.
 */
export async function resolvePersonal<E extends PersonalHolder>(
  db: Pick<pg.Pool, 'query'>,
  events: readonly E[],
): Promise<(event: E) => Personal> {
  const holding = events.filter((e) => fieldsOf(e.type).length > 0);
  if (holding.length === 0) return () => NOTHING;
  const data = (e: PersonalHolder) => e.data as Record<string, unknown>;
  const refs = holding.flatMap((e) => fieldsOf(e.type).map((f) => data(e)[refKey(f)])).filter((r) => r != null);
  const { rows } = await db.query<{ values: Record<string, string | null>; gone: string[]; erased: string[] }>(
    `WITH p AS (SELECT id, value, erased_at FROM personal_data WHERE id = ANY($1::bigint[]))
     SELECT (SELECT coalesce(jsonb_object_agg(id, value), '{}') FROM p) AS values,
       ARRAY(SELECT id FROM p WHERE erased_at IS NOT NULL) AS gone,
       ARRAY(SELECT stream_id FROM erased_streams WHERE stream_id = ANY($2::text[])) AS erased`,
    [refs, [...new Set(holding.map((e) => e.streamId))]],
  );
  const { values, erased } = rows[0]!;
  const erasedStreams = new Set(erased);
  const erasedRefs = new Set(rows[0]!.gone.map(Number));
  return (event) => {
    const fields = fieldsOf(event.type);
    if (fields.length === 0) return NOTHING;
    const d = data(event);
    const refsErased = fields.some((f) => erasedRefs.has(Number(d[refKey(f)])));
    if (refsErased || erasedStreams.has(event.streamId)) return { erased: true, text: {} };
    const inline = d.inline as Record<string, string | null> | undefined;
    const text: Personal['text'] = {};
    for (const field of fields) {
      const ref = d[refKey(field)];
      text[field] = inline ? (inline[field] ?? null) : ref == null ? null : (values[String(ref)] ?? null);
    }
    return { erased: false, text };
  };
}

export const REF_KEYS = [...new Set(Object.values(PERSONAL_FIELDS).flat().map(refKey))];

/**
 * For history and export (`events e`): each personal ref of the event with its current value (null
 * once erased), as `{ titleRef: "…" }`. Not covered by the hash, like the actor's name; emails and
 * addresses are never included.
 */
export const PERSONAL_VALUES_SQL = `(SELECT jsonb_object_agg(j.key, p.value) FROM jsonb_each_text(e.data) j
    JOIN personal_data p ON p.id = CASE WHEN j.value ~ '^\\d{1,18}$' THEN j.value::bigint END
    WHERE j.key IN (${REF_KEYS.map((k) => `'${k}'`).join(', ')}))`;

/** The personal_data kind of a `<field>Ref` key, for restoring an export's values. */
export const kindOfRefKey = (key: string): string | undefined => {
  const field = REF_KEYS.includes(key as (typeof REF_KEYS)[number]) ? (key.slice(0, -3) as PersonalField) : undefined;
  return field && kindOf(field);
};
