import type pg from 'pg';
import { cardSource, cardVersion, type CardKind, type CardSource } from '#projections/catalog/cardImages.ts';
import { findItem, type Viewer } from '#projections/catalog/items.ts';

/** What a card image needs of its item: the file it is made from and that file's version. */
export interface CardOrigin {
  source: CardSource;
  version: string;
}

/** A burst of distinct items between two catalog positions is far below this. */
const MAX_ENTRIES = 10_000;

/**
 * Whether a viewer may see an item's card, and from which file it is made, asked once per item and
 * catalog position in this process (decision 149): a page's images, requested by a room at once,
 * cost one query per item, not one per image. An answer is kept only while this process knows of no
 * later catalog position, as the gallery's pages are (decision 028): an approval, rejection, archive,
 * deletion or new rendition moves the position, and the next request asks the database again. A
 * browser that wrote past what this process knows is answered from the database.
 */
export class CardSources {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly #known: () => number;
  #at = -1;
  readonly #answers = new Map<string, Promise<CardOrigin | null>>();

  /** `known`: the catalog position this process knows (Realtime's `known.at`). */
  constructor(db: Pick<pg.Pool, 'query'>, known: () => number) {
    this.#db = db;
    this.#known = known;
  }

  /** The card's origin, or null when the viewer may not see the item or it has no picture. */
  find(kind: CardKind, id: number, viewer: Viewer, wroteAt: number): Promise<CardOrigin | null> {
    const at = this.#known();
    if (wroteAt > at) return this.#read(kind, id, viewer);
    if (at !== this.#at || this.#answers.size >= MAX_ENTRIES) {
      this.#answers.clear();
      this.#at = at;
    }
    const key = `${viewer.admin}:${kind}:${id}`;
    let answer = this.#answers.get(key);
    if (!answer) {
      const asked = this.#read(kind, id, viewer);
      // a failed question is asked again by the next request
      asked.catch(() => {
        if (this.#answers.get(key) === asked) this.#answers.delete(key);
      });
      this.#answers.set(key, asked);
      answer = asked;
    }
    return answer;
  }

  async #read(kind: CardKind, id: number, viewer: Viewer): Promise<CardOrigin | null> {
    const row = await findItem(this.#db, kind, id, viewer);
    const source = row && cardSource(row);
    const version = row && cardVersion(row);
    return source && version ? { source, version } : null;
  }
}
