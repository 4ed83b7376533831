import type pg from 'pg';
import type { EventType } from '#events/catalog.ts';
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
}
