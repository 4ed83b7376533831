import type pg from 'pg';
import { handleCommand } from '#events/handle.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { PERSONAL_FIELDS } from '#events/personal.ts';
import type { EventStore } from '#events/store.ts';
import { subjectDecider, subjectStream } from '#events/subjects/subject.ts';
import type { Kind } from '#projections/catalog/items.ts';
import { removeItemFiles, type ItemFiles } from './kinds.ts';
import type { BlobStore } from './storage/index.ts';

/** A person, found by an email they gave or by their browser's visitor id. */
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
  return { ...erasure, items: items.length };
}

async function eraseInLog(store: EventStore, person: Person, metadata: EventMetadata) {
  const email = 'email' in person ? person.email.toLowerCase() : null;
  const visitorId = 'visitorId' in person ? person.visitorId : null;
  return store.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ id: number }>(
      `SELECT id FROM subjects WHERE erased_at IS NULL AND (visitor_id::text = $2::text OR id IN (
         SELECT subject_id FROM personal_data WHERE kind = 'email' AND lower(value) = $1::text AND subject_id IS NOT NULL))
       ORDER BY id`,
      [email, visitorId],
    );
    const subjects = found.map((r) => r.id);
    // v1 events: named work by the email, and whatever the same browsers wrote then
    const { rows: legacy } = await tx.query<{ stream_id: string }>(
      `WITH named AS (
         SELECT stream_id, metadata->>'visitorId' AS visitor FROM events
         WHERE schema_version = 1 AND type = ANY($3::text[])
           AND (data->>'emailRef')::bigint IN (SELECT id FROM personal_data WHERE kind = 'email' AND lower(value) = $1::text)),
       visitors AS (
         SELECT visitor FROM named WHERE visitor IS NOT NULL
         UNION SELECT $2::text WHERE $2::text IS NOT NULL
         UNION SELECT visitor_id::text FROM subjects WHERE id = ANY($4::bigint[]) AND visitor_id IS NOT NULL)
       SELECT stream_id FROM named
       UNION
       SELECT stream_id FROM events
       WHERE schema_version = 1 AND type = ANY($3::text[]) AND metadata->>'visitorId' IN (SELECT visitor FROM visitors)
         AND NOT coalesce((data->>'isAnonymous')::boolean, false)`,
      [email, visitorId, HOLDING, subjects],
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
      `UPDATE personal_data SET value = NULL, erased_at = now()
       WHERE erased_at IS NULL AND (subject_id = ANY($1::bigint[]) OR (kind = 'email' AND lower(value) = $2::text))`,
      [subjects, email],
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
      erasure: { subjects: subjects.length, streams: streams ?? 0, values: values ?? 0, position },
      items: files,
    };
  });
}

/**
 * Blanks a deleted item's names and words and those of the comments posted on it, in the delete's
 * transaction (decision 050's addendum): history and export show them as erased. The email row stays,
 * for a later erasure by email to find; the delete event says what was deleted, when and by whom.
 */
export async function blankDeletedItem(tx: pg.PoolClient, kind: string, id: number, stream: string): Promise<number> {
  const { rowCount } = await tx.query(
    `UPDATE personal_data SET value = NULL, erased_at = now()
     WHERE erased_at IS NULL AND kind <> 'email' AND (stream_id = $1 OR stream_id IN (
       SELECT stream_id FROM events
       WHERE type = 'CommentPosted' AND data->>'kind' = $2 AND (data->>'itemId')::bigint = $3))`,
    [stream, kind, id],
  );
  return rowCount ?? 0;
}
