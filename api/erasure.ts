import type pg from 'pg';
import { EMAIL_FINDER_HOLDS, NAME_DIGEST } from '#events/finders.ts';
import { handleCommand } from '#events/handle.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { PERSONAL_FIELDS } from '#events/personal.ts';
import type { EventStore } from '#events/store.ts';
import { subjectDecider, subjectStream } from '#events/subjects/subject.ts';
import type { Kind } from '#projections/catalog/items.ts';
import { removeItemFiles, type ItemFiles } from './kinds.ts';
import { takeDownFilmWith } from './montage/montageRun.ts';
import type { BlobStore } from './storage/index.ts';

/** A person, found by an email they gave (what they sent under it) or by a browser's visitor id (all it wrote). */
export type Person = { email: string } | { visitorId: string };

export interface Erasure {
  /** the subjects erased (one per browser the person wrote from) */
  subjects: number;
  /** items and comments taken out of the read models */
  streams: number;
  /** personal_data values blanked */
  values: number;
  /** the named items that left the gallery, whose files were removed */
  items: number;
  /** the log position of the last SubjectErased (none when no one was found), for read-your-writes */
  position?: number;
}

const HOLDING = Object.keys(PERSONAL_FIELDS);

/**
 * Erases a person (docs/decisions/050): every value tied to their subjects (names, titles, words,
 * emails) is blanked, the streams of their named work and comments are recorded as erased, and one
 * SubjectErased per subject is appended, all in one transaction. Their anonymous stories belong to no
 * subject and stay, unlinked. Events written before decision 050 (v1) are found by the email's ref
 * and the visitor id their metadata kept; their inline values are never shown again. Once committed,
 * the files of the named items that left the gallery are removed from the blob store.
 */
export async function erasePerson(
  store: EventStore,
  blobs: BlobStore,
  person: Person,
  metadata: EventMetadata,
): Promise<Erasure> {
  const { erasure, items } = await eraseInLog(store, person, metadata);
  // their named items' images and media files go once the erasure is committed, as a delete's do
  await removeItemFiles(blobs, items);
  // and the montage that shows their name on a title card
  const media = items.filter((item) => item.kind === 'media').map((item) => item.id);
  const film = media.length > 0 ? await takeDownFilmWith(store.pool, media) : null;
  if (film) await blobs.delete(film);
  return { ...erasure, items: items.length };
}

type Tx = pg.PoolClient;

/**
 * The streams of a person found by email (CONTRACT §9, decision 074): what was sent under that email,
 * and what the same browsers sent under the names given with it (their comments, a story signed the
 * same way). Never the rest of those browsers' work: a kiosk or a borrowed phone is shared by
 * colleagues, each under their own email and name. Events written before decision 050 (v1) likewise:
 * named work by the email's ref, and the same browsers' work under the same names. Streams brought
 * in by an import have no email and no browser: they are found by the finders the backup carried
 * (decision 112), the email by its salted digest and the same browser's name by its signer.
 */
