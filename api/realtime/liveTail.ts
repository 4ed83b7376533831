import type pg from 'pg';
import type { LiveMessage, Room } from '#contract/live.ts';
import { PgListener } from '#db/listener.ts';
import { forgets, type Forgetting } from '#projections/live/forgetting.ts';
import { LIVE_CHANNEL, LIVE_RETENTION } from '#projections/live/outbox.ts';
import { log } from '../observability/logger.ts';

export interface OutboxMessage {
  /** `everyone`, `admins`, or one browser's `mine:…` (its messages are never in a catch-up) */
  room: Room | `mine:${string}`;
  message: LiveMessage;
}

/** A client further behind than this many messages refetches instead of catching up. */
export const CATCH_UP_LIMIT = 500;
const PULL_LIMIT = 2000;
const POLL_MS = 1000;

/** What a counter message stands for: a later one with the same key makes the earlier one redundant. */
export function catchUpKey(m: LiveMessage): string | undefined {
  if (m.event === 'likes:changed') return `likes:${m.payload.kind}:${m.payload.id}`;
  if (m.event === 'admin:queue-changed') return 'queue';
  return undefined;
}

/**
 * What a catch-up batch carries of a run of messages: every comment and arrival, but of the counters
 * (likes, the admin queue) only the last, as they are totals. A storm of reconnects after a busy
 * minute then carries one like count per item, not every step of it.
 */
export function forCatchUp(messages: readonly LiveMessage[]): LiveMessage[] {
  const last = new Map<string, number>();
  messages.forEach((m, i) => {
    const key = catchUpKey(m);
    if (key) last.set(key, i);
  });
  return messages.filter((m, i) => {
    const key = catchUpKey(m);
    return key === undefined || last.get(key) === i;
  });
}

interface Row {
  upto: number;
  pruned: number;
  forgotten: Forgetting[];
  position: number | null;
  room: Room;
  event: string;
  payload: LiveMessage['payload'];
}

/**
 * Follows the live outbox in position order and hands each message to `emit`, exactly once, in
 * order. Woken by NOTIFY from the catalog's batches, and by a poll in case a notification was lost
 * (a dropped listen connection, a restarted database): whatever happened meanwhile is read by
 * position, so nothing is skipped.
 */
export class LiveTail {
  readonly #pool: pg.Pool;
  readonly #emit: (messages: OutboxMessage[]) => void;
  readonly #log = log.child({ component: 'live tail' });
  #position = 0;
  /** The messages this process emitted, oldest first: complete for every position after #recentFrom. */
  #recent: Array<OutboxMessage & { position: number }> = [];
  #recentFrom = 0;
  #pulling?: Promise<void>;
  #again = false;
  #listener?: PgListener;
  #poll?: NodeJS.Timeout;
  #waiters = new Set<() => void>();
  #stopped = false;

  constructor(pool: pg.Pool, emit: (messages: OutboxMessage[]) => void) {
    this.#pool = pool;
    this.#emit = emit;
  }

  /** The catalog position up to which this process has emitted every message. */
  get position(): number {
    return this.#position;
  }

