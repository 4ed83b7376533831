import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { EVENT_COLUMNS_SQL, chainRecord, type ChainRecord, type EventRow } from './canonical.ts';
import { PERSONAL_VALUES_SQL } from './personal.ts';

/** Who caused an event: the role from its metadata, the name from erasable personal data (null when none or erased). */
export interface Actor {
  role: string;
  name: string | null;
}

/** One event in chain order, as history and export give it (CONTRACT §6). */
export interface ChainEvent extends Omit<ChainRecord, 'metadata'> {
  metadata: Record<string, unknown>;
  actor: Actor;
  /**
   * The event's names and words, by ref key (`{ titleRef: "Harbour" }`), null once erased: personal
   * data outside the log (decision 050), so not covered by the hash, as the actor's name is not.
   */
  personal?: Record<string, string | null>;
  hash: string;
  /** how the link was computed (docs/canonical-form.md) */
  scheme: number;
  /** scheme 1 only: the PostgreSQL text the old link was computed over */
  legacy?: string;
}

export interface ChainEventRow extends EventRow<Record<string, unknown>> {
  seq: number;
  actor_name: string | null;
  personal: Record<string, string | null> | null;
  prev_hash: string;
  hash: string;
  scheme: number;
  legacy: string | null;
}

/** Sealed events joined with their links and actors; callers add WHERE c.seq ... ORDER BY c.seq. */
export const SELECT_CHAIN_EVENTS = `SELECT c.seq, c.position, ${EVENT_COLUMNS_SQL}, pd.value AS actor_name,
    ${PERSONAL_VALUES_SQL} AS personal, c.prev_hash, c.hash, c.scheme, CASE WHEN c.scheme = 1 THEN event_canonical_text(e) END AS legacy
  FROM event_chain c
  JOIN events e ON e.position = c.position
  LEFT JOIN personal_data pd ON pd.kind = 'name' AND pd.id = (e.metadata->>'actorRef')::bigint`;

export function toChainEvent(r: ChainEventRow): ChainEvent {
  const event: ChainEvent = {
    ...chainRecord(r, r.seq, r.prev_hash),
    actor: { role: String(r.metadata.role ?? 'system'), name: r.actor_name },
    hash: r.hash,
    scheme: r.scheme,
  };
  if (r.personal !== null) event.personal = r.personal;
  if (r.legacy !== null) event.legacy = r.legacy;
  return event;
}

/** The exact text of one export line: fixed key order, so any change of a byte shows on verify. */
export function exportLine(e: ChainEvent): string {
  const line: ChainEvent = {
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
    prevHash: e.prevHash,
    hash: e.hash,
    scheme: e.scheme,
  };
  if (e.legacy !== undefined) line.legacy = e.legacy;
  return JSON.stringify(line);
}

const PAGE = 1000;

/** The sealed log as NDJSON, one event a line in chain (seq) order; streamed page by page. */
export async function exportNdjson(
  db: Pick<pg.Pool, 'query'>,
  out: Writable,
  range: { from?: number; to?: number } = {},
): Promise<number> {
  let after = Math.max((range.from ?? 1) - 1, 0);
  let written = 0;
  for (;;) {
    const { rows } = await db.query<ChainEventRow>(
      `${SELECT_CHAIN_EVENTS} WHERE c.seq > $1 AND ($2::bigint IS NULL OR c.seq <= $2) ORDER BY c.seq LIMIT $3`,
      [after, range.to ?? null, PAGE],
    );
    for (const row of rows) {
      if (!out.write(`${exportLine(toChainEvent(row))}\n`)) await once(out, 'drain');
      written++;
    }
    if (rows.length < PAGE) return written;
    after = rows.at(-1)!.seq;
  }
}
