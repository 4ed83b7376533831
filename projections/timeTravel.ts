import type pg from 'pg';
import { GalleryPages, type GalleryPage } from './catalog/galleryPage.ts';
import type { RecordedEvent } from '#events/store.ts';
import {
  checkpointAtMost,
  createWorkingTables,
  foldSealed,
  loadRows,
  openClient,
  projection,
  EVERY_LIKE,
  SCOPED_TABLES,
  scopesOf,
  type Part,
} from './timeTravel/workingTables.ts';

export { SNAPSHOT_EVERY } from './timeTravel/snapshotKeeper.ts';

const IDLE_CLOSE_MS = 5 * 60_000;
/** the working tables stand at no known seq: the next question loads a checkpoint */
const UNKNOWN = -1;
/** The tables the gallery's page reads. */
const GALLERY_TABLES = ['catalog_items'];

/** The kept rows went while a question was loading them (an erasure): it starts again from a checkpoint. */
class RowsGone extends Error {}

/**
 * The gallery as it was right after any event (CONTRACT §6, decisions 033 and 100). On a connection
 * of its own, the catalog's tables are shadowed by temporary working tables of the same names, so the
 * catalog's own statements replay into them and the gallery's own queries read from them: the answer
 * has the same code, and so the same shape, as today's gallery.
 *
 * A question at `at` starts from the working tables when they stand between the newest checkpoint
 * at or below `at` and `at` itself (the next question of an auditor stepping forward); otherwise it
 * loads that checkpoint, which the worker keeps in the database as the log grows
 * (`SnapshotKeeper`), and folds the few events after it. So no question replays more than a
 * checkpoint's step plus what the worker has not reached yet, and nothing is built on the request
 * path. Of the big tables (likes, comments, strokes) it loads only the rows of what the folded events
 * are about, and the rest only when the reader reads that table. The working tables go with the
 * connection, which closes after a few idle minutes.
 */
export class TimeTravel {
  readonly #connectionString: string;
  #client?: pg.Client;
  /** reads the log ahead while #client folds */
  #reader?: pg.Client;
  #ready?: Promise<pg.Client>;
  /** the seq the working tables stand at */
  #seq = UNKNOWN;
  /** the checkpoint they were loaded from */
  #base = 0;
  /** the scopes loaded from #base into every scoped table so far */
  #keys = new Set<string>();
  /** the scoped tables loaded whole */
  #whole = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();
  #idle?: NodeJS.Timeout;
  /** `erasure_generation` when the working tables were loaded: a later erasure leaves words in them (decision 075) */
  #generation?: string;

  constructor(connectionString: string) {
    this.#connectionString = connectionString;
  }

  /** The newest sealed seq: how far back-in-time questions can go forward. */
  static async head(db: Pick<pg.Pool, 'query'>): Promise<number> {
    const { rows } = await db.query<{ seq: number }>(`SELECT coalesce(max(seq), 0)::bigint AS seq FROM event_chain`);
    return Number(rows[0]!.seq);
  }

  /** The gallery page as right after event `at` (which must be sealed), in today's shape plus `at`. */
  page(at: number, opts: { page: number; q: string; day: string }): Promise<GalleryPage & { at: number }> {
    return this.read(
      at,
      async (db) => {
        const { position: _position, ...page } = await new GalleryPages().page(db, opts);
        return { ...page, at };
      },
      GALLERY_TABLES,
    );
  }

