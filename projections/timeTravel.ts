import pg from 'pg';
import { decodeRow, type EventRow, type RecordedEvent } from '#events/store.ts';
import { catalogProjection } from './catalog/catalogProjection.ts';
import { GalleryPages, type GalleryPage } from './catalog/galleryPage.ts';

/** Snapshots of the catalog are kept every this many seqs as replays pass them (decision 033). */
export const SNAPSHOT_EVERY = 1000;
const READ_BATCH = 5000;
const IDLE_CLOSE_MS = 5 * 60_000;

const projection = catalogProjection;

/**
 * The gallery as it was right after any event (CONTRACT §6, decision 033). On a connection of its
 * own, the catalog's tables are shadowed by temporary tables of the same names (PostgreSQL looks in
 * pg_temp first), so the catalog's own statements replay into them and the gallery's own queries
 * read from them: the answer has the same code, and so the same shape, as today's gallery.
 *
 * The working tables only go forward, and leave a snapshot of themselves every SNAPSHOT_EVERY seqs.
 * A question behind them is answered in a transaction that is rolled back: the nearest snapshot
 * below takes the tables' names, the few events after it are replayed into it, the page is read,
 * and the rollback leaves the snapshot as it was. The log is append-only and sealed links never
 * change, so a snapshot is valid until a value it resolved is erased (then all are made again,
 * decision 075). Everything is temporary: it goes with the connection, which closes after a few
 * idle minutes.
 */
export class TimeTravel {
  readonly #connectionString: string;
  readonly #every: number;
  #client?: pg.Client;
  /** reads the log ahead while #client folds */
  #reader?: pg.Client;
  #ready?: Promise<pg.Client>;
  /** the seq the working tables stand at */
  #seq = 0;
  /** seq → questions answered from it since it was last vacuumed */
  readonly #snapshots = new Map<number, number>();
  #queue: Promise<unknown> = Promise.resolve();
  #idle?: NodeJS.Timeout;
  /** `erasure_generation` when the tables were made: a later erasure leaves words in them (decision 075) */
  #generation?: string;

  constructor(connectionString: string, every = SNAPSHOT_EVERY) {
    this.#connectionString = connectionString;
    this.#every = every;
  }

  /** The newest sealed seq: how far back-in-time questions can go forward. */
  static async head(db: Pick<pg.Pool, 'query'>): Promise<number> {
    const { rows } = await db.query<{ seq: number }>(`SELECT coalesce(max(seq), 0)::bigint AS seq FROM event_chain`);
    return Number(rows[0]!.seq);
  }

  /** The gallery page as right after event `at` (which must be sealed), in today's shape plus `at`. */
  page(at: number, opts: { page: number; q: string; day: string }): Promise<GalleryPage & { at: number }> {
    return this.read(at, async (db) => {
      const { position: _position, ...page } = await new GalleryPages().page(db, opts);
      return { ...page, at };
    });
  }

