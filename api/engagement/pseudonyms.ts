import { createHmac } from 'node:crypto';
import type pg from 'pg';
import type { Kind } from '#projections/catalog/items.ts';

/**
 * A visitor's key for one item (decision 050): `p` and HMAC(secret, visitor key, item), so like and
 * view streams and their events name no browser, and one browser's likes of two items do not link.
 * The secret is the database's (`pseudonym_key`), read once.
 */
export class Pseudonyms {
  readonly #db: Pick<pg.Pool, 'query'>;
  #secret?: Promise<string>;

  constructor(db: Pick<pg.Pool, 'query'>) {
    this.#db = db;
  }

  async of(visitorKey: string, kind: Kind, itemId: number): Promise<string> {
    if (!this.#secret) {
      this.#secret = this.#db
        .query<{ secret: string }>(`SELECT secret FROM pseudonym_key`)
        .then(({ rows }) => rows[0]!.secret);
      // a failed read is tried again on the next call
      this.#secret.catch(() => {
        this.#secret = undefined;
      });
    }
    const mac = createHmac('sha256', await this.#secret).update(`${visitorKey}\n${kind}-${itemId}`);
    return `p${mac.digest('hex').slice(0, 32)}`;
  }
}
