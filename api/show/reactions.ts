import type { EventStore } from '#events/store.ts';
import type { Emoji } from '#events/show/show.ts';
import type { Kind } from '#projections/catalog/items.ts';
import { log } from '../observability/logger.ts';
import { flushTallies } from './reactionFlush.ts';

/** How often a process adds what it counted, and the least time between two flushes: at most 4 `reactions:burst` a second per item. */
export const FLUSH_MS = 250;
/** A database that does not answer is asked again after growing pauses, up to this. */
const LONGEST_RETRY_MS = 5000;

const logger = log.child({ component: 'reactions' });

/**
 * Counts reaction taps in memory, per item and emoji, and every FLUSH_MS adds them to the shared
 * `reaction_tallies`, then takes part in the flush that turns every process's tallies into one
 * `ReactionsCounted` per item (docs/decisions/035): however many API processes there are, an item
 * gets at most one event, so one burst, a quarter second. A process keeps trying to flush while what
 * it added may still be waiting; then its timer stops, so an idle process holds nothing open.
 * A tap is answered 202 before it is written: if the process dies within the quarter second, or the
 * database is away when it adds, those taps are lost, which a reaction may be (never counted twice).
 */
export class ReactionCounter {
  readonly #store: EventStore;
  #counts = new Map<string, { kind: Kind; id: number; emoji: Emoji; taps: number }>();
  /** this process added tallies that no flush it knows of has taken yet */
  #owed = false;
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;
  #failures = 0;
  #stopped = false;

  constructor(store: EventStore) {
    this.#store = store;
  }

  tap(kind: Kind, id: number, emoji: Emoji) {
    const key = `${kind}:${id}:${emoji}`;
    const entry = this.#counts.get(key);
    if (entry) entry.taps++;
    else this.#counts.set(key, { kind, id, emoji, taps: 1 });
    this.#schedule(FLUSH_MS);
  }

  /**
   * No more rounds: waits for the one under way, and adds what is still counted here to the shared
   * tallies, where whichever process flushes next takes it.
   */
  async stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
    await this.#add();
  }

  #schedule(ms: number) {
    if (this.#stopped || this.#timer || this.#running) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#tick().then((next) => {
        this.#running = undefined;
        if (this.#counts.size > 0 || this.#owed) this.#schedule(next);
      });
    }, ms);
  }

  /** One round: add, then flush if owed. The pause before the next round. */
  async #tick(): Promise<number> {
    const startedAt = performance.now();
    // the next round a quarter second after this one began, not after it ended
    const onTime = () => Math.max(0, FLUSH_MS - (performance.now() - startedAt));
    try {
      await this.#add();
      if (!this.#owed) return onTime();
      const outcome = await flushTallies(this.#store, FLUSH_MS);
      this.#failures = 0;
      if (!outcome.done) return outcome.retryInMs;
      this.#owed = false;
      return onTime();
    } catch (error) {
      this.#failures++;
      logger.error({ err: error }, 'reaction tallies not flushed; trying again');
      return Math.min(FLUSH_MS * 2 ** this.#failures, LONGEST_RETRY_MS);
    }
  }

  /** This process's counts into the shared tallies, in one statement. */
  async #add() {
    if (this.#counts.size === 0) return;
    const batch = [...this.#counts.values()];
    this.#counts = new Map();
    try {
      await this.#store.pool.query(
        `INSERT INTO reaction_tallies AS t (kind, item_id, emoji, taps)
         SELECT kind, item_id, emoji, taps
         FROM jsonb_to_recordset($1::jsonb) AS r(kind text, item_id bigint, emoji text, taps integer)
         ON CONFLICT (kind, item_id, emoji) DO UPDATE SET taps = t.taps + EXCLUDED.taps`,
        [JSON.stringify(batch.map(({ kind, id, emoji, taps }) => ({ kind, item_id: id, emoji, taps })))],
      );
      this.#owed = true;
    } catch (error) {
      const taps = batch.reduce((n, b) => n + b.taps, 0);
      logger.error({ err: error, taps }, 'reaction taps lost: the tallies could not be added');
    }
  }
}