  /**
   * Any read of the catalog's tables (the gallery, the show, the mural) as they stood right after
   * event `at` (which must be sealed): `reader` runs against the replayed tables under their own names.
   */
  read<T>(at: number, reader: (db: Pick<pg.Pool, 'query'>) => Promise<T>): Promise<T> {
    return this.#serial(async () => {
      await this.#forgetErased();
      const client = await this.#connect();
      if (at >= this.#seq) {
        await this.#replay(client, this.#seq, at, true);
        return reader(client as unknown as pg.Pool);
      }
      let base = 0;
      for (const s of this.#snapshots.keys()) if (s <= at && s > base) base = s;
      await client.query('BEGIN');
      try {
        for (const t of projection.tables) {
          await client.query(`ALTER TABLE pg_temp.${t} RENAME TO work_${t}`);
          await client.query(`ALTER TABLE pg_temp.snap_${base}_${t} RENAME TO ${t}`);
        }
        await this.#replay(client, base, at, false);
        return await reader(client as unknown as pg.Pool);
      } finally {
        await client.query('ROLLBACK');
        await this.#tidy(client, base);
      }
    });
  }

  /** Replays the whole log from 0 into the tables (the baseline of the bench); returns events read. */
  fullReplay(at: number): Promise<number> {
    return this.#serial(async () => {
      const client = await this.#connect();
      for (const t of projection.tables) await client.query(`TRUNCATE pg_temp.${t}`);
      this.#seq = 0;
      const read = await this.#replay(client, 0, at, false);
      this.#seq = at;
      return read;
    });
  }

  async close() {
    clearTimeout(this.#idle);
    const [client, reader] = [this.#client, this.#reader];
    this.#client = undefined;
    this.#reader = undefined;
    this.#ready = undefined;
    this.#snapshots.clear();
    this.#seq = 0;
    this.#generation = undefined;
    await Promise.all([client?.end().catch(() => {}), reader?.end().catch(() => {})]);
  }

  /**
   * The working tables and every snapshot resolved names and words as they stood when they were
   * folded: once a value has been blanked or a stream erased since (an erasure, a delete), they are
   * dropped and made again from the log, which resolves them as erased.
   */
  async #forgetErased() {
    if (!this.#client || this.#generation === undefined) return;
    const { rows } = await this.#client.query<{ n: string }>(`SELECT n::text FROM erasure_generation`);
    if (rows[0]?.n !== this.#generation) await this.close();
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
      const [client, reader] = await Promise.all([this.#open(), this.#open()]);
      // read before anything is folded: an erasure committed after this is seen by the next question
      const { rows } = await client.query<{ n: string }>(`SELECT n::text FROM erasure_generation`);
      this.#generation = rows[0]?.n;
      for (const t of projection.tables) {
        await client.query(`CREATE TEMP TABLE ${t} (LIKE public.${t} INCLUDING ALL)`);
      }
      this.#client = client;
      this.#reader = reader;
      this.#seq = 0;
      await this.#snapshot(client, 0);
      return client;
    })();
    return this.#ready;
  }

  async #open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.#connectionString });
    client.on('error', () => void this.close());
    await client.connect();
    // never keeps the process alive on its own
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    return client;
  }

  async #snapshot(client: pg.Client, seq: number) {
    for (const t of projection.tables) {
      await client.query(`CREATE TEMP TABLE snap_${seq}_${t} (LIKE public.${t} INCLUDING ALL)`);
      await client.query(`INSERT INTO pg_temp.snap_${seq}_${t} SELECT * FROM pg_temp.${t}`);
      // temporary tables are never analysed by autovacuum: keep the planner informed
      await client.query(`ANALYZE pg_temp.${t}`);
    }
    this.#snapshots.set(seq, 0);
  }

  /** A snapshot takes dead rows from every rolled-back question; temporary tables are never autovacuumed. */
  async #tidy(client: pg.Client, seq: number) {
    const used = (this.#snapshots.get(seq) ?? 0) + 1;
    this.#snapshots.set(seq, used);
    if (used % 50 !== 0) return;
    for (const t of projection.tables) await client.query(`VACUUM pg_temp.snap_${seq}_${t}`);
  }

  /**
   * Folds sealed events in (from, to] into the tables under the catalog's names. Pages are read on
   * the reader connection, each while the one before it folds, by seq range rather than LIMIT: seqs
   * are dense, and a range keeps each page one index range scan even before event_chain has
   * statistics (with none, `seq > $1 ORDER BY seq LIMIT` sorted the whole rest of the log per page).
   */
  async #replay(client: pg.Client, from: number, to: number, forward: boolean): Promise<number> {
    const reader = this.#reader!;
    const nextSnapshot = (seq: number) => (Math.floor(seq / this.#every) + 1) * this.#every;
    const page = (after: number) => {
      const upto = Math.min(to, after + READ_BATCH, forward ? nextSnapshot(after) : to);
      const rows = reader
        .query<EventRow>(
          `SELECT e.position, e.era, e.transaction_id::text AS transaction_id, e.stream_id, e.stream_version, e.type,
             e.schema_version, e.data, e.metadata, e.recorded_at, c.seq
           FROM event_chain c JOIN events e ON e.position = c.position
           WHERE c.seq > $1 AND c.seq <= $2 ORDER BY c.seq`,
          [after, upto],
        )
        .then((r) => r.rows);
      // a page read ahead and never awaited (the fold before it failed) is no unhandled rejection
      rows.catch(() => {});
      return rows;
    };
    let seq = from;
    let read = 0;
    let next = seq < to ? page(seq) : undefined;
    while (next) {
      const rows = await next;
      if (rows.length === 0) throw new Error(`the log has no event at seq ${seq + 1}`);
      const last = Number(rows.at(-1)!.seq);
      next = last < to ? page(last) : undefined;
      const decoded: RecordedEvent[] = [];
      for (const row of rows) {
        try {
          decoded.push(decodeRow(row));
        } catch {
          // an event the catalog cannot read is skipped here as the runner quarantines it
        }
      }
      const relevant = decoded.filter((e) => projection.canHandle.includes(e.type));
      if (relevant.length) await projection.apply(relevant, client as unknown as pg.PoolClient);
      read += rows.length;
      seq = last;
      if (forward) {
        this.#seq = seq;
        if (seq % this.#every === 0 && !this.#snapshots.has(seq)) await this.#snapshot(client, seq);
      }
    }
    return read;
  }
}
