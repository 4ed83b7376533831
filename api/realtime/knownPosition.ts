/**
 * Where this process knows the catalog stands, without asking the database (decision 028): the
 * furthest catalog position it has seen committed, by its live tail, by its own projection runner,
 * or by a write it waited for. It only moves forward, and may trail the database, never lead it.
 */
export class KnownPosition {
  readonly #tail: () => number;
  #told = 0;

  /** `tail`: the position up to which this process's live tail has read the outbox. */
  constructor(tail: () => number) {
    this.#tail = tail;
  }

  get at(): number {
    return Math.max(this.#told, this.#tail());
  }

  /** Records that the catalog has committed up to `position` (read from the database or the runner). */
  advance(position: number) {
    if (position > this.#told) this.#told = position;
  }
}
