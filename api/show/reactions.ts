import type { EventStore } from '#events/store.ts';
import { reactionStream, type Emoji } from '#events/show/show.ts';
import type { Kind } from '#projections/catalog/items.ts';
import type { ReactionCounts } from '#contract/live.ts';

/** How often a process writes what it counted: at most 4 `reactions:burst` a second per item from one process. */
export const FLUSH_MS = 250;

/**
 * Counts reaction taps in memory, per item, and every FLUSH_MS appends one `ReactionsCounted` per
 * item with the taps since the last flush (docs/decisions/035). A hundred taps become a handful of
 * events, so the log holds the totals and the room gets coalesced bursts. The timer runs only while
 * taps are waiting, so an idle process holds nothing open. A tap is answered 202 before it is
 * written: if the process dies within the quarter second, those taps are lost, which a reaction may be.
 */
export class ReactionCounter {
  readonly #store: EventStore;
  #pending = new Map<string, { kind: Kind; id: number; counts: ReactionCounts }>();
  #timer?: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: EventStore) {
    this.#store = store;
  }

  tap(kind: Kind, id: number, emoji: Emoji) {
    const key = `${kind}:${id}`;
    let entry = this.#pending.get(key);
    if (!entry) this.#pending.set(key, (entry = { kind, id, counts: {} }));
    entry.counts[emoji] = (entry.counts[emoji] ?? 0) + 1;
    if (this.#timer === undefined)
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#flushing = this.#flushing.then(() => this.flush());
      }, FLUSH_MS);
  }

  /** Writes what is waiting now (also for tests and a draining shutdown). */
  async flush(): Promise<void> {
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    const now = new Date().toISOString();
    await Promise.all(
      batch.map(({ kind, id, counts }) =>
        this.#store
          .append(reactionStream(kind, id), 'any', [{ type: 'ReactionsCounted', data: { kind, itemId: id, counts } }], {
            role: 'system',
            now,
          })
          .catch((error: Error) => console.error(`reactions for ${kind} ${id} not written:`, error.message)),
      ),
    );
  }
}
