import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import type pg from 'pg';

/** Limits with a window up to this long count over a sliding window; longer ones over a fixed one. */
export const SLIDING_MAX_MS = 10_000;

/**
 * express-rate-limit counters in PostgreSQL, so every API process counts against the same numbers.
 * A short limit (a window up to SLIDING_MAX_MS: "5 a second") counts the hits of the last window,
 * in slots of a tenth of it (migrations/025, docs/decisions/086): a window opened by the first hit
 * would let a burst that straddles its end through twice over. A longer limit keeps a fixed window
 * per key: the first hit opens it, hits after `reset_at` start a new one.
 */
export class PostgresStore implements Store {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly prefix: string;
  readonly localKeys = false;
  #windowMs = 60_000;
  #increments = 0;
  #counting = false;
  /** when the first hit now waiting to be counted came */
  #batchAt = 0;
  #waiting = new Map<string, Array<{ resolve: (r: IncrementResponse) => void; reject: (e: unknown) => void }>>();

  constructor(db: Pick<pg.Pool, 'query'>, prefix: string) {
    this.#db = db;
    this.prefix = prefix;
  }

  init(options: Options) {
    this.#windowMs = options.windowMs;
  }

  get #sliding() {
    return this.#windowMs <= SLIDING_MAX_MS;
  }

  /** The length of a slot of a sliding window, in milliseconds. */
  get #slotMs() {
    return this.#windowMs / 10;
  }

  async get(key: string) {
    const { rows } = await this.#db.query<{ hits: number; reset_at: Date }>(
      this.#sliding
        ? `SELECT CASE WHEN r.slots IS NULL THEN r.hits ELSE f.hits END AS hits,
             CASE WHEN r.slots IS NULL THEN r.reset_at ELSE f.reset_at END AS reset_at
           FROM rate_limits r, rate_limit_slide(r.slots, r.slot, $2, 0, $3) f WHERE r.key = $1 AND r.reset_at > now()`
        : `SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > now()`,
      // the sliding window's slot: a rate-limit window, measured by the wall clock, not domain time (decision 147)
      this.#sliding ? [this.prefix + key, this.#slotMs, Date.now()] : [this.prefix + key],
    );
    return rows[0] && { totalHits: rows[0].hits, resetTime: rows[0].reset_at };
  }

  /**
   * Counts one hit. The hits of one turn of the event loop go to PostgreSQL together, one statement
   * for all their keys (a room tapping reactions is hundreds a second): each is still counted in the
   * shared table before it is answered, so the limit holds across processes as before.
   */
  increment(key: string): Promise<IncrementResponse> {
    return new Promise((resolve, reject) => {
      const fullKey = this.prefix + key;
      const waiting = this.#waiting.get(fullKey);
      if (waiting) waiting.push({ resolve, reject });
      else this.#waiting.set(fullKey, [{ resolve, reject }]);
      if (!this.#counting) {
        this.#counting = true;
        // the batch's slot in the sliding window: a rate-limit window, not domain time (decision 147)
        this.#batchAt = Date.now();
        setImmediate(() => void this.#countWaiting());
      }
    });
  }

  async #countWaiting() {
    const batch = this.#waiting;
    const at = this.#batchAt;
    this.#waiting = new Map();
    this.#counting = false;
    this.#increments += batch.size;
    if (this.#increments >= 500) {
      this.#increments = 0;
      this.#db.query(`DELETE FROM rate_limits WHERE reset_at < now()`).catch(() => {});
    }
    // in one order, so two processes counting the same keys never wait on each other in a cycle
    const keys = [...batch.keys()].sort();
    try {
      const counts = keys.map((k) => batch.get(k)!.length);
      const { rows } = await this.#db.query<{ key: string; hits: number; reset_at: Date }>(
        this.#sliding
          ? { name: 'rate-limit-slide', text: SLIDE, values: [keys, counts, this.#slotMs, at] }
          : { name: 'rate-limit-increment', text: INCREMENT, values: [keys, counts, this.#windowMs / 1000] },
      );
      const counted = new Map(rows.map((row) => [row.key, row]));
      for (const [key, hits] of batch) {
        const row = counted.get(key);
        // the hits of one key in this turn, in the order they came
        hits.forEach((hit, i) =>
          row
            ? hit.resolve({ totalHits: row.hits - hits.length + i + 1, resetTime: row.reset_at })
            : hit.reject(new Error(`rate limit ${key} not counted`)),
        );
      }
    } catch (error) {
      for (const hits of batch.values()) for (const hit of hits) hit.reject(error);
    }
  }

  /**
   * Adds `amount` to a key's count at once (bytes of an upload, points of a stroke), opening its window
   * if none is open; answers the count with it.
   */
  async add(key: string, amount: number): Promise<IncrementResponse> {
    const keys = [this.prefix + key];
    const { rows } = await this.#db.query<{ hits: number; reset_at: Date }>(
      this.#sliding ? SLIDE : INCREMENT,
      // the sliding window's slot: a rate-limit window, not domain time (decision 147)
      this.#sliding ? [keys, [amount], this.#slotMs, Date.now()] : [keys, [amount], this.#windowMs / 1000],
    );
    return { totalHits: rows[0]!.hits, resetTime: rows[0]!.reset_at };
  }

  async decrement(key: string) {
    await this.#db.query(
      this.#sliding
        ? // the newest slot that holds a hit gives one back
          `UPDATE rate_limits SET hits = greatest(hits - 1, 0), slots = CASE WHEN slots IS NOT NULL THEN ARRAY(
             SELECT CASE WHEN i = (SELECT min(j) FROM generate_series(1, 11) j WHERE slots[j] > 0)
               THEN slots[i] - 1 ELSE coalesce(slots[i], 0) END
             FROM generate_series(1, 11) i ORDER BY i) END
           WHERE key = $1 AND reset_at > now()`
        : `UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = $1 AND reset_at > now()`,
      [this.prefix + key],
    );
  }

  async resetKey(key: string) {
    await this.#db.query(`DELETE FROM rate_limits WHERE key = $1`, [this.prefix + key]);
  }
}

