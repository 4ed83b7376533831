import type pg from 'pg';
import type { Log } from '#db/log.ts';
import type { Anchor, AnchorStore } from './anchors.ts';
import type { Clock } from './clock.ts';
import {
  EVENT_COLUMNS_SQL,
  SCHEME,
  chainRecord,
  isKeyed,
  legacyHash,
  linkForm,
  logHmacKey,
  tagHolds,
  type EventRow,
} from './canonical.ts';
import { REF_ROWS_SQL, commitmentsOf, editedRow, type RefRows } from './commitments.ts';

export const GENESIS_HASH = '0'.repeat(64);
export const CHAIN_PROJECTION = 'chain';

/** A process that must not seal or append: its LOG_HMAC_KEY is missing or not the chain's. */
export class SealRefused extends Error {}

/**
 * The chain's head link, after checking that this process holds the key it was sealed with: a
 * keyed head must recompute under `hmacKey`. Throws SealRefused when the key is missing or wrong,
 * so a process started without it (or with another) seals and appends nothing instead of leaving
 * links that never verify. Null on an empty chain.
 */
export async function checkChainKey(
  db: Pick<pg.Pool, 'query'>,
  hmacKey: string | undefined,
): Promise<{ seq: number; hash: string; scheme: number } | null> {
  const { rows } = await db.query<
    EventRow & { seq: number; hash: string; prev_hash: string; scheme: number; refs: RefRows | null }
  >(
    `SELECT c.seq, c.hash, c.prev_hash, c.scheme, c.position, ${EVENT_COLUMNS_SQL}, ${REF_ROWS_SQL} AS refs
     FROM (SELECT * FROM event_chain ORDER BY seq DESC LIMIT 1) c LEFT JOIN events e ON e.position = c.position`,
  );
  const head = rows[0];
  if (!head) return null;
  if (isKeyed(head.scheme)) {
    if (!hmacKey) {
      throw new SealRefused('the chain is sealed under LOG_HMAC_KEY and this process has none: set it');
    }
    const record = chainRecord(head, head.seq, head.prev_hash);
    if (!linkForm(record, commitmentsOf(head.refs), head.hash, hmacKey, false)) {
      throw new SealRefused('LOG_HMAC_KEY is not the key the chain was sealed with (or its last link was altered)');
    }
  }
  return { seq: head.seq, hash: head.hash, scheme: head.scheme };
}

export interface ChainHead {
  seq: number;
  hash: string;
}

export type VerifyResult =
  | {
      ok: true;
      checked: number;
      unsealed: number;
      /** links sealed before the commitment scheme: they cover references to personal values, not the values */
      uncommitted: number;
      head: ChainHead;
      anchor: Anchor | null;
    }
  | {
      ok: false;
      checked: number;
      firstBadSeq: number;
      firstBadPosition: number | null;
      reason: string;
      anchor: Anchor | null;
    };

export type VerifyOptions = {
  /** start from a head verified earlier (the periodic anchor), instead of from seq 1 */
  from?: ChainHead;
  /** the key keyed links are checked under; given as undefined: none (default: the process's LOG_HMAC_KEY) */
  hmacKey?: string | undefined;
  /** links hashed between two turns of the event loop (default YIELD_EVERY; the bench's baseline: never) */
  yieldEvery?: number;
  /** what a turn is (default: setImmediate); the verify thread rests there while the room is busy */
  pause?: () => Promise<unknown>;
  /** links read a query (default PAGE): fewer keep each of the backend's statements shorter */
  pageSize?: number;
} & (
  | { anchors?: undefined }
  | {
      /** anchored heads to hold the chain to; the verified head is written there when all is well */
      anchors: AnchorStore;
      /** the time the anchor is stamped with (decision 147) */
      clock: Clock;
    }
);

const PAGE = 2000;
/** Links hashed between two turns of the event loop: a few milliseconds' work. */
const YIELD_EVERY = 100;

/** A link with its event's columns (null where the event is gone). */
interface LinkRow extends EventRow {
  seq: number;
  prev_hash: string;
  hash: string;
  scheme: number;
  event_position: number | null;
  era: number | null;
  transaction_id: string | null;
  legacy: string | null;
  refs: RefRows | null;
}

type CommitOrder = [era: number, transactionId: bigint, position: number];

/** Compares (era, transaction_id, position): the commit order the sealer turned into seq. */
function commitOrderAfter(a: CommitOrder, b: CommitOrder): boolean {
  if (a[0] !== b[0]) return a[0] > b[0];
  return a[1] > b[1] || (a[1] === b[1] && a[2] > b[2]);
}

