import type pg from 'pg';
import { inTransaction } from '#db/postgres.ts';
import { appendTag, logHmacKey } from './canonical.ts';
import { registry, type DomainEvent, type LegacyEvent } from './catalog.ts';
import { checkChainKey } from './chain.ts';
import { StaleVersion } from './errors.ts';
import type { EventMetadata } from './metadata.ts';

export type ExpectedVersion = number | 'any';

interface Recorded {
  position: number;
  /** the log's era (a logical restore into a younger cluster opens a new one, decision 076) */
  era: number;
  transactionId: string;
  streamId: string;
  streamVersion: number;
  metadata: EventMetadata;
  recordedAt: Date;
  /** the event's place in the hash chain once sealed: the cursor live clients see */
  seq: number | null;
}

/** An event as stored; a union over event types, so switching on type narrows data. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends unknown
  ? Recorded & { type: E['type']; data: E['data'] }
  : never;

/** Where a reader stands in the global order: (era, transaction id, position), compared in that order. */
export interface Checkpoint {
  era: number;
  transactionId: string;
  position: number;
}
export const START: Checkpoint = { era: 0, transactionId: '0', position: 0 };

const UNIQUE_VIOLATION = '23505';

/** A value as it reads back from jsonb, so a tag computed before the insert holds for the row. */
const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

// seq is the event's place in the hash chain, once sealed: the cursor live clients see.
const SELECT_EVENT = `SELECT e.position, e.era, e.transaction_id::text AS transaction_id, e.stream_id, e.stream_version,
  e.type, e.schema_version, e.data, e.metadata, e.recorded_at, c.seq
  FROM events e LEFT JOIN event_chain c ON c.position = e.position`;

export interface EventRow {
  position: number;
  era: number;
  transaction_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
  seq: number | null;
}

/** An event as stored, not decoded: what the sealer hashes, and what a projection decodes one by one. */
export interface StoredEvent {
  position: number;
  era: number;
  transactionId: string;
  type: string;
  seq: number | null;
  row: EventRow;
}

const stored = (row: EventRow): StoredEvent => ({
  position: row.position,
  era: row.era,
  transactionId: row.transaction_id,
  type: row.type,
  seq: row.seq,
  row,
});

export function decodeRow(row: EventRow): RecordedEvent {
  const { type, data } = registry.decode(row.type, row.schema_version, row.data);
  return {
    position: row.position,
    era: row.era,
    transactionId: row.transaction_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type,
    data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
    seq: row.seq,
  } as RecordedEvent;
}

/**
 * The sealed events of some streams, in chain order: what a read model asks of an item's past (was
 * it in the gallery just before; which item a comment was posted on).
 */
export async function readSealedStreams(db: Queryable, streamIds: readonly string[]): Promise<RecordedEvent[]> {
  if (streamIds.length === 0) return [];
  const { rows } = await db.query<EventRow>(
    `${SELECT_EVENT} WHERE e.stream_id = ANY($1::text[]) AND c.seq IS NOT NULL ORDER BY c.seq`,
    [streamIds],
  );
  return rows.map(decodeRow);
}

/** An event checked against its schema, with its tag under the log's key (decision 077). */
interface PreparedEvent {
  type: string;
  schemaVersion: number;
  data: unknown;
  tag?: string;
}

/**
 * One event at a known version: what nearly every command appends. A plain INSERT … SELECT, claimed
 * when the stream stands at `expected` (0: must not exist yet); the unique (stream_id,
 * stream_version) key refuses a second writer. Half the database's CPU of the general statement
 * below, which unpacks a JSON array in a CTE (BENCHMARKS.md, "where the rest goes").
 * Prepared once per connection: planning costs as much as running.
 */
function appendOne(streamId: string, expected: number, event: PreparedEvent, metadata: EventMetadata) {
  return {
    name: 'append-event',
    text: `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, tag)
       SELECT $1, $2::bigint + 1, $3, $4, $5::jsonb, $6::jsonb, $7
       WHERE $2::bigint = 0 OR EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND stream_version = $2::bigint)
       RETURNING position, stream_version`,
    values: [
      streamId,
      expected,
      event.type,
      event.schemaVersion,
      JSON.stringify(event.data),
      JSON.stringify(metadata),
      event.tag ?? null,
    ],
  };
}

