import type pg from 'pg';
import { logHmacKey } from './canonical.ts';
import { SELECT_CHAIN_EVENTS, toChainEvent, type ChainEvent, type ChainEventRow } from './export.ts';
import { PERSONAL_FIELDS } from './personal.ts';

/** What an auditor may filter the history by; every field is optional. */
export interface HistoryFilter {
  after?: number;
  before?: number;
  stream?: string;
  type?: string;
  kind?: string;
  /** an actor's login name, matched without regard to case */
  actor?: string;
  since?: string;
  until?: string;
  order: 'asc' | 'desc';
  limit: number;
}

/**
 * History answers show what an export shows, less what could name or link a person (decision 050):
 * an erased v1 event's inline names and words read as null, and no event shows the visitor id that
 * events before issue 13 kept in their metadata. (An export keeps both: it must verify.)
 */
async function forAuditors(pool: Pick<pg.Pool, 'query'>, events: ChainEvent[]): Promise<ChainEvent[]> {
  const fieldsOf = (type: string): readonly string[] => PERSONAL_FIELDS[type as keyof typeof PERSONAL_FIELDS] ?? [];
  const inline = events.filter((e) => e.schemaVersion === 1 && fieldsOf(e.type).length > 0);
  const { rows } = inline.length
    ? await pool.query<{ stream_id: string }>(`SELECT stream_id FROM erased_streams WHERE stream_id = ANY($1)`, [
        inline.map((e) => e.streamId),
      ])
    : { rows: [] };
  const erased = new Set(rows.map((r) => r.stream_id));
  return events.map((e) => {
    const { visitorId: _linking, ...metadata } = e.metadata;
    if (!erased.has(e.streamId) || e.schemaVersion !== 1) return { ...e, metadata };
    const data = { ...(e.data as Record<string, unknown>) };
    for (const field of fieldsOf(e.type)) if (field in data) data[field] = null;
    return { ...e, data, metadata };
  });
}

/**
 * LOG_HMAC_KEY as the caller has it (a thread's environment is a copy made when it started); without
 * it, this process's.
 */
export interface HmacKeyOption {
  hmacKey?: string | undefined;
}

/**
 * The query for one page of the history: the sealed events in chain order (or its reverse), filtered.
 * Every filter finds its rows by an index (migrations 039 and 040): the kind's by the stream's prefix
 * (`split_part`, whose index a `LIKE` on a parameter cannot use) or the event's `kind`; the actor's by
 * the events that name an actor at all (an admin's or auditor's, a few of the log), whose partial index
 * only a query that says so itself can use. A filter left out is a NULL the planner folds away.
 */
export function historyQuery(q: HistoryFilter): { text: string; values: unknown[] } {
  return {
    text: `${SELECT_CHAIN_EVENTS}
     WHERE ($1::bigint IS NULL OR c.seq > $1) AND ($2::bigint IS NULL OR c.seq < $2)
       AND ($3::text IS NULL OR e.stream_id = $3) AND ($4::text IS NULL OR e.type = $4)
       AND ($5::text IS NULL OR (split_part(e.stream_id, '-', 1) = $5 AND e.stream_id LIKE $5 || '-%') OR e.data->>'kind' = $5)
       AND ($6::text IS NULL OR (e.metadata ? 'actorRef' AND lower(pd.value) = lower($6)))
       AND ($7::timestamptz IS NULL OR e.recorded_at >= $7) AND ($8::timestamptz IS NULL OR e.recorded_at <= $8)
     ORDER BY c.seq ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT $9`,
    values: [
      q.after ?? null,
      q.before ?? null,
      q.stream ?? null,
      q.type ?? null,
      q.kind ?? null,
      q.actor ?? null,
      q.since ?? null,
      q.until ?? null,
      q.limit,
    ],
  };
}

/** One page of the history; `next` is the seq to go on from. */
export async function readHistory(pool: Pick<pg.Pool, 'query'>, q: HistoryFilter, keys: HmacKeyOption = {}) {
  const hmacKey = 'hmacKey' in keys ? keys.hmacKey : logHmacKey();
  const { rows } = await pool.query<ChainEventRow>(historyQuery(q));
  return {
    events: await forAuditors(
      pool,
      rows.map((r) => toChainEvent(r, hmacKey)),
    ),
    next: rows.length === q.limit ? rows.at(-1)!.seq : null,
  };
}

/** The chain's head and how many events wait to be sealed, without walking the chain. */
export async function chainHead(
  pool: pg.Pool,
): Promise<{ head: { seq: number; hash: string } | null; unsealed: number }> {
  const { rows } = await pool.query<{ seq: number | null; hash: string | null; unsealed: number }>(
    `SELECT h.seq, h.hash,
       (SELECT count(*)::int FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_chain c WHERE c.position = e.position)) AS unsealed
     FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT seq, hash FROM event_chain ORDER BY seq DESC LIMIT 1) h ON true`,
  );
  const row = rows[0]!;
  return { head: row.seq === null ? null : { seq: row.seq, hash: row.hash! }, unsealed: row.unsealed };
}

/** One item's timeline: its own stream, and the comments and likes that name it, in chain order. */
export async function itemHistory(
  pool: Pick<pg.Pool, 'query'>,
  stream: string,
  kind: string,
  id: number,
  keys: HmacKeyOption = {},
) {
  const hmacKey = 'hmacKey' in keys ? keys.hmacKey : logHmacKey();
  const { rows } = await pool.query<ChainEventRow>(
    `${SELECT_CHAIN_EVENTS}
     WHERE e.stream_id = $1 OR (e.data->>'kind' = $2 AND e.data->>'itemId' = $3) ORDER BY c.seq`,
    [stream, kind, String(id)],
  );
  return (
    await forAuditors(
      pool,
      rows.map((r) => toChainEvent(r, hmacKey)),
    )
  ).map((e) => ({
    seq: e.seq,
    type: e.type,
    data: e.data,
    personal: e.personal,
    actor: e.actor,
    recordedAt: e.recordedAt,
  }));
}