/**
 * Walks the chain in seq order, recomputing every link from the event rows with the canonical form
 * (docs/canonical-form.md). Finds an edited event, a removed one, one inserted into the sealed part,
 * links out of commit order, an event parked in a future transaction, and (with anchors) a log that
 * ends before, or disagrees with, a head anchored outside the database.
 */
export async function verifyChain(db: Pick<pg.Pool, 'query'>, options: VerifyOptions = {}): Promise<VerifyResult> {
  const hmacKey = 'hmacKey' in options ? options.hmacKey : logHmacKey();
  const anchors = options.anchors ? await options.anchors.all() : [];
  const latestAnchor = anchors.reduce<Anchor | null>((a, b) => (!a || b.seq >= a.seq ? b : a), null);
  const anchoredAt = new Map<number, string>();
  for (const a of anchors) if (!options.from || a.seq >= options.from.seq) anchoredAt.set(a.seq, a.hash);

  const yieldEvery = options.yieldEvery ?? YIELD_EVERY;
  const pause = options.pause ?? (() => new Promise((resolve) => setImmediate(resolve)));
  const pageSize = options.pageSize ?? PAGE;
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  let uncommitted = 0;
  let committed = false;
  let lastScheme = 0;
  let lastCommit: CommitOrder = [-1, -1n, 0];
  let startAt = 1;
  if (options.from && options.from.seq > 0) {
    startAt = options.from.seq;
    expectedSeq = options.from.seq;
  }
  const fail = (seq: number, position: number | null, reason: string): VerifyResult => ({
    ok: false,
    checked,
    firstBadSeq: seq,
    firstBadPosition: position,
    reason,
    anchor: latestAnchor,
  });

  for (let after = startAt; ;) {
    const { rows } = await db.query<LinkRow>(
      `SELECT c.seq, c.position, c.prev_hash, c.hash, c.scheme, e.position AS event_position,
         e.era, e.transaction_id::text AS transaction_id, ${EVENT_COLUMNS_SQL},
         CASE WHEN c.scheme = 1 AND e.position IS NOT NULL THEN event_canonical_text(e) END AS legacy,
         CASE WHEN c.scheme > 1 THEN ${REF_ROWS_SQL} END AS refs
       FROM event_chain c LEFT JOIN events e ON e.position = c.position
       WHERE c.seq >= $1 ORDER BY c.seq LIMIT $2`,
      [after, pageSize],
    );
    for (const [i, row] of rows.entries()) {
      // hashing is synchronous: let the process answer others between slices of a page (decision 101)
      if (i % yieldEvery === yieldEvery - 1) await pause();
      if (row.seq !== expectedSeq) return fail(expectedSeq, null, `chain entry ${expectedSeq} is missing`);
      if (row.event_position === null) return fail(row.seq, row.position, 'event removed');
      const commit: CommitOrder = [row.era!, BigInt(row.transaction_id!), row.position];
      const key = isKeyed(row.scheme) ? hmacKey : undefined;
      if (options.from && row.seq === options.from.seq) {
        // the head verified before: it must still be there, unchanged
        if (row.hash !== options.from.hash) return fail(row.seq, row.position, 'disagrees with the anchored head');
        if (row.scheme > SCHEME.legacy && (key || !isKeyed(row.scheme))) {
          const record = chainRecord(row, row.seq, row.prev_hash);
          committed = linkForm(record, commitmentsOf(row.refs), row.hash, key, false) === 'committed';
        }
      } else {
        if (row.prev_hash !== prevHash) return fail(row.seq, row.position, 'chain link broken');
        if (row.scheme < lastScheme) return fail(row.seq, row.position, 'link sealed with an older scheme');
        if (!commitOrderAfter(commit, lastCommit)) return fail(row.seq, row.position, 'chain out of commit order');
        if (row.scheme === SCHEME.legacy) {
          if (legacyHash(prevHash, row.legacy!) !== row.hash) return fail(row.seq, row.position, 'event edited');
          uncommitted++;
        } else if (row.scheme === SCHEME.sha256 || row.scheme === SCHEME.hmac) {
          if (isKeyed(row.scheme) && !hmacKey) {
            return fail(row.seq, row.position, 'keyed link: set LOG_HMAC_KEY to verify it');
          }
          const record = chainRecord(row, row.seq, prevHash);
          const form = linkForm(record, commitmentsOf(row.refs), row.hash, key, committed);
          if (!form) return fail(row.seq, row.position, 'event edited');
          if (form === 'committed') {
            committed = true;
            const edited = editedRow(row.refs);
            if (edited) return fail(row.seq, row.position, `personal value edited (${edited})`);
          } else uncommitted++;
        } else return fail(row.seq, row.position, `unknown scheme ${row.scheme}`);
        checked++;
      }
      const anchored = anchoredAt.get(row.seq);
      if (anchored !== undefined && anchored !== row.hash) {
        return fail(row.seq, row.position, 'disagrees with the anchored head');
      }
      anchoredAt.delete(row.seq);
      prevHash = row.hash;
      lastScheme = row.scheme;
      lastCommit = commit;
      expectedSeq++;
    }
    if (rows.length < pageSize) break;
    after = rows.at(-1)!.seq + 1;
  }
  const head: ChainHead = { seq: expectedSeq - 1, hash: prevHash };
  const beyond = [...anchoredAt.keys()].filter((seq) => seq > head.seq);
  if (beyond.length) {
    return fail(head.seq + 1, null, `the log ends at seq ${head.seq}, before the anchored head ${Math.max(...beyond)}`);
  }

  const { rows: stray } = await db.query<{ position: number }>(
    `SELECT e.position FROM events e
     JOIN projection_checkpoints c ON c.name = $1
     LEFT JOIN event_chain ch ON ch.position = e.position
     WHERE ch.position IS NULL AND (e.era, e.transaction_id, e.position) <= (c.era, c.transaction_id, c.position)
     ORDER BY e.position LIMIT 1`,
    [CHAIN_PROJECTION],
  );
  if (stray[0]) return fail(head.seq + 1, stray[0].position, 'event inserted');
  const { rows: future } = await db.query<{ position: number }>(
    `SELECT position FROM events WHERE era = (SELECT max(era) FROM log_eras)
       AND transaction_id >= pg_snapshot_xmax(pg_current_snapshot())
     ORDER BY position LIMIT 1`,
  );
  if (future[0]) return fail(head.seq + 1, future[0].position, 'event in a future transaction');
  if (hmacKey && isKeyed(lastScheme)) {
    // under the key, an event the sealer has not sealed must carry a good append tag: one without
    // is a row inserted by someone who does not hold the key, and the sealer refuses it
    const { rows: unsealed } = await db.query<EventRow & { tag: string | null }>(
      `SELECT e.position, e.tag, ${EVENT_COLUMNS_SQL} FROM events e LEFT JOIN event_chain ch ON ch.position = e.position
       WHERE ch.position IS NULL ORDER BY e.position LIMIT 5000`,
    );
    const forged = unsealed.find((e) => e.tag === null || !tagHolds(hmacKey, e.tag, e));
    if (forged) return fail(head.seq + 1, forged.position, 'event inserted without LOG_HMAC_KEY (no valid append tag)');
  }
  const { rows: tail } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events e LEFT JOIN event_chain ch ON ch.position = e.position WHERE ch.position IS NULL`,
  );
  let anchor = latestAnchor;
  if (options.anchors && head.seq > 0) {
    anchor = { ...head, at: options.clock().toISOString() };
    await options.anchors.write(anchor);
  }
  return { ok: true, checked, unsealed: tail[0]?.n ?? 0, uncommitted, head, anchor };
}

/**
 * Anchors the verified head outside the database every minute: each round verifies only the links
 * sealed since the last anchor, then writes the new head.
 */
export class ChainAnchorer {
  readonly #db: Pick<pg.Pool, 'query'>;
  readonly #anchors: AnchorStore;
  readonly #log: Log;
  readonly #clock: Clock;
  readonly #everyMs: number;
  #timer?: NodeJS.Timeout;
  #running?: Promise<VerifyResult | undefined>;

  constructor(db: Pick<pg.Pool, 'query'>, anchors: AnchorStore, log: Log, clock: Clock, everyMs = 60_000) {
    this.#db = db;
    this.#anchors = anchors;
    this.#log = log;
    this.#clock = clock;
    this.#everyMs = everyMs;
  }

  start() {
    void this.anchorNow();
    this.#timer = setInterval(() => void this.anchorNow(), this.#everyMs);
    this.#timer.unref();
  }

  async stop() {
    clearInterval(this.#timer);
    await this.#running;
  }

  anchorNow(): Promise<VerifyResult | undefined> {
    this.#running ??= this.#round().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #round(): Promise<VerifyResult | undefined> {
    try {
      const latest = await this.#anchors.latest();
      const result = await verifyChain(this.#db, { anchors: this.#anchors, clock: this.#clock, from: latest });
      if (!result.ok) {
        this.#log.error(
          { firstBadSeq: result.firstBadSeq, reason: result.reason },
          'chain NOT anchored: it fails to verify',
        );
      }
      return result;
    } catch (error) {
      this.#log.error({ err: error }, 'chain anchoring failed; next round retries');
      return undefined;
    }
  }
}
