import { jcs } from './jcs.ts';

/**
 * One line of an export (CONTRACT §6, docs/canonical-form.md) as the server writes it and every
 * checker reads it: `events verify --file` in Node and the keepsake's verify page in a browser. Plain
 * TypeScript with no Node module, like jcs.ts, so both hold one definition of the line and its record.
 */
export interface LogLine {
  seq: number;
  position: number;
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  /** UTC, microseconds: `2026-11-24T13:18:01.123456Z` */
  recordedAt: string;
  /** who caused it: the role from its metadata, the name from erasable personal data (null when none or erased) */
  actor: { role: string; name: string | null };
  /** the event's names and words by ref key, null once erased; not covered by the hash (decision 050) */
  personal?: Record<string, string | null>;
  /** each ref with the commitment of its value, in the hash since decision 077 */
  commitments?: Record<string, string | null>;
  /** the salt of each value the line gives, so it can be checked against its commitment */
  salts?: Record<string, string | null>;
  /** what an erasure after an import finds the stream's people by (decision 112); not covered by the hash */
  finders?: Finders;
  prevHash: string;
  hash: string;
  /** how the link was computed: 1 PostgreSQL text, 2 SHA-256, 3 HMAC-SHA256 under LOG_HMAC_KEY */
  scheme: number;
  /** scheme 1 only: the PostgreSQL text the old link was computed over */
  legacy?: string;
}

/**
 * On a stream's first line, in a backup export only (decision 112): each email the stream was sent
 * under as `salt:SHA-256(salt || lowercased email)`, never the email; and the signers, one keyed digest
 * per browser and name it was signed with, which ties a person's comments to their work without
 * naming the browser.
 */
export interface Finders {
  emails?: string[];
  signers?: string[];
}

/** The exact text of one line: fixed key order, so any change of a byte shows on verify. */
export function exportLine(e: LogLine): string {
  const line: LogLine = {
    seq: e.seq,
    position: e.position,
    streamId: e.streamId,
    version: e.version,
    type: e.type,
    schemaVersion: e.schemaVersion,
    data: e.data,
    metadata: e.metadata,
    recordedAt: e.recordedAt,
    actor: { role: e.actor?.role, name: e.actor?.name },
    ...(e.personal === undefined ? {} : { personal: e.personal }),
    ...(e.commitments === undefined ? {} : { commitments: e.commitments }),
    ...(e.salts === undefined ? {} : { salts: e.salts }),
    ...(e.finders === undefined ? {} : { finders: e.finders }),
    prevHash: e.prevHash,
    hash: e.hash,
    scheme: e.scheme,
  };
  if (e.legacy !== undefined) line.legacy = e.legacy;
  return JSON.stringify(line);
}

/** The last line of an export: how many events it holds and the link it ends on (decision 078). */
export interface ExportEnd {
  end: { events: number; head: { seq: number; hash: string } | null };
}

export function endLine(events: number, head: { seq: number; hash: string } | null): string {
  const end: ExportEnd = { end: { events, head: head && { seq: head.seq, hash: head.hash } } };
  return JSON.stringify(end);
}

/** The fields of an event the hash covers, its place in the chain and its predecessor's hash included. */
export interface ChainRecord extends Pick<
  LogLine,
  | 'seq'
  | 'position'
  | 'streamId'
  | 'version'
  | 'type'
  | 'schemaVersion'
  | 'data'
  | 'metadata'
  | 'recordedAt'
  | 'prevHash'
> {
  /**
   * Links sealed since decision 077: each reference to personal data in data or metadata
   * (`titleRef`, `actorRef`…) with the commitment of its value, SHA-256 of salt and value (null where
   * none was kept).
   */
  commitments?: Record<string, string | null>;
}

/** The text a scheme 2 or 3 link hashes: the record in RFC 8785 form. */
export function canonicalRecord(r: ChainRecord): string {
  return jcs({
    ...(r.commitments === undefined ? {} : { commitments: r.commitments }),
    seq: r.seq,
    position: r.position,
    streamId: r.streamId,
    version: r.version,
    type: r.type,
    schemaVersion: r.schemaVersion,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recordedAt,
    prevHash: r.prevHash,
  });
}

/** The text a scheme 1 link hashes, after its predecessor: `prevHash`, a newline, PostgreSQL's text. */
export const legacyText = (prevHash: string, canonicalText: string) => `${prevHash}\n${canonicalText}`;
