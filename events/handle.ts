import type pg from 'pg';
import type { DomainEvent } from './catalog.ts';
import type { Decider } from './decider.ts';
import { DomainError, StaleVersion } from './errors.ts';
import type { EventMetadata } from './metadata.ts';
import type { EventStore } from './store.ts';

export interface HandleOptions {
  /**
   * A transaction of `store.transaction` to join, so the events commit together with the caller's
   * other writes (the email row, the job). The stream is read in it and a stale append fails the
   * whole transaction instead of being decided again.
   */
  tx?: pg.PoolClient;
  /** how often a stale append is decided again on fresh state (without `tx`) */
  attempts?: number;
}

/**
 * The one write path: reads a stream, decides, and appends expecting the version it read. A
 * concurrent writer makes the append stale; the command is then decided again on the fresh state, a
 * few times at most. The store wakes the projections once the events are committed.
 */
export async function handleCommand<S, E extends DomainEvent, C>(
  store: EventStore,
  streamId: string,
  decider: Decider<S, E, C>,
  command: C,
  metadata: EventMetadata,
  { tx, attempts = tx ? 1 : 3 }: HandleOptions = {},
): Promise<{ events: E[]; state: S; lastPosition?: number }> {
  const db = tx ?? store.pool;
  for (let attempt = 1; ; attempt++) {
    const { state, version, lastPosition } = await store.aggregate(streamId, decider.evolve, decider.initial, db);
    if (await store.isErased(streamId, db)) refuseErased(decider, command);
    const events = decider.decide(command, state, version);
    // nothing new: the answer waits for the stream as it was read, so it shows the state that decided
    if (events.length === 0) return { events, state, lastPosition };
    try {
      const { positions } = await store.append(streamId, version, events, metadata, db);
      return { events, state: events.reduce(decider.evolve, state), lastPosition: positions.at(-1) };
    } catch (error) {
      if (!(error instanceof StaleVersion) || attempt >= attempts) throw error;
    }
  }
}

/**
 * An erased stream (decision 050) is gone for every decision, as if nothing had ever been written to
 * it: a job that finishes after the erasure, or an admin's late click, must not write to it again
 * (decision 146). The command is decided as on an empty stream, so that the refusal is the decider's
 * own ("Artwork not found"); one that an empty stream would take is refused all the same.
 */
function refuseErased<S, E extends DomainEvent, C>(decider: Decider<S, E, C>, command: C): never {
  decider.decide(command, decider.initial, 0);
  throw new DomainError(404, 'Not found');
}
