import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { boundedRead } from '#db/postgres.ts';
import { itemHistory, readHistory, type HistoryFilter } from '#events/history.ts';
import { findItem, toView, type Kind } from '#projections/catalog/items.ts';
import { stoppedBy, type Stopped } from './stopped.ts';
import { lowerBackendPriority } from './backendPriority.ts';

/** One auditor's read of the log: a page of the history, or one item with its timeline. */
export type AuditorRead =
  { what: 'page'; filter: HistoryFilter } | { what: 'item'; stream: string; kind: Kind; id: number; admin: boolean };

/** What the read thread is asked (api/history/readOffTheLoop.ts): plain data, copied across. */
export interface ReadTask {
  databaseUrl: string;
  /** each statement's bound, as for every auditor read (decision 101) */
  timeoutMs: number;
  /** LOG_HMAC_KEY as the API has it now (a thread's environment is a copy made when it started) */
  hmacKey: string | undefined;
  /** the client takes gzip: the answer is compressed here, not by the API's compression */
  gzip: boolean;
  read: AuditorRead;
}

/** The answer's bytes as the API sends them, with their ETag; `empty` when an item has no events (404). */
export type ReadAnswer = { body: Uint8Array; etag: string; gzipped: boolean; empty: boolean } | Stopped;

/**
 * The thread's own connections: a few, let go when idle well before the thread is (a thread that ends
 * with a connection open leaves PostgreSQL a reset to log), each backend at the lowest priority when
 * the database runs on this machine (decision 154).
 */
const pools = new Map<string, pg.Pool>();
function poolFor(databaseUrl: string): pg.Pool {
  let pool = pools.get(databaseUrl);
  if (!pool) {
    // named, so that an operator sees the auditor's reads in pg_stat_activity
    pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 2,
      idleTimeoutMillis: 10_000,
      application_name: 'tribute-audit',
    });
    // A backend terminated must not end the thread, idle or in a read (pg emits 'error' on a client
    // that loses its connection even while a query is running, and with no listener that ends the
    // thread with every read on it): the read fails and answers 503, and the next connects again.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      void lowerBackendPriority(client).catch(() => {});
    });
    pools.set(databaseUrl, pool);
  }
  return pool;
}

/**
 * Reads in one READ ONLY transaction with the auditor's statement timeout, and makes the whole answer
 * here: the rows' links hashed again to show their commitments, the JSON, its ETag and its gzip. For a
 * page of 1,000 events that is milliseconds of CPU the API's event loop must not spend while guests
 * wait on it (piscina's entry point).
 */
export default async function read(task: ReadTask): Promise<ReadAnswer> {
  const { read } = task;
  const keys = { hmacKey: task.hmacKey };
  let answer: unknown;
  let empty = false;
  try {
    answer = await boundedRead<unknown>(poolFor(task.databaseUrl), task.timeoutMs, async (db) => {
      if (read.what === 'page') return readHistory(db, read.filter, keys);
      const events = await itemHistory(db, read.stream, read.kind, read.id, keys);
      empty = events.length === 0;
      const row = empty ? undefined : await findItem(db, read.kind, read.id, { admin: true });
      return { item: row ? toView(row, { admin: read.admin }) : null, events };
    });
  } catch (error) {
    return stoppedBy(error);
  }
  const json = Buffer.from(JSON.stringify(answer));
  // the form of Express's own (weak) ETag, so that a conditional request is answered alike
  const etag = `W/"${json.length.toString(16)}-${createHash('sha1').update(json).digest('base64').slice(0, 27)}"`;
  return { body: task.gzip ? gzipSync(json) : json, etag, gzipped: task.gzip, empty };
}