/** Several events, or one at the end of the stream whatever its version ('any'). */
function appendMany(
  streamId: string,
  expected: ExpectedVersion,
  batch: readonly PreparedEvent[],
  metadata: EventMetadata,
) {
  return {
    // prepared once per connection: planning this statement costs as much as running it
    name: 'append-events',
    text: `WITH base AS (
         SELECT coalesce($2::bigint, (SELECT max(stream_version) FROM events WHERE stream_id = $1), 0) AS version
       ), claimed AS (
         SELECT version FROM base
         WHERE version = 0 OR EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND stream_version = base.version)
       )
       INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, tag)
       SELECT $1, c.version + e.ord, e.ev->>'type', (e.ev->>'schemaVersion')::int, e.ev->'data', $4::jsonb, e.ev->>'tag'
       FROM claimed c, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(ev, ord)
       ORDER BY e.ord
       RETURNING position, stream_version`,
    values: [streamId, expected === 'any' ? null : expected, JSON.stringify(batch), JSON.stringify(metadata)],
  };
}

/** The NOTIFY channel on which the store says the log grew; projection runners in every process listen. */
export const WAKE_CHANNEL = 'tribute_events';

export class EventStore {
  readonly pool: pg.Pool;
  readonly #onAppend: Array<() => void> = [];
  readonly #announce: boolean;
  #announcing = false;
  /** transactions of `transaction()` that appended: they wake the projections once they commit */
  readonly #appendedIn = new WeakSet<Queryable>();
  #checkedKey?: { key: string | undefined; held: Promise<unknown> };
  readonly #hmacKey: () => string | undefined;

  /**
   * With `announce`, other processes hear of each commit on WAKE_CHANNEL (at most one NOTIFY a tick).
   * `hmacKey` gives the LOG_HMAC_KEY appends are tagged under, read at each append: a command's own
   * settings (scripts/cli.ts), or by default the process's environment.
   */
  constructor(
    pool: pg.Pool,
    { announce = false, hmacKey = logHmacKey }: { announce?: boolean; hmacKey?: () => string | undefined } = {},
  ) {
    this.pool = pool;
    this.#announce = announce;
    this.#hmacKey = hmacKey;
  }