async function streamsOfEmail(tx: Tx, email: string) {
  const { rows } = await tx.query<{ stream_id: string; names: string[] }>(
    `WITH sent AS (
       SELECT stream_id, subject_id FROM personal_data p
       WHERE p.stream_id IS NOT NULL AND p.value IS NOT NULL
         AND ((p.kind = 'email' AND lower(p.value) = $1) OR ${EMAIL_FINDER_HOLDS('$1')})),
     names AS (
       SELECT DISTINCT CASE WHEN p.kind = 'signed_name' THEN p.value ELSE ${NAME_DIGEST('p.value')} END AS digest
       FROM personal_data p JOIN sent s ON s.stream_id = p.stream_id
       WHERE p.kind IN ('artist_name', 'author_name', 'signed_name') AND p.value IS NOT NULL),
     signed AS (
       SELECT p.stream_id FROM personal_data p
       WHERE p.subject_id IN (SELECT subject_id FROM sent WHERE subject_id IS NOT NULL)
         AND p.kind IN ('artist_name', 'author_name') AND ${NAME_DIGEST('p.value')} IN (SELECT digest FROM names)
         AND p.stream_id IS NOT NULL
       UNION
       SELECT p.stream_id FROM personal_data p
       WHERE p.kind = 'signer' AND p.stream_id IS NOT NULL AND p.value IN (
         SELECT f.value FROM personal_data f JOIN sent s ON s.stream_id = f.stream_id WHERE f.kind = 'signer'))
     SELECT stream_id, ARRAY(SELECT digest FROM names) AS names FROM (SELECT stream_id FROM sent UNION SELECT stream_id FROM signed) s`,
    [email],
  );
  const { rows: legacy } = await tx.query<{ stream_id: string; name: string | null }>(
    `WITH named AS (
       SELECT stream_id, metadata->>'visitorId' AS visitor, lower(coalesce(data->>'artistName', data->>'authorName')) AS name
       FROM events
       WHERE schema_version = 1 AND type = ANY($2::text[])
         AND (data->>'emailRef')::bigint IN (SELECT id FROM personal_data WHERE kind = 'email' AND lower(value) = $1::text))
     SELECT stream_id, ${NAME_DIGEST('name')} AS name FROM named
     UNION
     SELECT e.stream_id, ${NAME_DIGEST("e.data->>'artistName'", "e.data->>'authorName'")} FROM events e
     JOIN named n ON n.visitor = e.metadata->>'visitorId' AND n.name = lower(coalesce(e.data->>'artistName', e.data->>'authorName'))
     WHERE e.schema_version = 1 AND e.type = ANY($2::text[]) AND NOT coalesce((e.data->>'isAnonymous')::boolean, false)`,
    [email, HOLDING],
  );
  const names = new Set([...(rows[0]?.names ?? []), ...legacy.flatMap((r) => (r.name ? [r.name] : []))]);
  return { streams: [...new Set([...rows, ...legacy].map((r) => r.stream_id))], names: [...names] };
}

async function eraseInLog(store: EventStore, person: Person, metadata: EventMetadata) {
  return store.transaction(async (tx) => {
    let subjects: number[];
    if ('email' in person) {
      const email = person.email.toLowerCase();
      const { streams, names } = await streamsOfEmail(tx, email);
      // the erasure is carried by a subject of its own: the browsers it was sent from stay, with the rest of their work
      subjects = [];
      if (streams.length > 0) {
        const { rows } = await tx.query<{ id: number }>(`INSERT INTO subjects (erased_at) VALUES (now()) RETURNING id`);
        subjects.push(rows[0]!.id);
        await tx.query(
          `INSERT INTO erased_streams (stream_id, subject_id) SELECT unnest($1::text[]), $2
           ON CONFLICT (stream_id) DO NOTHING`,
          [streams, subjects[0]],
        );
      }
      // their values, every copy of the email, and a login name they gave that is one of those names
      const { rowCount } = await tx.query(
        `UPDATE personal_data SET value = NULL, erased_at = now()
         WHERE erased_at IS NULL AND (stream_id = ANY($1::text[]) OR (kind = 'email' AND lower(value) = $2::text)
               OR (kind = 'name' AND ${NAME_DIGEST('value')} = ANY($3::text[])))`,
        [streams, email, names],
      );
      return finish(tx, store, subjects, { streams: streams.length, values: rowCount ?? 0 }, metadata);
    }
    return eraseVisitor(tx, store, person.visitorId, metadata);
  });
}

/** A browser's visitor id: everything that browser wrote (the operator asked for exactly that). */
async function eraseVisitor(tx: Tx, store: EventStore, visitorId: string, metadata: EventMetadata) {
  const { rows: found } = await tx.query<{ id: number }>(
    `SELECT id FROM subjects WHERE erased_at IS NULL AND visitor_id::text = $1::text ORDER BY id`,
    [visitorId],
  );
  const subjects = found.map((r) => r.id);
  // v1 events: whatever the browser wrote then, its anonymous stories aside
  const { rows: legacy } = await tx.query<{ stream_id: string }>(
    `SELECT stream_id FROM events
     WHERE schema_version = 1 AND type = ANY($2::text[]) AND metadata->>'visitorId' = $1::text
       AND NOT coalesce((data->>'isAnonymous')::boolean, false)`,
    [visitorId, HOLDING],
  );
  if (subjects.length === 0 && legacy.length > 0) {
    // the erasure of a person known only from v1 events still needs a subject to carry it
    const { rows } = await tx.query<{ id: number }>(`INSERT INTO subjects DEFAULT VALUES RETURNING id`);
    subjects.push(rows[0]!.id);
  }
  const { rowCount: streams } = await tx.query(
    `INSERT INTO erased_streams (stream_id, subject_id)
     SELECT DISTINCT ON (stream_id) stream_id, subject_id FROM (
       SELECT stream_id, subject_id FROM personal_data WHERE subject_id = ANY($1::bigint[]) AND stream_id IS NOT NULL
       UNION ALL SELECT unnest($2::text[]), $1[1]
     ) s ORDER BY stream_id, subject_id
     ON CONFLICT (stream_id) DO NOTHING`,
    [subjects, legacy.map((r) => r.stream_id)],
  );
  const { rowCount: values } = await tx.query(
    `UPDATE personal_data SET value = NULL, erased_at = now() WHERE erased_at IS NULL AND subject_id = ANY($1::bigint[])`,
    [subjects],
  );
  // the browser's link to everything it sent, its anonymous stories too (decision 087)
  await tx.query(`DELETE FROM contributions WHERE visitor_id::text = $1::text`, [visitorId]);
  return finish(tx, store, subjects, { streams: streams ?? 0, values: values ?? 0 }, metadata);
}

