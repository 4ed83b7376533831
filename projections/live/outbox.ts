import type pg from 'pg';
import { ROOM_OF, ROOMS } from '#contract/live.ts';
import type { RecordedEvent } from '#events/store.ts';
import { forgets, forgettingsIn, forgetInOutbox } from './forgetting.ts';
import { messagesFor, type ServerMessage } from './messages.ts';
import { mineMessages } from './mine.ts';

export const LIVE_CHANNEL = 'tribute_live';
/** How far back (in log positions) the outbox keeps messages for reconnecting clients. */
export const LIVE_RETENTION = 5000;
const PRUNE_EVERY = 500;

/**
 * Writes a catalog batch's live messages into the outbox, inside the batch's transaction (run as the
 * catalog's batch hook). The catalog's checkpoint lock orders batches, so messages commit in
 * position order, exactly once, next to the state they describe; every API process then tails them.
 *
 * Each message gets its `after`: the position of the message before it that its audience receives
 * (guests hear only the everyone room; admins hear both), which lets a client see a gap.
 */
export async function writeLiveMessages(events: readonly RecordedEvent[], db: pg.PoolClient): Promise<void> {
  // delivered when the batch commits, even one without messages: every API process's tail then
  // reads the outbox and learns where the catalog stands
  await db.query(`SELECT pg_notify($1, '')`, [LIVE_CHANNEL]);
  // a delete or an erasure takes the words it forgets out of the catch-up buffer (decision 073): the
  // messages naming those items and comments, of this batch and of the outbox, and nothing else
  const forgettings = await forgettingsIn(db, events);
  const unplaced = (await messagesFor(db, events)).filter(
    (m) => !forgettings.some((f) => forgets(f, m.event, m.payload)),
  );
  for (const f of forgettings) await forgetInOutbox(db, f);
  const mine = await mineMessages(db, events);
  if (unplaced.length === 0 && mine.length === 0) return;
  const { rows } = await db.query<{ last_everyone: number; last_any: number; pruned_through: number }>(
    `SELECT last_everyone, last_any, pruned_through FROM live_state`,
  );
  let { last_everyone: lastEveryone, last_any: lastAny } = rows[0]!;
  const { pruned_through: prunedThrough } = rows[0]!;
  const messages: Array<ServerMessage & { room: string; ord: number }> = [];
  let ord = 0;
  let previousPosition = -1;
  // messages of one position share the `after` of that position: they are one step for the client
  let afterEveryone = lastEveryone;
  let afterAny = lastAny;
  for (const m of unplaced) {
    const { position } = m.payload;
    if (position !== previousPosition) {
      afterEveryone = lastEveryone;
      afterAny = lastAny;
      ord = 0;
      previousPosition = position;
    }
    const room = ROOM_OF[m.event];
    const after = room === ROOMS.everyone ? afterEveryone : afterAny;
    messages.push({ ...m, payload: { ...m.payload, after }, room, ord: ord++ } as ServerMessage & {
      room: string;
      ord: number;
    });
    if (room === ROOMS.everyone) lastEveryone = position;
    lastAny = position;
  }
  // a sender's own messages come after the step's others and stand outside every audience's sequence
  // (their `after` is their own position): the web applies them apart, and no catch-up carries them
  const lastOrd = new Map(messages.map((m) => [m.payload.position, m.ord]));
  const own = mine.map((m) => {
    const ord = (lastOrd.get(m.payload.position) ?? -1) + 1;
    lastOrd.set(m.payload.position, ord);
    return { ...m, ord, payload: { ...m.payload, after: m.payload.position } };
  });
  const placed = [...messages, ...own].sort((a, b) => a.payload.position - b.payload.position || a.ord - b.ord);
  await db.query(
    `INSERT INTO live_messages (position, ord, room, event, after, payload)
     SELECT * FROM unnest($1::bigint[], $2::smallint[], $3::text[], $4::text[], $5::bigint[], $6::jsonb[])`,
    [
      placed.map((m) => m.payload.position),
      placed.map((m) => m.ord),
      placed.map((m) => m.room),
      placed.map((m) => m.event),
      placed.map((m) => m.payload.after),
      placed.map((m) => JSON.stringify(m.payload)),
    ],
  );
  const last = placed.at(-1)!.payload.position;
  const prune = last - prunedThrough > LIVE_RETENTION + PRUNE_EVERY ? last - LIVE_RETENTION : prunedThrough;
  if (prune !== prunedThrough) {
    await db.query(
      `WITH forgotten AS (DELETE FROM live_forgotten WHERE position <= $1)
       DELETE FROM live_messages WHERE position <= $1`,
      [prune],
    );
  }
  await db.query(`UPDATE live_state SET last_everyone = $1, last_any = $2, pruned_through = $3`, [
    lastEveryone,
    lastAny,
    prune,
  ]);
}
