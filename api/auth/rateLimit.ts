/**
 * Failed logins per client address in a sliding minute. Kept in memory: with several API processes
 * an address gets the limit once per process, which still stops guessing (docs/decisions).
 */
export class FailureLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #failures = new Map<string, number[]>();

  constructor(limit = 10, windowMs = 60_000) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  #recent(key: string, now: number): number[] {
    const kept = (this.#failures.get(key) ?? []).filter((t) => now - t < this.#windowMs);
    if (kept.length) this.#failures.set(key, kept);
    else this.#failures.delete(key);
    return kept;
  }

  blocked(key: string, now = Date.now()): boolean {
    return this.#recent(key, now).length >= this.#limit;
  }

  fail(key: string, now = Date.now()) {
    this.#failures.set(key, [...this.#recent(key, now), now]);
  }
}
