import type pg from 'pg';
import { mineRoom, type ContributionStatus, type MineChanged } from '#contract/mine.ts';
import type { Kind } from '#contract/live.ts';
import type { RecordedEvent } from '#events/store.ts';

/** A `mine:changed` for one browser's sockets, as the outbox stores it. */
export interface MineMessage {
  room: string;
  event: 'mine:changed';
  payload: MineChanged;
}

const STATUS_OF: Record<string, ContributionStatus> = {
  Approved: 'approved',
  Rejected: 'rejected',
  Withdrawn: 'withdrawn',
};
const KIND_OF: Record<string, Kind> = { Artwork: 'artwork', Story: 'story', Media: 'media' };

/**
 * The `mine:changed` messages of a catalog batch (CONTRACT §11): an item decided (or withdrawn, for
 * the sender's other tabs) tells the browser that sent it, and no one else. Who sent what is read
 * from `contributions` (decision 087); an item no browser owns tells no one.
 */
export async function mineMessages(
  db: Pick<pg.Pool, 'query'>,
  events: readonly RecordedEvent[],
): Promise<MineMessage[]> {
  const changes = events.flatMap((e) => {
    const match = /^(Artwork|Story|Media)(Approved|Rejected|Withdrawn)$/.exec(e.type);
    if (!match || e.seq === null) return [];
    const kind = KIND_OF[match[1]!]!;
    const id = (e.data as Record<string, number>)[`${kind}Id`]!;
    return [{ kind, id, status: STATUS_OF[match[2]!]!, position: e.seq }];
  });
  if (changes.length === 0) return [];
  const { rows } = await db.query<{ stream_id: string; visitor_id: string }>(
    `SELECT stream_id, visitor_id::text FROM contributions WHERE stream_id = ANY($1::text[])`,
    [changes.map((c) => `${c.kind}-${c.id}`)],
  );
  const senderOf = new Map(rows.map((r) => [r.stream_id, r.visitor_id]));
  return changes.flatMap((c) => {
    const sender = senderOf.get(`${c.kind}-${c.id}`);
    return sender ? [{ room: mineRoom(sender), event: 'mine:changed' as const, payload: c }] : [];
  });
}
