import type pg from 'pg';
import { ROOM_OF, ROOMS, type Room } from '#contract/live.ts';
import type { Clock } from '#events/clock.ts';
import type { RecordedEvent } from '#events/store.ts';
import { forgets, forgettingsIn, forgetInOutbox } from './forgetting.ts';
import { messagesFor, type Heard, type HeardOf, type ServerMessage } from './messages.ts';
import { mineMessages } from './mine.ts';

export const LIVE_CHANNEL = 'tribute_live';
/** How far back (in log positions) the outbox keeps messages for reconnecting clients. */
export const LIVE_RETENTION = 5000;
const PRUNE_EVERY = 500;

/**
 * The catalog's `live`: what its statements say screens hear of each event (`heardOf`), written as
 * live messages into the outbox inside each batch's transaction.
 */
export const writeLiveMessages =
  (heardOf: HeardOf) =>
  (events: readonly RecordedEvent[], db: pg.PoolClient, clock: Clock): Promise<void> =>
    writeBatch(events, db, heardOf, clock);

/**
 * Writes a catalog batch's live messages into the outbox, inside the batch's transaction. The
 * catalog's checkpoint lock orders batches, so messages commit in position order, exactly once, next
 * to the state they describe; every API process then tails them.
 *
 * Each message gets its `after`: the position of the message before it in its chain, which lets a
 * client see a gap. Every socket hears the everyone room; admins hear theirs too, and a screen that
 * shows the mural hears the mural's room (decision 116): an everyone message follows the last
 * everyone message, an admins or mural message the last of everyone's and its own room's.
 */
async function writeBatch(
  events: readonly RecordedEvent[],
  db: pg.PoolClient,
  heardOf: HeardOf,
  clock: Clock,
): Promise<void> {
  // delivered when the batch commits, even one without messages: every API process's tail then
  // reads the outbox and learns where the catalog stands
  await db.query(`SELECT pg_notify($1, '')`, [LIVE_CHANNEL]);
  const heard: Heard[] = events.flatMap((e) =>
    e.seq === null ? [] : heardOf(e).map((c) => ({ ...c, position: e.seq! })),
  );
  // a delete or an erasure takes the words it forgets out of the catch-up buffer (decision 073): the
  // messages naming those items and comments, of this batch and of the outbox, and nothing else
  const forgettings = await forgettingsIn(
    db,
    heard.filter((c) => c.what === 'forget' || c.what === 'erased'),
  );
  const unplaced = (await messagesFor(db, heard, heardOf, clock)).filter(
    (m) => !forgettings.some((f) => forgets(f, m.event, m.payload)),
  );
  for (const f of forgettings) await forgetInOutbox(db, f);
  const mine = await mineMessages(
    db,
    heard.filter((c) => c.what === 'mine'),
  );
  if (unplaced.length === 0 && mine.length === 0) return;
  const { rows } = await db.query<{
    last_everyone: number;
    last_any: number;
    last_mural: number;
    pruned_through: number;
  }>(`SELECT last_everyone, last_any, last_mural, pruned_through FROM live_state`);
  const { pruned_through: prunedThrough } = rows[0]!;
  // the last position of each chain: everyone's, everyone's with the admins', everyone's with the mural's
  const last: Record<Room, number> = {
    everyone: rows[0]!.last_everyone,
    admins: rows[0]!.last_any,
    mural: rows[0]!.last_mural,
  };
  const messages: Array<ServerMessage & { room: string; ord: number }> = [];
  let ord = 0;
  let previousPosition = -1;
  // messages of one position share the `after` of that position: they are one step for the client
  let afterOf = { ...last };
  for (const m of unplaced) {
    const { position } = m.payload;
    if (position !== previousPosition) {
      afterOf = { ...last };
      ord = 0;
      previousPosition = position;
    }
    const room = ROOM_OF[m.event];
    messages.push({ ...m, payload: { ...m.payload, after: afterOf[room] }, room, ord: ord++ } as ServerMessage & {
      room: string;
      ord: number;
    });
    // an everyone message is in every chain; another only in its own room's
    if (room === ROOMS.everyone) for (const chain of Object.keys(last) as Room[]) last[chain] = position;
    else last[room] = position;
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
  const newest = placed.at(-1)!.payload.position;
  const prune = newest - prunedThrough > LIVE_RETENTION + PRUNE_EVERY ? newest - LIVE_RETENTION : prunedThrough;
  if (prune !== prunedThrough) {
    await db.query(
      `WITH forgotten AS (DELETE FROM live_forgotten WHERE position <= $1)
       DELETE FROM live_messages WHERE position <= $1`,
      [prune],
    );
  }
  await db.query(`UPDATE live_state SET last_everyone = $1, last_any = $2, last_mural = $3, pruned_through = $4`, [
    last.everyone,
    last.admins,
    last.mural,
    prune,
  ]);
}
