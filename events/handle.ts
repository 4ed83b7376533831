import type { DomainEvent } from './catalog.ts';
import { StaleVersion } from './errors.ts';
import type { EventMetadata } from './metadata.ts';
import type { EventStore } from './store.ts';

export interface Decider<S, E extends DomainEvent, C> {
  initial: S;
  evolve(state: S, event: E): S;
  /** `version` is the stream's, for rules that compare it with one a client stated. */
  decide(command: C, state: S, version?: number): E[];
}

/**
 * Reads a stream, decides, and appends expecting the version it read. A concurrent writer makes the
 * append stale; the command is then decided again on the fresh state, a few times at most.
 */
export async function handleCommand<S, E extends DomainEvent, C>(
  store: EventStore,
  streamId: string,
  decider: Decider<S, E, C>,
  command: C,
  metadata: EventMetadata,
  attempts = 3,
): Promise<{ events: E[]; state: S; lastPosition?: number }> {
  for (let attempt = 1; ; attempt++) {
    const { state, version, lastPosition } = await store.aggregate(streamId, decider.evolve, decider.initial);
    const events = decider.decide(command, state, version);
    // nothing new: the answer waits for the stream as it was read, so it shows the state that decided
    if (events.length === 0) return { events, state, lastPosition };
    try {
      const { positions } = await store.append(streamId, version, events, metadata);
      return { events, state: events.reduce(decider.evolve, state), lastPosition: positions.at(-1) };
    } catch (error) {
      if (!(error instanceof StaleVersion) || attempt >= attempts) throw error;
    }
  }
}
