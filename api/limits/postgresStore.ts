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

  async increment(key: string): Promise<IncrementResponse> {
    if (++this.#increments % 500 === 0) {
      this.#db.query(`DELETE FROM rate_limits WHERE reset_at < now()`).catch(() => {});
    }
    const { rows } = await this.#db.query<{ hits: number; reset_at: Date }>(
      `INSERT INTO rate_limits AS r (key, hits, reset_at)
       VALUES ($1, 1, now() + make_interval(secs => $2))
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, this.#windowMs / 1000],
    );
    return { totalHits: rows[0]!.hits, resetTime: rows[0]!.reset_at };
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