  /**
   * Any read of the catalog's tables (the gallery, the show, the mural) as they stood right after
   * event `at` (which must be sealed): `reader` runs against the replayed tables under their own names.
   * `reads` names the tables it reads (all of them unless told).
   */
  read<T>(
    at: number,
    reader: (db: Pick<pg.Pool, 'query'>) => Promise<T>,
    reads: readonly string[] = projection.tables,
  ): Promise<T> {
    return this.#serial(async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.#answer(at, reader, reads);
        } catch (error) {
          this.#seq = UNKNOWN;
          if (!(error instanceof RowsGone) || attempt > 0) throw error;
        }
      }
    });
  }

  /** Replays the whole log from 0 into the tables (the baseline of the bench); returns events read. */
  fullReplay(at: number): Promise<number> {
    return this.#serial(async () => {
      const client = await this.#connect();
      await this.#load(client, 0);
      return this.#foldTo(client, at);
    });
  }

  async #answer<T>(at: number, reader: (db: Pick<pg.Pool, 'query'>) => Promise<T>, reads: readonly string[]) {
    const client = await this.#connect();
    if ((await this.#erasureGeneration(client)) !== this.#generation) this.#seq = UNKNOWN;
    const base = await checkpointAtMost(client, at);
    if (this.#seq < base || this.#seq > at) await this.#load(client, at);
    await this.#foldTo(client, at);
    const rest = SCOPED_TABLES.filter((t) => reads.includes(t) && !this.#whole.has(t));
    if (rest.length) await this.#loadScoped(client, rest, 'all');
    return reader(client as unknown as pg.Pool);
  }

  async close() {
    clearTimeout(this.#idle);
    const [client, reader] = [this.#client, this.#reader];
    this.#client = undefined;
    this.#reader = undefined;
    this.#ready = undefined;
    this.#seq = UNKNOWN;
    this.#generation = undefined;
    await Promise.all([client?.end().catch(() => {}), reader?.end().catch(() => {})]);
  }

  async #erasureGeneration(db: pg.Client): Promise<string | undefined> {
    const { rows } = await db.query<{ n: string }>(`SELECT n::text FROM erasure_generation`);
    return rows[0]?.n;
  }

  /**
   * The newest checkpoint at or below `at`, in one snapshot with the erasure generation: an erasure
   * takes every kept row in its own transaction, so the two agree (decision 075). The scoped tables
   * start empty, and take rows as the fold and the reader need them.
   */
  async #load(client: pg.Client, at: number) {
    this.#seq = UNKNOWN;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    try {
      const generation = await this.#erasureGeneration(client);
      const base = await checkpointAtMost(client, at);
      for (const t of projection.tables) {
        const scoped = SCOPED_TABLES.includes(t);
        await loadRows(client, t, base, scoped ? { exact: [], items: [], skip: [] } : { all: true }, true);
        // temporary tables are never analysed by autovacuum: keep the planner informed
        if (!scoped) await client.query(`ANALYZE pg_temp.${t}`);
      }
      await client.query('COMMIT');
      this.#generation = generation;
      this.#base = base;
      this.#keys = new Set();
      this.#whole = new Set();
      this.#seq = base;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  /** Before a page is folded: the rows of what its events are about, from the checkpoint. */
  async #need(client: pg.Client, events: RecordedEvent[]) {
    const scopes = new Set<string>();
    for (const event of events) {
      const of = scopesOf(event);
      if (of === 'all') return this.#loadScoped(client, SCOPED_TABLES, 'all');
      for (const scope of of) scopes.add(scope);
    }
    if (scopes.size) await this.#loadScoped(client, SCOPED_TABLES, [...scopes]);
  }

  /**
   * Loads, into scoped tables, the rows at #base of `scopes` (or of every scope) not loaded yet. Rows
   * a scope already has are not read again: the fold since #base may have changed them.
   */
  async #loadScoped(client: pg.Client, tables: readonly string[], scopes: string[] | 'all') {
    const items = (keys: Iterable<string>) =>
      [...keys].filter((k) => k.endsWith(EVERY_LIKE)).map((k) => k.slice(0, -EVERY_LIKE.length));
    const exact = (keys: Iterable<string>) => [...keys].filter((k) => !k.endsWith(EVERY_LIKE));
    let part: Part;
    if (scopes === 'all') part = { rest: true, skip: exact(this.#keys), skipItems: items(this.#keys) };
    else {
      const missing = scopes.filter(
        (k) => !this.#keys.has(k) && !(k.includes('/') && this.#keys.has(`${k.slice(0, k.indexOf('/'))}${EVERY_LIKE}`)),
      );
      part = { exact: exact(missing), items: items(missing), skip: exact(this.#keys) };
      if (missing.length === 0) return;
    }
    const work = tables.filter((t) => !this.#whole.has(t));
    if (work.length && this.#base > 0) {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      try {
        const { rows } = await client.query<{ n: string; kept: boolean }>(
          `SELECT n::text, EXISTS (SELECT 1 FROM time_travel_checkpoints WHERE seq = $1) AS kept FROM erasure_generation`,
          [this.#base],
        );
        if (rows[0]?.n !== this.#generation || !rows[0]?.kept) throw new RowsGone('time travel: the kept rows went');
        for (const t of work) await loadRows(client, t, this.#base, part, false);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    }
    if (scopes === 'all') for (const t of tables) this.#whole.add(t);
    else for (const k of scopes) this.#keys.add(k);
  }

  async #foldTo(client: pg.Client, at: number): Promise<number> {
    const from = this.#seq;
    // a fold that fails half-way leaves the tables at no known seq
    this.#seq = UNKNOWN;
    const read = await foldSealed(client, this.#reader!, from, at, (events) => this.#need(client, events));
    this.#seq = at;
    return read;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run
      .catch(async (error) => {
        // a dropped connection or a lost table: start afresh next time
        await this.close();
        throw error;
      })
      .finally(() => this.#armIdle());
  }

  #armIdle() {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
    this.#idle.unref();
  }

  #connect(): Promise<pg.Client> {
    this.#ready ??= (async () => {
      const onError = () => void this.close();
      const [client, reader] = await Promise.all([
        openClient(this.#connectionString, onError),
        openClient(this.#connectionString, onError),
      ]);
      await createWorkingTables(client);
      this.#client = client;
      this.#reader = reader;
      this.#seq = UNKNOWN;
      return client;
    })();
    return this.#ready;
  }
}
