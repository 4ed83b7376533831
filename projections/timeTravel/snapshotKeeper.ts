import type pg from 'pg';
import type { Log } from '#db/log.ts';
import {
  checkpointAtMost,
  createWorkingTables,
  foldSealed,
  loadCheckpoint,
  openClient,
  projection,
  SCOPE_SQL,
} from './workingTables.ts';

/** A checkpoint of the catalog is kept every this many seqs (decision 100). */
export const SNAPSHOT_EVERY = 1000;
const UNKNOWN = -1;

/**
 * Keeps time travel's checkpoints in the database as the log grows (decision 100), in the worker and
 * off every request's path. On a connection of its own it folds the sealed log into working tables
 * (as time travel does), and at each multiple of `every` writes what changed since the checkpoint
 * before: each changed row's old version is closed at this checkpoint and its new version opened.
 * Statement triggers on the working tables gather the changes from the fold's own statements, so
 * the work and the space grow with the rows that change, not with the size of the tables.
 */
export class SnapshotKeeper {
  readonly #connectionString: string;
  readonly #log: Log;
  readonly #every: number;
  readonly #intervalMs: number;
  #client?: pg.Client;
  #reader?: pg.Client;
  /** the seq the working tables stand at: always a checkpoint between rounds */
  #seq = UNKNOWN;
  #generation?: string;
  #timer?: NodeJS.Timeout;
  #running?: Promise<number>;
  #stopped = false;

  constructor(connectionString: string, log: Log, opts: { every?: number; intervalMs?: number } = {}) {
    this.#connectionString = connectionString;
    this.#log = log;
    this.#every = opts.every ?? SNAPSHOT_EVERY;
    this.#intervalMs = opts.intervalMs ?? 1000;
  }

  start() {
    this.#stopped = false;
    void this.keepUp();
    this.#timer = setInterval(() => void this.keepUp(), this.#intervalMs);
    this.#timer.unref();
  }

  async stop() {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running?.catch(() => {});
    await this.#close();
  }

  /** Makes every checkpoint the sealed log allows; resolves with the newest one kept. */
  keepUp(): Promise<number> {
    this.#running ??= this.#round().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #round(): Promise<number> {
    try {
      const client = await this.#connect();
      if (this.#seq === UNKNOWN) await this.#load(client);
      const { rows } = await client.query<{ seq: string }>(
        `SELECT coalesce(max(seq), 0)::text AS seq FROM event_chain`,
      );
      const head = Number(rows[0]!.seq);
      for (let next = this.#seq + this.#every; next <= head && !this.#stopped; next += this.#every) {
        const from = this.#seq;
        this.#seq = UNKNOWN;
        await foldSealed(client, this.#reader!, from, next);
        if (!(await this.#keep(client, from, next))) return checkpointAtMost(client, Number.MAX_SAFE_INTEGER);
        this.#seq = next;
      }
      return this.#seq;
    } catch (error) {
      this.#log.error({ err: error }, 'time-travel checkpoint failed; the next round starts again from the kept ones');
      await this.#close();
      return 0;
    }
  }

  /** The working tables at the newest kept checkpoint, read in one snapshot with the erasure generation. */
  async #load(client: pg.Client) {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    try {
      const { rows } = await client.query<{ n: string }>(`SELECT n::text FROM erasure_generation`);
      const base = await checkpointAtMost(client, Number.MAX_SAFE_INTEGER);
      await loadCheckpoint(client, base);
      await client.query('TRUNCATE pg_temp.time_travel_changes');
      await client.query('COMMIT');
      this.#generation = rows[0]?.n;
      this.#seq = base;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  /**
   * Writes checkpoint `seq` from the changes gathered since `previous`, unless an erasure came in
   * between (its words may be in them: start again from what it left) or another worker keeps them
   * too (follow it). Returns whether it was written.
   */
  async #keep(client: pg.Client, previous: number, seq: number): Promise<boolean> {
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('time_travel_checkpoints'))`);
      // an erasure waits for this commit, and then takes every kept row with it
      const { rows: generation } = await client.query<{ n: string }>(
        `SELECT n::text FROM erasure_generation FOR SHARE`,
      );
      const newest = await checkpointAtMost(client, Number.MAX_SAFE_INTEGER);
      if (generation[0]?.n !== this.#generation || newest !== previous) {
        await client.query('ROLLBACK');
        this.#seq = UNKNOWN;
        return false;
      }
      const { rows } = await client.query<{ closed: string; opened: string; to_close: string }>(
        `WITH net AS (
           SELECT tbl, row, sum(sign) AS s FROM pg_temp.time_travel_changes GROUP BY tbl, row HAVING sum(sign) <> 0
         ), closed AS (
           UPDATE time_travel_rows v SET to_seq = $1 FROM net
           WHERE net.s < 0 AND v.tbl = net.tbl AND v.to_seq IS NULL AND v.h = md5(net.row::text) RETURNING 1
         ), opened AS (
           INSERT INTO time_travel_rows (tbl, from_seq, h, scope, row)
           SELECT tbl, $1, md5(row::text), ${SCOPE_SQL}, row FROM net WHERE s > 0 RETURNING 1
         )
         SELECT (SELECT count(*) FROM closed)::text AS closed, (SELECT count(*) FROM opened)::text AS opened,
           (SELECT count(*) FROM net WHERE s < 0)::text AS to_close`,
        [seq],
      );
      const { closed, to_close } = rows[0]!;
      if (closed !== to_close)
        throw new Error(`checkpoint ${seq}: ${to_close} rows changed, ${closed} kept versions found`);
      await client.query(`INSERT INTO time_travel_checkpoints (seq) VALUES ($1)`, [seq]);
      await client.query('TRUNCATE pg_temp.time_travel_changes');
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  async #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const onError = () => void this.#close();
    const [client, reader] = await Promise.all([
      openClient(this.#connectionString, onError),
      openClient(this.#connectionString, onError),
    ]);
    try {
      await createWorkingTables(client);
      await client.query(
        `CREATE TEMP TABLE time_travel_changes (tbl text NOT NULL, sign smallint NOT NULL, row jsonb NOT NULL)`,
      );
      for (const t of projection.tables) {
        const capture = 'FOR EACH STATEMENT EXECUTE FUNCTION time_travel_capture()';
        await client.query(
          `CREATE TRIGGER capture_insert AFTER INSERT ON pg_temp.${t} REFERENCING NEW TABLE AS new_rows ${capture}`,
        );
        await client.query(
          `CREATE TRIGGER capture_update AFTER UPDATE ON pg_temp.${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ${capture}`,
        );
        await client.query(
          `CREATE TRIGGER capture_delete AFTER DELETE ON pg_temp.${t} REFERENCING OLD TABLE AS old_rows ${capture}`,
        );
      }
    } catch (error) {
      await Promise.all([client.end().catch(() => {}), reader.end().catch(() => {})]);
      throw error;
    }
    this.#client = client;
    this.#reader = reader;
    this.#seq = UNKNOWN;
    return client;
  }

  async #close() {
    const [client, reader] = [this.#client, this.#reader];
    this.#client = undefined;
    this.#reader = undefined;
    this.#seq = UNKNOWN;
    await Promise.all([client?.end().catch(() => {}), reader?.end().catch(() => {})]);
  }
}