  async start() {
    const { rows } = await this.#pool.query<{ at: number }>(`SELECT catalog_position() AS at`);
    this.#position = rows[0]!.at;
    this.#recentFrom = this.#position;
    this.#listener = new PgListener({
      config: this.#pool.options,
      channels: [LIVE_CHANNEL],
      // pull() never rejects: it logs a failed read and the poll comes back for it
      onNotify: () => void this.pull(),
      onListening: () => void this.pull(),
      log: (message, error) => this.#log.warn({ reason: (error as Error | undefined)?.message }, message),
    });
    await this.#listener.start();
    this.#poll = setInterval(() => void this.pull(), POLL_MS);
  }

  async stop() {
    this.#stopped = true;
    clearInterval(this.#poll);
    await this.#pulling?.catch(() => {});
    await this.#listener?.stop();
    for (const wake of this.#waiters) wake();
  }

  /** Reads and emits everything new; concurrent calls fold into one more read. */
  pull(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#pulling) {
      this.#again = true;
      return this.#pulling;
    }
    this.#pulling = (async () => {
      do {
        this.#again = false;
        try {
          while (await this.#pullOnce());
        } catch (error) {
          // the database is away: the poll comes back for it, from the same position
          if (!this.#stopped) this.#log.warn({ reason: (error as Error).message }, 'outbox not readable; polling on');
        }
      } while (this.#again && !this.#stopped);
    })().finally(() => (this.#pulling = undefined));
    return this.#pulling;
  }

  /** Resolves once this process has emitted up to `position`, or after `timeoutMs`; true if it has. */
  async reach(position: number, timeoutMs: number): Promise<boolean> {
    if (this.#position >= position) return true;
    void this.pull();
    // a timeout: elapsed time, not domain time (decision 147)
    const deadline = Date.now() + timeoutMs;
    while (this.#position < position && Date.now() < deadline && !this.#stopped) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(50, Math.max(1, deadline - Date.now())));
        this.#waiters.add(wake);
      });
      if (this.#position < position) void this.pull();
    }
    return this.#position >= position;
  }

  /** One read; true when it was cut short and there is more. */
  async #pullOnce(): Promise<boolean> {
    const from = this.#position;
    // one statement, one snapshot: the checkpoint, the messages it covers, what the outbox pruned and
    // what deletes and erasures made it forget all agree
    const { rows } = await this.#pool.query<Row>(
      `WITH cp AS (SELECT catalog_position() AS upto),
       f AS (
         SELECT coalesce(json_agg(json_build_object('position', f.position, 'items', f.items, 'comments', f.comments)), '[]') AS forgotten
         FROM live_forgotten f, cp WHERE f.position > $1 AND f.position <= cp.upto)
       SELECT cp.upto, s.pruned_through AS pruned, f.forgotten, m.position, m.room, m.event, m.payload
       FROM cp CROSS JOIN f CROSS JOIN live_state s
       LEFT JOIN LATERAL (
         SELECT * FROM live_messages WHERE position > $1 AND position <= cp.upto ORDER BY position, ord LIMIT $2
       ) m ON true`,
      [from, PULL_LIMIT],
    );
    if (this.#stopped || this.#position !== from) return false;
    let upto = rows[0]?.upto ?? from;
    let found: Array<Pick<Row, 'position' | 'room' | 'event' | 'payload'>> = rows.filter((r) => r.position !== null);
    const cut = found.length === PULL_LIMIT;
    if (cut) {
      // never split one position's messages across two reads; a position that alone fills a read
      // (an erasure of a prolific person) is read whole, on its own
      const lastPosition = found.at(-1)!.position!;
      if (found[0]!.position === lastPosition) {
        found = await this.#wholePosition(lastPosition);
        upto = lastPosition;
      } else {
        found = found.filter((r) => r.position !== lastPosition);
        upto = lastPosition - 1;
      }
    }
    this.#forget(rows[0]?.pruned ?? 0, rows[0]?.forgotten ?? []);
    if (upto <= from) return false;
    this.#position = upto;
    if (found.length) {
      const messages = found.map((r) => ({
        position: r.position!,
        room: r.room,
        message: { event: r.event, payload: r.payload } as LiveMessage,
      }));
      this.#remember(messages);
      this.#emit(messages);
    }
    // a copy: a woken waiter may wait again, and must not be woken twice in one round
    // oxlint-disable-next-line unicorn/no-useless-spread
    for (const wake of [...this.#waiters]) wake();
    return cut;
  }

  async #wholePosition(position: number) {
    const { rows } = await this.#pool.query<Pick<Row, 'position' | 'room' | 'event' | 'payload'>>(
      `SELECT position, room, event, payload FROM live_messages WHERE position = $1 ORDER BY ord`,
      [position],
    );
    return rows;
  }

  /**
   * What the outbox no longer holds, memory no longer gives: a catch-up from before what was pruned
   * refetches, and the messages a delete or an erasure took are not sent again (decision 073).
   */
  #forget(pruned: number, forgotten: readonly Forgetting[]) {
    if (pruned > this.#recentFrom) {
      this.#recent = this.#recent.filter((m) => m.position > pruned);
      this.#recentFrom = pruned;
    }
    if (forgotten.length) {
      this.#recent = this.#recent.filter((m) => !forgotten.some((f) => forgets(f, m.message.event, m.message.payload)));
    }
  }

  #remember(messages: Array<OutboxMessage & { position: number }>) {
    this.#recent.push(...messages);
    const floor = this.#position - LIVE_RETENTION;
    if (this.#recentFrom < floor) {
      const keep = this.#recent.findIndex((m) => m.position > floor);
      this.#recent = keep < 0 ? [] : this.#recent.slice(keep);
      this.#recentFrom = floor;
    }
  }

  /**
   * What a reconnecting client missed after `since`, up to `upTo`, in its rooms (counters
   * coalesced); or 'refetch' when that is more than a catch-up should carry or older than the outbox
   * keeps. Recent ones come from this process's memory, so a storm of reconnects costs no queries.
   */
  async missed(since: number, upTo: number, rooms: readonly Room[]): Promise<LiveMessage[] | 'refetch'> {
    if (since >= upTo) return [];
    if (since >= this.#recentFrom && upTo <= this.#position) {
      const mine = this.#recent.filter(
        (m) => m.position > since && m.position <= upTo && (rooms as readonly string[]).includes(m.room),
      );
      const messages = forCatchUp(mine.map((m) => m.message));
      return messages.length > CATCH_UP_LIMIT ? 'refetch' : messages;
    }
    const { rows } = await this.#pool.query<{ pruned: number; event: string | null; payload: LiveMessage['payload'] }>(
      `SELECT s.pruned_through AS pruned, m.event, m.payload FROM live_state s
       LEFT JOIN LATERAL (
         SELECT event, payload FROM live_messages
         WHERE position > $1 AND position <= $2 AND room = ANY($3::text[])
         ORDER BY position, ord LIMIT $4
       ) m ON true`,
      [since, upTo, rooms, CATCH_UP_LIMIT + 1],
    );
    if (since < (rows[0]?.pruned ?? 0)) return 'refetch';
    const messages = rows.filter((r) => r.event !== null);
    if (messages.length > CATCH_UP_LIMIT) return 'refetch';
    return forCatchUp(messages.map((r) => ({ event: r.event, payload: r.payload }) as LiveMessage));
  }
}
