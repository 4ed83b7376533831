import { allEvents } from '#events/catalog.ts';
import { CHAIN_PROJECTION, GENESIS_HASH, chainHash } from '#events/chain.ts';
import type { Projection } from '../projection.ts';

/**
 * Seals events into the hash chain in the global order, right after they commit. It is written like
 * a projection so it shares the runner's guarantees, but it is never rebuilt: rebuilding would
 * bless whatever the log holds now.
 */
export const chainSealer: Projection = {
  name: CHAIN_PROJECTION,
  canHandle: allEvents.map((d) => d.type),
  tables: ['event_chain'],
  rebuildable: false,
  async apply(events, db) {
    const { rows: head } = await db.query<{ seq: number; hash: string }>(
      `SELECT seq, hash FROM event_chain ORDER BY seq DESC LIMIT 1`,
    );
    let seq = head[0]?.seq ?? 0;
    let prevHash = head[0]?.hash ?? GENESIS_HASH;
    const positions = events.map((e) => e.position);
    const { rows } = await db.query<{ position: number; canonical: string }>(
      `SELECT e.position, event_canonical_text(e) AS canonical FROM events e
       WHERE e.position = ANY($1::bigint[])`,
      [positions],
    );
    const canonical = new Map(rows.map((r) => [r.position, r.canonical]));
    const seqs: number[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    for (const position of positions) {
      const hash = chainHash(prevHash, canonical.get(position)!);
      seqs.push(++seq);
      prevs.push(prevHash);
      hashes.push(hash);
      prevHash = hash;
    }
    await db.query(
      `INSERT INTO event_chain (seq, position, prev_hash, hash)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])`,
      [seqs, positions, prevs, hashes],
    );
  },
};
