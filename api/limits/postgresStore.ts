import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import type pg from 'pg';

/**
 * express-rate-limit counters in PostgreSQL, so every API process counts against the same numbers.
 * A fixed window per key: the first hit opens it, hits after `reset_at` start a new one.
 */
export class PostgresStore implements Store {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly prefix: string;
  readonly localKeys = false;
  #windowMs = 60_000;
  #increments = 0;
  #counting = false;
  #waiting = new Map<string, Array<{ resolve: (r: IncrementResponse) => void; reject: (e: unknown) => void }>>();

  constructor(db: Pick<pg.Pool, 'query'>, prefix: string) {
    this.#db = db;
    this.prefix = prefix;
  }

  init(options: Options) {
    this.#windowMs = options.windowMs;
  }

  async get(key: string) {
    const { rows } = await this.#db.query<{ hits: number; reset_at: Date }>(
      `SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > now()`,
      [this.prefix + key],
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
        setImmediate(() => void this.#countWaiting());
      }
    });
  }

  async #countWaiting() {
    const batch = this.#waiting;
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
      const { rows } = await this.#db.query<{ key: string; hits: number; reset_at: Date }>({
        name: 'rate-limit-increment',
        text: `INSERT INTO rate_limits AS r (key, hits, reset_at)
         SELECT k, n, now() + make_interval(secs => $3) FROM unnest($1::text[], $2::int[]) AS u(k, n)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.reset_at <= now() THEN EXCLUDED.hits ELSE r.hits + EXCLUDED.hits END,
           reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
         RETURNING key, hits, reset_at`,
        values: [keys, keys.map((k) => batch.get(k)!.length), this.#windowMs / 1000],
      });
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

  /** Adds `amount` to a key's count at once (bytes of an upload, say), opening its window if none is open. */
  async add(key: string, amount: number) {
    await this.#db.query(
      `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= now() THEN EXCLUDED.hits ELSE r.hits + EXCLUDED.hits END,
         reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END`,
      [this.prefix + key, amount, this.#windowMs / 1000],
    );
  }

  async decrement(key: string) {
    await this.#db.query(`UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = $1 AND reset_at > now()`, [
      this.prefix + key,
    ]);
  }

  async resetKey(key: string) {
    await this.#db.query(`DELETE FROM rate_limits WHERE key = $1`, [this.prefix + key]);
  }
}
