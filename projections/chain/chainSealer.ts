import type pg from 'pg';
import { allEvents } from '#events/catalog.ts';
import {
  EVENT_COLUMNS_SQL,
  chainRecord,
  currentScheme,
  isKeyed,
  linkHash,
  logHmacKey,
  tagHolds,
  type EventRow,
} from '#events/canonical.ts';
import { CHAIN_PROJECTION, GENESIS_HASH, SealRefused, checkChainKey } from '#events/chain.ts';
import { REF_ROWS_SQL, commitmentsOf, type RefRows } from '#events/commitments.ts';
import type { Projection } from '../projection.ts';

interface SealRow extends EventRow {
  tag: string | null;
  refs: RefRows | null;
}

/**
 * Chains `events`, in the order given, after the chain's head; returns the seq of the last link, so
 * the runner moves the sealer's checkpoint without asking again. It refuses (SealRefused, nothing
 * written) rather than seal what would not verify: with a missing or wrong LOG_HMAC_KEY once the
 * chain is keyed, and, under the key, an event without a good append tag (not written by a holder
 * of the key: a row inserted by hand) or with a tag already used (a copied row).
 */
export async function seal(events: readonly { position: number }[], db: pg.PoolClient): Promise<number> {
  const key = logHmacKey();
  const head = await checkChainKey(db, key);
  let seq = head?.seq ?? 0;
  let prevHash = head?.hash ?? GENESIS_HASH;
  const positions = events.map((e) => e.position);
  const { rows } = await db.query<SealRow>(
    `SELECT e.position, e.tag, ${EVENT_COLUMNS_SQL}, ${REF_ROWS_SQL} AS refs FROM events e
     WHERE e.position = ANY($1::bigint[])`,
    [positions],
  );
  const byPosition = new Map(rows.map((r) => [r.position, r]));
  const scheme = currentScheme(key);
  const keyedChain = head !== null && isKeyed(head.scheme);
  for (const row of rows) {
    if (!key) {
      if (row.tag !== null)
        throw new SealRefused(
          `event at position ${row.position} is tagged under LOG_HMAC_KEY, and this process has no key`,
        );
      continue;
    }
    if (row.tag === null ? keyedChain : !tagHolds(key, row.tag, row)) {
      throw new SealRefused(
        `event at position ${row.position} has no valid tag under LOG_HMAC_KEY: it was not appended by a holder of the key`,
      );
    }
  }
  const tags = rows.flatMap((r) => (r.tag === null ? [] : [r.tag]));
  if (tags.length) {
    const { rows: copies } = await db.query<{ position: number }>(
      `SELECT min(position) AS position FROM events WHERE tag = ANY($1::text[]) GROUP BY tag HAVING count(*) > 1 LIMIT 1`,
      [tags],
    );
    if (copies[0]) throw new SealRefused(`event at position ${copies[0].position} was copied: its tag is used twice`);
  }
  const seqs: number[] = [];
  const prevs: string[] = [];
  const hashes: string[] = [];
  for (const position of positions) {
    seq++;
    const row = byPosition.get(position)!;
    const hash = linkHash(chainRecord(row, seq, prevHash, commitmentsOf(row.refs)), key);
    seqs.push(seq);
    prevs.push(prevHash);
    hashes.push(hash);
    prevHash = hash;
  }
  await db.query(
    `INSERT INTO event_chain (seq, position, prev_hash, hash, scheme)
       SELECT s, p, ph, h, $5 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS u(s, p, ph, h)`,
    [seqs, positions, prevs, hashes, scheme],
  );
  return seq;
}

/**
 * Seals events into the hash chain in commit order, right after they commit. Each link is the hash
 * of the canonical record (docs/canonical-form.md), which holds the event's seq, its position, the
 * previous link and the commitments of the personal values it refers to, so the chain covers the
 * order the read models fold and the words they show. It is written like a projection so it shares
 * the runner's guarantees, but it is never rebuilt: rebuilding would bless whatever the log holds now.
 */
export const chainSealer: Projection = {
  name: CHAIN_PROJECTION,
  canHandle: allEvents.map((d) => d.type),
  tables: ['event_chain'],
  rebuildable: false,
  async apply(events, db) {
    await seal(events, db);
  },
};