  /**
   * Once per store and key: a keyed chain's head must recompute under this process's key, or it
   * appends nothing (without a good tag the sealer would refuse the event, and the log stop there).
   */
  #keyHeld(key: string | undefined): Promise<unknown> {
    if (!this.#checkedKey || this.#checkedKey.key !== key) {
      this.#checkedKey = { key, held: checkChainKey(this.pool, key) };
    }
    return this.#checkedKey.held;
  }

  /** Called after every committed append in this process (projection runners wake on it). */
  onAppend(listener: () => void) {
    this.#onAppend.push(listener);
  }

  /**
   * Runs `work` in one transaction; events appended in it (through handleCommand's `tx`) commit with
   * the caller's other writes, and the projections are woken after the commit, never before.
   */
  async transaction<T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient | undefined;
    try {
      const result = await inTransaction(this.pool, (tx) => {
        client = tx;
        return work(tx);
      });
      if (this.#appendedIn.has(client!)) this.#committed();
      return result;
    } finally {
      // pooled clients are reused: a rolled-back transaction leaves no mark on the next one
      if (client) this.#appendedIn.delete(client);
    }
  }

  /**
   * Appends a batch to one stream in one statement. With a number, the stream must be at exactly
   * that version (0: must not exist yet); otherwise StaleVersion. With 'any', it goes on the end.
   */
  async append(
    streamId: string,
    expected: ExpectedVersion,
    events: readonly (DomainEvent | LegacyEvent)[],
    metadata: EventMetadata,
    db: Queryable = this.pool,
  ): Promise<{ nextVersion: number; positions: number[] }> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const key = this.#hmacKey();
    await this.#keyHeld(key);
    const batch = events.map((e) => {
      const { data, schemaVersion } = registry.prepare(
        e.type,
        e.data,
        'schemaVersion' in e ? e.schemaVersion : undefined,
      );
      // under the key, each event carries a tag only the key's holder can make (decision 077)
      const tag = key
        ? appendTag(key, { streamId, type: e.type, schemaVersion, data: asStored(data), metadata: asStored(metadata) })
        : undefined;
      return { type: e.type, schemaVersion, data, tag };
    });
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#insert(streamId, expected, batch, metadata, db);
      } catch (error) {
        // the unique (stream_id, stream_version) key is the optimistic lock
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        const canRetry = expected === 'any' && db === this.pool && attempt < 5;
        if (!canRetry) throw new StaleVersion(streamId, expected === 'any' ? -1 : expected);
      }
    }
  }

  async #insert(
    streamId: string,
    expected: ExpectedVersion,
    batch: readonly PreparedEvent[],
    metadata: EventMetadata,
    db: Queryable,
  ) {
    const { rows } = await db.query<{ position: number; stream_version: number }>(
      batch.length === 1 && expected !== 'any'
        ? appendOne(streamId, expected, batch[0]!, metadata)
        : appendMany(streamId, expected, batch, metadata),
    );
    if (rows.length === 0) throw new StaleVersion(streamId, expected === 'any' ? -1 : expected);
    if (db === this.pool) this.#committed();
    else this.#appendedIn.add(db);
    return { nextVersion: Math.max(...rows.map((r) => r.stream_version)), positions: rows.map((r) => r.position) };
  }

  #committed() {
    for (const listener of this.#onAppend) listener();
    if (!this.#announce || this.#announcing) return;
    this.#announcing = true;
    setImmediate(() => {
      this.#announcing = false;
      this.pool.query(`SELECT pg_notify($1, '')`, [WAKE_CHANNEL]).catch(() => {});
    });
  }

  async readStream(streamId: string, db: Queryable = this.pool): Promise<RecordedEvent[]> {
    const { rows } = await db.query<EventRow>(`${SELECT_EVENT} WHERE e.stream_id = $1 ORDER BY e.stream_version`, [
      streamId,
    ]);
    return rows.map(decodeRow);
  }

  /** Whether a person's erasure took this stream (decision 050): nothing may be written to it again. */
  async isErased(streamId: string, db: Queryable = this.pool): Promise<boolean> {
    const { rows } = await db.query<{ erased: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM erased_streams WHERE stream_id = $1) AS erased`,
      [streamId],
    );
    return rows[0]!.erased;
  }

  /** Folds a stream into state, returning the version to expect when appending. */
  async aggregate<S, E extends DomainEvent>(
    streamId: string,
    evolve: (state: S, event: E) => S,
    initial: S,
    db: Queryable = this.pool,
  ): Promise<{ state: S; version: number; lastPosition?: number }> {
    const events = await this.readStream(streamId, db);
    const state = events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as E), initial);
    return { state, version: events.at(-1)?.streamVersion ?? 0, lastPosition: events.at(-1)?.position };
  }

  /** Sealed events after a chain seq, in chain order, as stored: what projections fold. */
  async readSealed(
    afterSeq: number,
    limit: number,
    db: Queryable = this.pool,
    uptoSeq?: number,
  ): Promise<StoredEvent[]> {
    // seqs are dense: a range is the same page as LIMIT, and one index range scan whatever the
    // statistics (with none, `seq > $1 ORDER BY seq LIMIT` sorted the whole rest of the log, decision 027)
    const { rows } = await db.query<EventRow>(`${SELECT_EVENT} WHERE c.seq > $1 AND c.seq <= $2 ORDER BY c.seq`, [
      afterSeq,
      Math.min(afterSeq + limit, uptoSeq ?? Number.MAX_SAFE_INTEGER),
    ]);
    return rows.map(stored);
  }

  /**
   * Events after the checkpoint in global order, only from transactions older than every one still
   * running: a transaction that commits late can never be overtaken. Events of an era before the
   * current one came from another cluster (a restore, decision 076): all of them have committed.
   */
  async readAfter(checkpoint: Checkpoint, limit: number, db: Queryable = this.pool): Promise<RecordedEvent[]> {
    return (await this.readCommitted(checkpoint, limit, db)).map((e) => decodeRow(e.row));
  }

  /** readAfter, as stored: the sealer chains events whatever their type, decodable or not. */
  async readCommitted(checkpoint: Checkpoint, limit: number, db: Queryable = this.pool): Promise<StoredEvent[]> {
    const { rows } = await db.query<EventRow>(
      `${SELECT_EVENT}
       WHERE (e.era, e.transaction_id, e.position) > ($1::int, $2::xid8, $3::bigint)
         AND (e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
              OR e.era < (SELECT max(era) FROM log_eras))
       ORDER BY e.era, e.transaction_id, e.position
       LIMIT $4`,
      [checkpoint.era, checkpoint.transactionId, checkpoint.position, limit],
    );
    return rows.map(stored);
  }
}
