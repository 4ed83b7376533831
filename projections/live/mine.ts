import type pg from 'pg';
import { mineRoom, type MineChanged } from '#contract/mine.ts';
import type { MineChange } from '../catalog/statements/statement.ts';

/** A `mine:changed` for one browser's sockets, as the outbox stores it. */
export interface MineMessage {
  room: string;
  event: 'mine:changed';
  payload: MineChanged;
}

/**
 * The `mine:changed` messages of a catalog batch (CONTRACT §11): the `mine` changes its statements
 * declare (an item decided, or withdrawn for the sender's other tabs) tell the browser that sent the
 * item, and no one else. Who sent what is read from `contributions` (decision 087); an item no
 * browser owns tells no one.
 */
export async function mineMessages(
  db: Pick<pg.Pool, 'query'>,
  changes: ReadonlyArray<MineChange & { position: number }>,
): Promise<MineMessage[]> {
  if (changes.length === 0) return [];
  const { rows } = await db.query<{ stream_id: string; visitor_id: string }>(
    `SELECT stream_id, visitor_id::text FROM contributions WHERE stream_id = ANY($1::text[])`,
    [changes.map((c) => `${c.kind}-${c.id}`)],
  );
  const senderOf = new Map(rows.map((r) => [r.stream_id, r.visitor_id]));
  return changes.flatMap(({ kind, id, status, position }) => {
    const sender = senderOf.get(`${kind}-${id}`);
    const payload = { kind, id, status, position };
    return sender ? [{ room: mineRoom(sender), event: 'mine:changed' as const, payload }] : [];
  });
}
