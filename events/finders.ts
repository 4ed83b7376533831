import type { Finders } from '../contract/logLine.ts';

/**
 * What an erasure by email finds a person by, and how a backup export carries it (decision 112).
 *
 * In a database that took the writes, an erasure by email finds the streams sent under the email, the
 * names given with them, and the same browsers' streams signed with those names (decision 074). None of
 * that is in the log: emails and browsers are never exported, and a deleted item keeps only a digest
 * of its name (decision 085). A backup export therefore gives, on each stream's first line:
 * - `emails`: `salt:SHA-256(salt || lowercased email)` with the email row's own salt, so a later
 *   erasure can test an email it is given, and nobody can read one back (an anonymous story's is
 *   never given: a guess must not unmask it);
 * - `signers`: SHA-256 of the database's pseudonym secret (never exported), the subject and the
 *   name's digest: streams signed by one browser under one name share a signer, with no way back to
 *   the browser or across names.
 * Import keeps them as `email_finder` and `signer` rows of personal data on the stream: erased with
 * the stream, and given again by the next export until then.
 */

/** A name as erasures compare it: SHA-256 of the lowercased name (the first of the expressions not null). */
export const NAME_DIGEST = (...expressions: string[]) =>
  `encode(sha256(convert_to(lower(coalesce(${expressions.join(', ')})), 'UTF8')), 'hex')`;

/** For `events e`: the finders of the event's stream on its first event, null elsewhere or when none. */
export const FINDERS_SQL = `CASE WHEN e.stream_version = 1 THEN (SELECT nullif(jsonb_strip_nulls(jsonb_build_object(
    'emails', (SELECT jsonb_agg(f ORDER BY f) FROM (
        SELECT p.salt || ':' || encode(sha256(convert_to(p.salt || lower(p.value), 'UTF8')), 'hex') AS f
        FROM personal_data p
        WHERE p.stream_id = e.stream_id AND p.kind = 'email' AND p.value IS NOT NULL AND p.salt IS NOT NULL
          AND NOT coalesce((e.data->>'isAnonymous')::boolean, false)
        UNION SELECT p.value FROM personal_data p
        WHERE p.stream_id = e.stream_id AND p.kind = 'email_finder' AND p.value IS NOT NULL) f),
    'signers', (SELECT jsonb_agg(s ORDER BY s) FROM (
        SELECT encode(sha256(convert_to(k.secret || ':' || p.subject_id || ':' ||
          CASE WHEN p.kind = 'signed_name' THEN p.value ELSE ${NAME_DIGEST('p.value')} END, 'UTF8')), 'hex') AS s
        FROM personal_data p, pseudonym_key k
        WHERE p.stream_id = e.stream_id AND p.kind IN ('artist_name', 'author_name', 'signed_name')
          AND p.value IS NOT NULL AND p.subject_id IS NOT NULL
        UNION SELECT p.value FROM personal_data p
        WHERE p.stream_id = e.stream_id AND p.kind = 'signer' AND p.value IS NOT NULL) s)
  )), '{}'::jsonb)) END`;

/** A personal_data row (`email_finder` or `signer`) that import restores from a line's finders. */
export interface FinderRow {
  kind: 'email_finder' | 'signer';
  value: string;
  stream: string;
}

const HEX = /^[0-9a-f]{64}$/;

/** The rows a line's finders give, each checked for shape (the finders are outside the hash). */
export function finderRows(stream: string, finders: Finders | undefined): FinderRow[] {
  const emails = (finders?.emails ?? []).filter((f) => /^[0-9a-f]{1,64}:[0-9a-f]{64}$/.test(String(f)));
  const signers = (finders?.signers ?? []).filter((s) => HEX.test(String(s)));
  return [
    ...emails.map((value) => ({ kind: 'email_finder' as const, value, stream })),
    ...signers.map((value) => ({ kind: 'signer' as const, value, stream })),
  ];
}

/** Whether an `email_finder` row `p` holds the email `$n` (lowercased by the caller). */
export const EMAIL_FINDER_HOLDS = (param: string) =>
  `(p.kind = 'email_finder' AND split_part(p.value, ':', 2) =
     encode(sha256(convert_to(split_part(p.value, ':', 1) || ${param}, 'UTF8')), 'hex'))`;
