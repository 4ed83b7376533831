import type pg from 'pg';
import type { EventType } from '#events/catalog.ts';
import type { Clock } from '#events/clock.ts';
import type { RecordedEvent } from '#events/store.ts';

/**
 * A read model derived from the log alone. apply() runs inside the transaction that also moves the
 * projection's checkpoint, so a crash at any point loses nothing and applies nothing twice.
 */
export interface Projection {
  name: string;
  canHandle: readonly EventType[];
  /** The tables this projection owns, emptied on rebuild and compared by check. */
  tables: readonly string[];
  /** false for projections that must never be rebuilt from scratch (the hash chain). */
  rebuildable: boolean;
  apply(events: readonly RecordedEvent[], db: pg.PoolClient): Promise<void>;
  /**
   * What open screens hear of a batch, written by the runner inside the batch's transaction after
   * apply() and before the checkpoint moves, so the messages commit with the state they describe
   * (the catalog's live outbox, decision 011). A rebuild, a check and an import fold without it.
   * `clock` is the runner's: what a message says of today is the process's day (decision 147).
   */
  live?: (events: readonly RecordedEvent[], db: pg.PoolClient, clock: Clock) => Promise<void>;
}

/** Work done inside a projection's batch transaction, after its read-model writes and before its checkpoint moves. */
export type BatchHook = (events: readonly RecordedEvent[], db: pg.PoolClient) => Promise<void>;
