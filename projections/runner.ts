import type pg from 'pg';
import { inTransaction } from '#api/db/postgres.ts';
import { CHAIN_PROJECTION } from '#events/chain.ts';
import { START, type Checkpoint, type EventStore, type RecordedEvent } from '#events/store.ts';
import type { Projection } from './projection.ts';

export const WAKE_CHANNEL = 'tribute_events';
const BATCH = 500;

export type CommittedListener = (projection: string, events: readonly RecordedEvent[]) => void;

/** Runs one batch of a projection: read-model writes and checkpoint commit together. */
export async function runBatch(
  store: EventStore,
  projection: Projection,
  limit = BATCH,
  followChain = false,
): Promise<{ read: number; applied: RecordedEvent[] }> {
  return inTransaction(store.pool, async (db) => {
    const checkpoint = await lockCheckpoint(db, projection.name);
    const until = followChain ? await readCheckpoint(db, CHAIN_PROJECTION) : undefined;
    const events = await store.readAfter(checkpoint, limit, db, until);
    if (events.length === 0) return { read: 0, applied: [] };
    const relevant = events.filter((e) => projection.canHandle.includes(e.type));
    if (relevant.length) await projection.apply(relevant, db);
    const last = events.at(-1)!;
    await db.query(
      `UPDATE projection_checkpoints SET transaction_id = $2::xid8, position = $3, updated_at = now() WHERE name = $1`,
      [projection.name, last.transactionId, last.position],
    );
    return { read: events.length, applied: relevant };
  });
}

export async function readCheckpoint(db: pg.PoolClient, name: string): Promise<Checkpoint> {
  const { rows } = await db.query<{ transaction_id: string; position: number }>(
    `SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = $1`,
    [name],
  );
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: row.position } : START;
}

/** Locks the projection's checkpoint row for this transaction: one runner per projection at a time. */
export async function lockCheckpoint(db: pg.PoolClient, name: string): Promise<Checkpoint> {
  const select = () =>
    db.query<{ transaction_id: string; position: number }>(
      `SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = $1 FOR UPDATE`,
      [name],
    );
  let { rows } = await select();
  if (!rows[0]) {
    await db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [name]);
    ({ rows } = await select());
  }
  const row = rows[0]!;
  return { transactionId: row.transaction_id, position: row.position };
}

/**
 * Keeps every projection caught up: at start, whenever this process appends, and whenever another
 * process NOTIFYs. Projections run in order; with the chain sealer first, the others never get ahead of it.
 */
export class ProjectionRunner {
  readonly #store: EventStore;
  readonly #projections: readonly Projection[];
  readonly #listeners: CommittedListener[] = [];
  /** When the chain is sealed here, other projections only apply sealed events (they have a seq). */
  readonly #sealsChain: boolean;
  #listenClient?: pg.PoolClient;
  #running?: Promise<void>;
  #again = false;
  #stopped = false;
  #retry?: NodeJS.Timeout;
  #poll?: NodeJS.Timeout;

  constructor(store: EventStore, projections: readonly Projection[]) {
    this.#store = store;
    this.#projections = projections;
    this.#sealsChain = projections[0]?.name === CHAIN_PROJECTION;
  }

  onCommitted(listener: CommittedListener) {
    this.#listeners.push(listener);
  }

  async start() {
    this.#store.onAppend(() => this.wake());
    this.#listenClient = await this.#store.pool.connect();
    this.#listenClient.on('notification', () => this.wake());
    this.#listenClient.on('error', () => {});
    await this.#listenClient.query(`LISTEN ${WAKE_CHANNEL}`);
    // A safety net for a missed notification (a dropped listen connection, say).
    this.#poll = setInterval(() => this.wake(), 1000);
    await this.wake();
  }

  async stop() {
    this.#stopped = true;
    clearInterval(this.#poll);
    clearTimeout(this.#retry);
    await this.#running?.catch(() => {});
    if (this.#listenClient) {
      await this.#listenClient.query(`UNLISTEN ${WAKE_CHANNEL}`).catch(() => {});
      this.#listenClient.release(true);
    }
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
        for (const projection of this.#projections) await this.#catchUp(projection);
        if (await this.#eventsInFlight()) this.#scheduleRetry();
      } catch (error) {
        if (!this.#stopped) console.error('projection runner:', error);
        this.#scheduleRetry(200);
      }
    } while (this.#again && !this.#stopped);
  }

  async #catchUp(projection: Projection) {
    for (;;) {
      if (this.#stopped) return;
      const followChain = this.#sealsChain && projection.name !== CHAIN_PROJECTION;
      const { read, applied } = await runBatch(this.#store, projection, BATCH, followChain);
      if (applied.length) for (const l of this.#listeners) l(projection.name, applied);
      if (read < BATCH) return;
    }
  }

  /** Events committed by transactions not yet below the horizon, or still running. */
  async #eventsInFlight(): Promise<boolean> {
    const { rows } = await this.#store.pool.query<{ pending: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM events WHERE transaction_id >= pg_snapshot_xmin(pg_current_snapshot())) AS pending`,
    );
    return rows[0]!.pending;
  }

  #scheduleRetry(ms = 3) {
    if (this.#stopped || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.wake();
    }, ms);
  }
}
