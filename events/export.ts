import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { EVENT_COLUMNS_SQL, SCHEME, chainRecord, isKeyed, linkForm, logHmacKey, type EventRow } from './canonical.ts';
import { endLine, exportLine, type Finders, type LogLine } from '../contract/logLine.ts';
import { REF_ROWS_SQL, commitmentsOf, type RefRows } from './commitments.ts';
import { FINDERS_SQL } from './finders.ts';
import { PERSONAL_VALUES_SQL, REF_KEYS } from './personal.ts';

export { endLine, exportLine, type ExportEnd } from '../contract/logLine.ts';

/** Who caused an event: the role from its metadata, the name from erasable personal data (null when none or erased). */
export type Actor = LogLine['actor'];

/** One event in chain order, as history and export give it (CONTRACT §6): the export's line. */
export interface ChainEvent extends LogLine {
  metadata: Record<string, unknown>;
}

export interface ChainEventRow extends EventRow<Record<string, unknown>> {
  seq: number;
  actor_name: string | null;
  personal: Record<string, string | null> | null;
  refs: RefRows | null;
  prev_hash: string;
  hash: string;
  scheme: number;
  legacy: string | null;
  finders?: Finders | null;
}

/**
 * Sealed events joined with their links and actors; callers add WHERE c.seq ... ORDER BY c.seq. With
 * `finders`, each stream's first event also gives what an erasure finds its people by (decision 112).
 */
const selectChainEvents = (finders: boolean) => `SELECT c.seq, c.position, ${EVENT_COLUMNS_SQL}, pd.value AS actor_name,
    ${PERSONAL_VALUES_SQL} AS personal, c.prev_hash, c.hash, c.scheme, CASE WHEN c.scheme = 1 THEN event_canonical_text(e) END AS legacy,
    CASE WHEN c.scheme > 1 THEN ${REF_ROWS_SQL} END AS refs${finders ? `, ${FINDERS_SQL} AS finders` : ''}
  FROM event_chain c
  JOIN events e ON e.position = c.position
  LEFT JOIN personal_data pd ON pd.kind = 'name' AND pd.id = (e.metadata->>'actorRef')::bigint`;

export const SELECT_CHAIN_EVENTS = selectChainEvents(false);

/** The refs whose values an export line gives, so it gives their salts: words and the actor's name. */
const SALTED = new Set<string>([...REF_KEYS, 'actorRef']);

export function toChainEvent(r: ChainEventRow, hmacKey: string | undefined): ChainEvent {
  const commitments = r.scheme > SCHEME.legacy ? commitmentsOf(r.refs) : undefined;
  // a link sealed before commitments (decision 077) is given without them; a keyed one that cannot
  // be checked here keeps them, and verify --file finds which record it was sealed over
  const key = isKeyed(r.scheme) ? hmacKey : undefined;
  const committed =
    commitments !== undefined &&
    (isKeyed(r.scheme) && !key
      ? true
      : linkForm(chainRecord(r, r.seq, r.prev_hash), commitments, r.hash, key, false) !== 'plain');
  const event: ChainEvent = {
    ...chainRecord(r, r.seq, r.prev_hash, committed ? commitments : undefined),
    actor: { role: String(r.metadata.role ?? 'system'), name: r.actor_name },
    hash: r.hash,
    scheme: r.scheme,
  };
  if (r.personal !== null) event.personal = r.personal;
  const salts = Object.entries(r.refs ?? {}).filter(([key]) => SALTED.has(key));
  if (committed && salts.length) event.salts = Object.fromEntries(salts.map(([key, row]) => [key, row.s]));
  if (r.legacy !== null) event.legacy = r.legacy;
  if (r.finders) event.finders = r.finders;
  return event;
}

const PAGE = 1000;

/**
 * The sealed log as NDJSON, one event a line in chain (seq) order, then the end line; streamed page by
 * page. `leaveOut` gives a line with personal values taken out the way an erasure takes them (the
 * keepsake's log, decision 091): the line still verifies. `backup` adds the finders an erasure after
 * an import needs (decision 112): the operator's `events export` gives them, the audit download and
 * the keepsake do not. `hmacKey`: the LOG_HMAC_KEY keyed links are read under (default: the process's).
 */
export async function exportNdjson(
  db: Pick<pg.Pool, 'query'>,
  out: Writable,
  range: { from?: number; to?: number } = {},
  leaveOut: (e: ChainEvent) => ChainEvent = (e) => e,
  options: { backup?: boolean; hmacKey?: string | undefined } = {},
): Promise<number> {
  const backup = options.backup ?? false;
  // the key keyed links are read under: as given (undefined: none), else the process's
  const hmacKey = 'hmacKey' in options ? options.hmacKey : logHmacKey();
  const select = backup ? selectChainEvents(true) : SELECT_CHAIN_EVENTS;
  let after = Math.max((range.from ?? 1) - 1, 0);
  let written = 0;
  let head: { seq: number; hash: string } | null = null;
  for (;;) {
    const { rows } = await db.query<ChainEventRow>(
      `${select} WHERE c.seq > $1 AND ($2::bigint IS NULL OR c.seq <= $2) ORDER BY c.seq LIMIT $3`,
      [after, range.to ?? null, PAGE],
    );
    for (const row of rows) {
      if (!out.write(`${exportLine(leaveOut(toChainEvent(row, hmacKey)))}\n`)) await once(out, 'drain');
      written++;
      head = { seq: row.seq, hash: row.hash };
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.seq;
  }
  if (!out.write(`${endLine(written, head)}\n`)) await once(out, 'drain');
  return written;
}