/** A fixed window: $1 keys, $2 hits each, $3 the window in seconds. */
const INCREMENT = `INSERT INTO rate_limits AS r (key, hits, reset_at)
  SELECT k, n, now() + make_interval(secs => $3) FROM unnest($1::text[], $2::int[]) AS u(k, n)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN r.reset_at <= now() THEN EXCLUDED.hits ELSE r.hits + EXCLUDED.hits END,
    reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
  RETURNING key, hits, reset_at`;

/**
 * A sliding window: $1 keys, $2 hits each, $3 the slot in milliseconds (a tenth of the window), $4 when
 * the hits came (ms since 1970): a hit is placed by when it reached the limiter, not by when a busy
 * database got to it. A
 * row without slots (counted before migration 025, or set so by hand) is a fixed window until it ends.
 */
const SLIDE = `INSERT INTO rate_limits AS r (key, hits, reset_at, slots, slot)
  SELECT k, f.hits, f.reset_at, f.slots_now, f.slot_now
  FROM unnest($1::text[], $2::int[]) AS u(k, n), rate_limit_slide(NULL, NULL, $3, n, $4) f
  ON CONFLICT (key) DO UPDATE SET (slots, slot, hits, reset_at) = (
    SELECT f.slots_now, f.slot_now, f.hits, f.reset_at FROM rate_limit_slide(r.slots, r.slot, $3, EXCLUDED.hits, $4) f
    WHERE r.slots IS NOT NULL OR r.reset_at <= now()
    UNION ALL
    SELECT NULL, NULL, r.hits + EXCLUDED.hits, r.reset_at WHERE r.slots IS NULL AND r.reset_at > now())
  RETURNING key, hits, reset_at`;
