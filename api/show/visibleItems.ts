import type pg from 'pg';
import { findItem, type Kind } from '#projections/catalog/items.ts';

/** How long an item found visible is taken as visible without asking again. */
export const VISIBLE_FOR_MS = 1000;
const MOST_REMEMBERED = 10_000;

/**
 * Whether an item may be reacted to, remembered for a second once found (docs/decisions/035): a
 * room tapping on the item on screen asks the catalog once a second per process, not once a tap.
 * What is not found is asked again every time, so an item approved a moment ago takes taps at once;
 * an item hidden or removed may take taps for up to a second more, which only adds to its totals.
 */
export class VisibleItems {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly #until = new Map<string, number>();

  constructor(db: Pick<pg.Pool, 'query'>) {
    this.#db = db;
  }

  async has(kind: Kind, id: number, viewer: { admin: boolean }): Promise<boolean> {
    const key = `${kind}:${id}:${viewer.admin}`;
    const now = performance.now();
    if ((this.#until.get(key) ?? 0) > now) return true;
    const item = await findItem(this.#db, kind, id, viewer);
    if (!item) {
      this.#until.delete(key);
      return false;
    }
    if (this.#until.size >= MOST_REMEMBERED) this.#until.clear();
    this.#until.set(key, now + VISIBLE_FOR_MS);
    return true;
  }
}
