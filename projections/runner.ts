import type pg from 'pg';
import { inTransaction } from '#db/postgres.ts';
import { PgListener } from '#db/listener.ts';
import type { Log } from '#db/log.ts';
import { CHAIN_PROJECTION } from '#events/chain.ts';
import type { Clock } from '#events/clock.ts';
import { WAKE_CHANNEL, decodeRow, type EventStore, type RecordedEvent, type StoredEvent } from '#events/store.ts';
import { seal } from './chain/chainSealer.ts';
import type { BatchHook, Projection } from './projection.ts';

export type { BatchHook };

const BATCH = 500;

/**
 * The sealer's batches commit without waiting for the disk (decision 056): a crash that loses the
 * last links has them made again from the durable log, the same seqs and hashes. The catalog's
 * batches do wait: their outbox rows were sent to screens, and a batch folded again after a crash
 * may hold more events and so other rows. Its flush also makes the links it folded durable.
 */
const DERIVED = { derived: true };

/** Told of each batch once it has committed (benchmarks measure lag with it). */
export type CommittedListener = (projection: string, events: readonly RecordedEvent[]) => void;

interface CheckpointRow {
  era: number;
  transactionId: string;
  position: number;
  seq: number;
}

/** Locks the projection's checkpoint row for this transaction: one runner per projection at a time. */
export async function lockCheckpoint(db: pg.PoolClient, name: string): Promise<CheckpointRow> {
  const select = () =>
    db.query<{ era: number; transaction_id: string; position: number; seq: number }>(
      `SELECT era, transaction_id::text, position, seq FROM projection_checkpoints WHERE name = $1 FOR UPDATE`,
      [name],
    );
  let { rows } = await select();
  if (!rows[0]) {
    await db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [name]);
    ({ rows } = await select());
  }
  const row = rows[0]!;
  return { era: row.era, transactionId: row.transaction_id, position: row.position, seq: row.seq };
}

async function moveCheckpoint(db: pg.PoolClient, name: string, last: StoredEvent, seq: number) {
  await db.query(
    `UPDATE projection_checkpoints SET era = $5, transaction_id = $2::xid8, position = $3, seq = $4, updated_at = now()
     WHERE name = $1`,
    [name, last.transactionId, last.position, seq, last.era],
  );
}

/**
 * Seals the next committed events, in commit order, into the hash chain: it chains what is stored,
 * decodable or not.
 */
async function sealBatch(store: EventStore, limit: number): Promise<number> {
  return inTransaction(
    store.pool,
    async (db) => {
      const checkpoint = await lockCheckpoint(db, CHAIN_PROJECTION);
      const events = await store.readCommitted(checkpoint, limit, db);
      if (events.length === 0) return 0;
      await moveCheckpoint(db, CHAIN_PROJECTION, events.at(-1)!, await seal(events, db));
      return events.length;
    },
    DERIVED,
  );
}

/**
 * Decodes stored events for a projection. One it cannot read (an unknown type, a schema it cannot
 * upcast) is set aside in quarantined_events instead of stopping every projection behind it.
 */
