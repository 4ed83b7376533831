import { createHash } from 'node:crypto';
import type pg from 'pg';

export const GENESIS_HASH = '0'.repeat(64);
export const CHAIN_PROJECTION = 'chain';

export function chainHash(prevHash: string, canonicalText: string): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalText).digest('hex');
}

export type VerifyResult =
  | { ok: true; checked: number; unsealed: number }
  | { ok: false; checked: number; firstBadPosition: number; reason: string };

const PAGE = 2000;

/**
 * Walks the chain in seal order, recomputing every hash from the event rows. Finds an edited event
 * (hash mismatch), a removed one (chain entry without its event, or a broken link), and an inserted
 * one (an event the sealer has passed that is not in the chain).
 */
export async function verifyChain(db: Pick<pg.Pool, 'query'>): Promise<VerifyResult> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const { rows } = await db.query<{
      seq: number;
      position: number;
      prev_hash: string;
      hash: string;
      canonical: string | null;
    }>(
      `SELECT c.seq, c.position, c.prev_hash, c.hash, event_canonical_text(e) AS canonical
       FROM event_chain c LEFT JOIN events e ON e.position = c.position
       WHERE c.seq >= $1 ORDER BY c.seq LIMIT $2`,
      [expectedSeq, PAGE],
    );
    for (const row of rows) {
      const bad = (reason: string): VerifyResult => ({ ok: false, checked, firstBadPosition: row.position, reason });
      if (row.seq !== expectedSeq) return bad(`chain entry ${expectedSeq} is missing`);
      if (row.canonical === null) return bad('event removed');
      if (row.prev_hash !== prevHash) return bad('chain link broken');
      if (chainHash(prevHash, row.canonical) !== row.hash) return bad('event edited');
      prevHash = row.hash;
      expectedSeq++;
      checked++;
    }
    if (rows.length < PAGE) break;
  }
  const { rows: stray } = await db.query<{ position: number }>(
    `SELECT e.position FROM events e
     JOIN projection_checkpoints c ON c.name = $1
     LEFT JOIN event_chain ch ON ch.position = e.position
     WHERE ch.position IS NULL AND (e.transaction_id, e.position) <= (c.transaction_id, c.position)
     ORDER BY e.position LIMIT 1`,
    [CHAIN_PROJECTION],
  );
  if (stray[0]) return { ok: false, checked, firstBadPosition: stray[0].position, reason: 'event inserted' };
  const { rows: tail } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events e LEFT JOIN event_chain ch ON ch.position = e.position WHERE ch.position IS NULL`,
  );
  return { ok: true, checked, unsealed: tail[0]?.n ?? 0 };
}