/** Forgets the subjects' browsers, appends one SubjectErased each, and lists the named items that left. */
async function finish(
  tx: Tx,
  store: EventStore,
  subjects: number[],
  counts: { streams: number; values: number },
  metadata: EventMetadata,
) {
  // the erased items are no one's contributions any more (decision 087)
  await tx.query(
    `DELETE FROM contributions WHERE stream_id IN (SELECT stream_id FROM erased_streams WHERE subject_id = ANY($1::bigint[]))`,
    [subjects],
  );
  // the browser, if it writes again, is a new subject with nothing of the old one
  await tx.query(`UPDATE subjects SET visitor_id = NULL, erased_at = now() WHERE id = ANY($1::bigint[])`, [subjects]);
  let position: number | undefined;
  for (const subjectId of subjects) {
    const command = { type: 'EraseSubject', subjectId, now: metadata.now } as const;
    ({ lastPosition: position } = await handleCommand(
      store,
      subjectStream(subjectId),
      subjectDecider,
      command,
      metadata,
      {
        tx,
      },
    ));
  }
  const { rows: items } = await tx.query<{ kind: Kind; id: number; upload_key: string | null }>(
    `SELECT m[1] AS kind, m[2]::bigint AS id, (
       SELECT data->'file'->>'key' FROM events
       WHERE stream_id = s.stream_id AND type = 'MediaSubmitted' ORDER BY position LIMIT 1) AS upload_key
     FROM erased_streams s, regexp_match(s.stream_id, '^(artwork|story|media)-(\\d+)$') m
     WHERE s.subject_id = ANY($1::bigint[]) AND m IS NOT NULL ORDER BY s.stream_id`,
    [subjects],
  );
  const files: ItemFiles[] = items.map((r) => ({ kind: r.kind, id: Number(r.id), uploadKey: r.upload_key }));
  return {
    erasure: { subjects: subjects.length, ...counts, position },
    items: files,
  };
}

/**
 * Blanks a deleted item's names and words and those of the comments posted on it, in the delete's
 * transaction (decision 050's addendum): history and export show them as erased. The email row stays,
 * for a later erasure by email to find, and beside it a digest of the name the item was signed with
 * (`signed_name`), so that erasure still finds the comments the person signed with that name
 * (decision 085); both are blanked with the rest when that erasure comes. The delete event says what
 * was deleted, when and by whom.
 */
export async function blankDeletedItem(tx: pg.PoolClient, kind: string, id: number, stream: string): Promise<number> {
  await tx.query(
    `INSERT INTO personal_data (kind, value, subject_id, stream_id)
     SELECT 'signed_name', ${NAME_DIGEST('p.value')}, p.subject_id, p.stream_id FROM personal_data p
     WHERE p.stream_id = $1 AND p.kind IN ('artist_name', 'author_name') AND p.value IS NOT NULL
       AND EXISTS (SELECT 1 FROM personal_data e
                   WHERE e.stream_id = $1 AND e.kind IN ('email', 'email_finder') AND e.value IS NOT NULL)`,
    [stream],
  );
  const { rowCount } = await tx.query(
    `UPDATE personal_data SET value = NULL, erased_at = now()
     WHERE erased_at IS NULL AND kind NOT IN ('email', 'signed_name', 'email_finder', 'signer') AND (stream_id = $1 OR stream_id IN (
       SELECT stream_id FROM events
       WHERE type = 'CommentPosted' AND data->>'kind' = $2 AND (data->>'itemId')::bigint = $3))`,
    [stream, kind, id],
  );
  return rowCount ?? 0;
}
