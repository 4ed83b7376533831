import { createHash, createHmac, randomBytes } from 'node:crypto';
import { jcs } from '../contract/jcs.ts';
import { canonicalRecord, legacyText, type ChainRecord } from '../contract/logLine.ts';

/**
 * The canonical form every chain hash is computed over (docs/canonical-form.md): the JSON
 * Canonicalization Scheme of RFC 8785 applied to one fixed record per event. Nothing here needs
 * PostgreSQL, so anyone holding an export can recompute every hash.
 */

export { jcs } from '../contract/jcs.ts';
export { canonicalRecord, type ChainRecord } from '../contract/logLine.ts';

/** How a chain link was computed. 1: the first, PostgreSQL-text scheme, kept only to verify old links. */
export const SCHEME = { legacy: 1, sha256: 2, hmac: 3 } as const;
export type Scheme = (typeof SCHEME)[keyof typeof SCHEME];

export const isKeyed = (scheme: number) => scheme === SCHEME.hmac;

/**
 * Which record a scheme 2 or 3 link was computed over (decision 077): `committed`, with the
 * commitments of the personal values its event refers to (every link sealed since), or `plain`,
 * without (links sealed before); null when neither gives the hash. After a committed link only a
 * committed one may follow, so no one can drop the words from the chain's cover.
 */
export function linkForm(
  record: ChainRecord,
  commitments: Record<string, string | null> | undefined,
  hash: string,
  hmacKey: string | undefined,
  committedBefore: boolean,
): 'committed' | 'plain' | null {
  if (commitments && linkHash({ ...record, commitments }, hmacKey) === hash) return 'committed';
  if (committedBefore) return null;
  const { commitments: _, ...plain } = record;
  return linkHash(plain, hmacKey) === hash ? 'plain' : null;
}

/** A personal value's commitment, as migration 024 computes it: lowercase hex of SHA-256(salt || value). */
export function commitment(salt: string, value: string): string {
  return createHash('sha256')
    .update(salt + value, 'utf8')
    .digest('hex');
}

/** The link for one record: SHA-256 of its canonical form, or HMAC-SHA256 under the log key. */
export function linkHash(record: ChainRecord, hmacKey?: string): string {
  const text = canonicalRecord(record);
  return hmacKey
    ? createHmac('sha256', hmacKey).update(text, 'utf8').digest('hex')
    : createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The first scheme's link, over PostgreSQL's `event_canonical_text`; only old links are checked with it. */
export function legacyHash(prevHash: string, canonicalText: string): string {
  return createHash('sha256').update(legacyText(prevHash, canonicalText), 'utf8').digest('hex');
}

/** The scheme new links are sealed with: keyed when LOG_HMAC_KEY is set. */
export function currentScheme(hmacKey = logHmacKey()): Scheme {
  return hmacKey ? SCHEME.hmac : SCHEME.sha256;
}

/**
 * The tag a writer holding LOG_HMAC_KEY gives each event it appends: a random nonce and the HMAC of
 * the event's stream, type, schema version, data and metadata under the key. The sealer seals no
 * event without a good one once the chain is keyed, so only the key's holder can append.
 */
export function appendTag(
  hmacKey: string,
  e: { streamId: string; type: string; schemaVersion: number; data: unknown; metadata: unknown },
  nonce = randomBytes(16).toString('hex'),
): string {
  const text = jcs({
    nonce,
    streamId: e.streamId,
    type: e.type,
    schemaVersion: e.schemaVersion,
    data: e.data,
    metadata: e.metadata,
  });
  return `${nonce}.${createHmac('sha256', hmacKey).update(text, 'utf8').digest('hex')}`;
}

export function tagHolds(hmacKey: string, tag: string, row: EventRow): boolean {
  const nonce = tag.split('.')[0]!;
  const expected = appendTag(
    hmacKey,
    {
      streamId: row.stream_id,
      type: row.type,
      schemaVersion: row.schema_version,
      data: row.data,
      metadata: row.metadata,
    },
    nonce,
  );
  return expected === tag;
}

/** LOG_HMAC_KEY as `env` has it: the process's own, or the settings a command was given (its `io.env`). */
export function logHmacKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.LOG_HMAC_KEY || undefined;
}

/** recorded_at as the canonical form writes it, straight from PostgreSQL (JS dates stop at milliseconds). */
export const RECORDED_AT_SQL = `to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The columns of an event (`events e`) the canonical form covers, as `EventRow` names them. */
export const EVENT_COLUMNS_SQL = `e.stream_id, e.stream_version, e.type, e.schema_version, e.data, e.metadata,
  ${RECORDED_AT_SQL} AS recorded_at`;

/** An event as `EVENT_COLUMNS_SQL` reads it, beside its position. */
export interface EventRow<Metadata = unknown> {
  position: number;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Metadata;
  recorded_at: string;
}

/** The chain record of an event row sealed at `seq` after the link `prevHash` (with commitments since decision 077). */
export function chainRecord<Metadata>(
  row: EventRow<Metadata>,
  seq: number,
  prevHash: string,
  commitments?: Record<string, string | null>,
) {
  return {
    ...(commitments === undefined ? {} : { commitments }),
    seq,
    position: row.position,
    streamId: row.stream_id,
    version: row.stream_version,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
    prevHash,
  } satisfies ChainRecord;
}
