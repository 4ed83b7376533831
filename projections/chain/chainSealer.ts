import type pg from 'pg';
import { allEvents } from '#events/catalog.ts';
import {
  EVENT_COLUMNS_SQL,
  chainRecord,
  currentScheme,
  linkHash,
  logHmacKey,
  type EventRow,
} from '#events/canonical.ts';
import { CHAIN_PROJECTION, GENESIS_HASH } from '#events/chain.ts';
import type { Projection } from '../projection.ts';

/**
 * Chains `events`, in the order given, after the chain's head; returns the seq of the last link, so
 * the runner moves the sealer's checkpoint without asking again.
 */
export async function seal(events: readonly { position: number }[], db: pg.PoolClient): Promise<number> {
  const { rows: head } = await db.query<{ seq: number; hash: string }>(
    `SELECT seq, hash FROM event_chain ORDER BY seq DESC LIMIT 1`,
  );
  let seq = head[0]?.seq ?? 0;
  let prevHash = head[0]?.hash ?? GENESIS_HASH;
  const positions = events.map((e) => e.position);
  const { rows } = await db.query<EventRow>(
    `SELECT e.position, ${EVENT_COLUMNS_SQL} FROM events e WHERE e.position = ANY($1::bigint[])`,
    [positions],
  );
  const byPosition = new Map(rows.map((r) => [r.position, r]));
  const key = logHmacKey();
  const scheme = currentScheme(key);
  const seqs: number[] = [];
  const prevs: string[] = [];
  const hashes: string[] = [];
  for (const position of positions) {
    seq++;
    const hash = linkHash(chainRecord(byPosition.get(position)!, seq, prevHash), key);
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
 * of the canonical record (docs/canonical-form.md), which holds the event's seq, its position and
 * the previous link, so the chain covers the order the read models fold. It is written like a
 * projection so it shares the runner's guarantees, but it is never rebuilt: rebuilding would bless
 * whatever the log holds now.
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