export async function decodeFor(
  projection: string,
  events: readonly StoredEvent[],
  db: pg.PoolClient,
): Promise<RecordedEvent[]> {
  const decoded: RecordedEvent[] = [];
  for (const event of events) {
    try {
      decoded.push(decodeRow(event.row));
    } catch (error) {
      await db.query(
        `INSERT INTO quarantined_events (projection, seq, position, reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [projection, event.seq, event.position, String((error as Error).message ?? error).slice(0, 500)],
      );
    }
  }
  return decoded;
}

/** Applies the next sealed events, in chain order, to one read model; writes and checkpoint commit together. */
async function applyBatch(
  store: EventStore,
  projection: Projection,
  limit: number,
  hook?: BatchHook,
): Promise<{ read: number; applied: RecordedEvent[] }> {
  return inTransaction(store.pool, async (db) => {
    const checkpoint = await lockCheckpoint(db, projection.name);
    const events = await store.readSealed(checkpoint.seq, limit, db);
    if (events.length === 0) return { read: 0, applied: [] };
    const relevant = (await decodeFor(projection.name, events, db)).filter((e) =>
      projection.canHandle.includes(e.type),
    );
    if (relevant.length) await projection.apply(relevant, db);
    await hook?.(relevant, db);
    const last = events.at(-1)!;
    await moveCheckpoint(db, projection.name, last, last.seq!);
    return { read: events.length, applied: relevant };
  });
}

/** Runs one batch of a projection (the sealer by commit order, the others by chain seq). */
export async function runBatch(
  store: EventStore,
  projection: Projection,
  limit = BATCH,
  hook?: BatchHook,
): Promise<{ read: number; applied: RecordedEvent[] }> {
  if (projection.name === CHAIN_PROJECTION) return { read: await sealBatch(store, limit), applied: [] };
  return applyBatch(store, projection, limit, hook);
}

const FIRST_BACKOFF_MS = 4;
const LONGEST_BACKOFF_MS = 250;

/**
 * Keeps every projection caught up: at start, whenever this process appends, and whenever another
 * process NOTIFYs. The chain sealer runs first; the others fold sealed events in chain order, so the
 * order the hash covers is the order the read models fold.
 */
export class ProjectionRunner {
  readonly #store: EventStore;
  readonly #projections: readonly Projection[];
  readonly #log: Log;
  readonly #clock: Clock;
  readonly #hooks = new Map<string, BatchHook>();
  readonly #listeners: CommittedListener[] = [];
  #listener?: PgListener;
  #running?: Promise<void>;
  #again = false;
  #stopped = false;
  #retry?: NodeJS.Timeout;
  #backoffMs = FIRST_BACKOFF_MS;
  #poll?: NodeJS.Timeout;

  /** `clock`: the process's, for what a batch's live messages say of today */
  constructor(store: EventStore, projections: readonly Projection[], log: Log, clock: Clock) {
    this.#store = store;
    this.#projections = projections;
    this.#log = log;
    this.#clock = clock;
  }

  /** Runs `hook` instead of the projection's own `live` inside each of its batch transactions (tests). */
  duringBatch(projection: string, hook: BatchHook) {
    this.#hooks.set(projection, hook);
  }

  onCommitted(listener: CommittedListener) {
    this.#listeners.push(listener);
  }

  async start() {
    // wake() never rejects: a failed batch is logged and retried by #drain
    this.#store.onAppend(() => void this.wake());
    this.#listener = new PgListener({
      config: this.#store.pool.options,
      channels: [WAKE_CHANNEL],
      onNotify: () => void this.wake(),
      onListening: () => void this.wake(),
      log: (message, error) => this.#log.warn({ reason: (error as Error | undefined)?.message }, message),
    });
    await this.#listener.start();
    // A safety net for a notification lost while the listener was reconnecting.
    this.#poll = setInterval(() => void this.wake(), 1000);
    await this.wake();
  }

  async stop() {
    this.#stopped = true;
    clearInterval(this.#poll);
    clearTimeout(this.#retry);
    await this.#running?.catch(() => {});
    await this.#listener?.stop();
  }

  /** Catches every projection up; concurrent wakes fold into one more pass. */
  wake(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #drain() {
    do {
      this.#again = false;
      try {
        let progressed = false;
        for (const projection of this.#projections) progressed = (await this.#catchUp(projection)) || progressed;
        if (await this.#eventsInFlight()) this.#scheduleRetry(progressed);
        else this.#backoffMs = FIRST_BACKOFF_MS;
      } catch (error) {
        if (!this.#stopped) this.#log.error({ err: error }, 'projection batch failed; retrying');
        this.#scheduleRetry(false, 200);
      }
    } while (this.#again && !this.#stopped);
  }

  async #catchUp(projection: Projection): Promise<boolean> {
    let progressed = false;
    for (;;) {
      if (this.#stopped) return progressed;
      const { live } = projection;
      const hook: BatchHook | undefined =
        this.#hooks.get(projection.name) ?? (live && ((events, db) => live(events, db, this.#clock)));
      const { read, applied } = await runBatch(this.#store, projection, BATCH, hook);
      if (applied.length) for (const listener of this.#listeners) listener(projection.name, applied);
      progressed ||= read > 0;
      if (read < BATCH) return progressed;
    }
  }

  /** Events of this era committed by transactions not yet below the horizon, or still running. */
  async #eventsInFlight(): Promise<boolean> {
    const { rows } = await this.#store.pool.query<{ pending: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM events WHERE era = (SELECT max(era) FROM log_eras)
         AND transaction_id >= pg_snapshot_xmin(pg_current_snapshot())) AS pending`,
    );
    return rows[0]!.pending;
  }

  /**
   * Looks again soon while a transaction holds the horizon back: at once after progress, then with
   * pauses that grow, so a long transaction elsewhere costs a few queries a second, not hundreds.
   */
  #scheduleRetry(progressed: boolean, ms?: number) {
    if (this.#stopped || this.#retry) return;
    if (progressed) this.#backoffMs = FIRST_BACKOFF_MS;
    const delay = ms ?? this.#backoffMs;
    if (ms === undefined) this.#backoffMs = Math.min(this.#backoffMs * 2, LONGEST_BACKOFF_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.wake();
    }, delay);
  }
}
