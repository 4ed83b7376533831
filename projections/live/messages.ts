import type pg from 'pg';
import type { LiveMessage } from '#contract/live.ts';
import type { Clock } from '#events/clock.ts';
import type { RecordedEvent } from '#events/store.ts';
import { queueCounts } from '../catalog/adminQueue.ts';
import { findComment } from '../catalog/engagement.ts';
import { dayOrder, galleryView, processDay } from '../catalog/galleryPage.ts';
import { findItem, toView, type Kind } from '../catalog/items.ts';
import { isMuralChange, muralMessages } from '../catalog/mural.ts';
import type { Change } from '../catalog/statements/statement.ts';
import { reactionTotals, readShow, statusOf } from '../catalog/show.ts';
import type { ReactionCounts } from '#contract/live.ts';

/** A live message as the server builds it, before it is given its `after`. */
export type ServerMessage = LiveMessage;
type Unplaced = ServerMessage extends infer M
  ? M extends { event: infer E; payload: infer P }
    ? { event: E; payload: Omit<P, 'after'> }
    : never
  : never;

export type { Change };
/** What an event means for open screens: its catalog statement's `heard`, beside its SQL. */
export type HeardOf = (event: RecordedEvent) => Change[];

const guest = { admin: false };

/**
 * Keeps, of the changes in one batch, what open screens need: counters and the queue are totals,
 * so only the last like change per item and the last queue change survive, each at the position
 * of the last event it stands for. A hundred likes of one item are one `likes:changed`.
 */
export function coalesce(changes: Array<Change & { position: number }>) {
  const lastOf = new Map<string, number>();
  changes.forEach((c, i) => {
    if (c.what === 'likes') lastOf.set(`likes:${c.kind}:${c.id}`, i);
    if (c.what === 'queue') lastOf.set('queue', i);
    if (c.what === 'show') lastOf.set('show', i);
    if (c.what === 'reactions') lastOf.set(`reactions:${c.kind}:${c.id}`, i);
  });
  // the taps of one item in a batch make one burst, carried by the last of them
  const taps = new Map<string, ReactionCounts>();
  for (const c of changes) {
    if (c.what !== 'reactions') continue;
    const key = `reactions:${c.kind}:${c.id}`;
    const sum = { ...taps.get(key) };
    for (const [emoji, n] of Object.entries(c.counts) as Array<[keyof ReactionCounts, number]>) {
      sum[emoji] = (sum[emoji] ?? 0) + n;
    }
    taps.set(key, sum);
  }
  return changes
    .filter((c, i) => {
      if (c.what === 'likes') return lastOf.get(`likes:${c.kind}:${c.id}`) === i;
      if (c.what === 'queue') return lastOf.get('queue') === i;
      if (c.what === 'show') return lastOf.get('show') === i;
      if (c.what === 'reactions') return lastOf.get(`reactions:${c.kind}:${c.id}`) === i;
      return true;
    })
    .map((c) => (c.what === 'reactions' ? { ...c, counts: taps.get(`reactions:${c.kind}:${c.id}`)! } : c));
}

/**
 * What an erasure took from open screens (the event itself names nothing): the person's items, and
 * their comments on items that stay, with the item each was posted on.
 */
async function erasedOf(db: Pick<pg.Pool, 'query'>, subjectId: number) {
  const { rows: items } = await db.query<{ kind: Kind; id: number }>(
    `SELECT substring(stream_id FROM '^([a-z]+)-') AS kind, substring(stream_id FROM '-(\\d+)$')::int AS id
     FROM erased_streams WHERE subject_id = $1 AND stream_id ~ '^(artwork|story|media)-\\d+$' ORDER BY stream_id`,
    [subjectId],
  );
  const { rows: comments } = await db.query<{ kind: Kind; id: number; comment_id: number }>(
    `SELECT e.data->>'kind' AS kind, (e.data->>'itemId')::int AS id, (e.data->>'commentId')::int AS comment_id
     FROM erased_streams s JOIN events e ON e.stream_id = s.stream_id AND e.type = 'CommentPosted'
     WHERE s.subject_id = $1 AND s.stream_id ~ '^comment-\\d+$' ORDER BY comment_id`,
    [subjectId],
  );
  const gone = new Set(items.map((i) => `${i.kind}-${i.id}`));
  return { items, comments: comments.filter((c) => !gone.has(`${c.kind}-${c.id}`)) };
}

/** The events that put an item into the gallery or take it out. */
const IN_GALLERY = ['ArtworkApproved', 'ArtworkUnarchived', 'StoryApproved', 'MediaApproved'];
const OUT_OF_GALLERY = [
  ...['Artwork', 'Story', 'Media'].flatMap((kind) => ['Rejected', 'Deleted', 'Withdrawn'].map((what) => kind + what)),
  'ArtworkArchived',
];

/**
 * Of the items a batch removes, those that were in the gallery just before their removal (in the
 * log, by chain order): guests may have them on screen, and a screen takes them out of its pages
 * and counts one fewer (decision 140). A pending item rejected, withdrawn or deleted was never
 * theirs to see, and its id is not sent to them (issue 20); nor is an item already out (archived,
 * then deleted), which a screen would count out twice. The admins' queue message still goes.
 */
async function shownToGuests(
  db: Pick<pg.Pool, 'query'>,
  removed: ReadonlyArray<{ kind: Kind; id: number; position: number }>,
): Promise<Set<string>> {
  if (removed.length === 0) return new Set();
  const { rows } = await db.query<{ stream_id: string; position: string }>(
    `SELECT r.stream_id, r.position::text FROM unnest($1::text[], $2::bigint[]) AS r(stream_id, position)
     WHERE (SELECT e.type = ANY($3::text[]) FROM events e JOIN event_chain c ON c.position = e.position
            WHERE e.stream_id = r.stream_id AND c.seq < r.position AND e.type = ANY($3::text[] || $4::text[])
            ORDER BY c.seq DESC LIMIT 1)`,
    [removed.map((r) => `${r.kind}-${r.id}`), removed.map((r) => r.position), IN_GALLERY, OUT_OF_GALLERY],
  );
  return new Set(rows.map((r) => `${r.stream_id.replace('-', ':')}@${r.position}`));
}

/**
 * The live messages for a batch of catalog events, in log order, built inside the batch's
 * transaction from the read model as the batch leaves it; `clock` says which day it is.
 */
export async function messagesFor(
  db: Pick<pg.Pool, 'query'>,
  events: readonly RecordedEvent[],
  heardOf: HeardOf,
  clock: Clock,
): Promise<Unplaced[]> {
  const changes = coalesce(
    events.flatMap((e) => (e.seq === null ? [] : heardOf(e).map((c) => ({ ...c, position: e.seq! })))),
  );
  const counts = changes.some((c) => c.what === 'queue' || c.what === 'erased' || c.what === 'captions')
    ? await queueCounts(db)
    : undefined;
  // one read per item per batch
  const rows = new Map<string, ReturnType<typeof findItem>>();
  const item = (kind: Kind, id: number) => {
    const key = `${kind}:${id}`;
    if (!rows.has(key)) rows.set(key, findItem(db, kind, id, guest));
    return rows.get(key)!;
  };
  const messages: Unplaced[] = [];
  let today: string | undefined;
  const day = () => (today ??= processDay(clock()));
  // where the item stood in the day's order, so a screen takes it from the right page (decision 140)
  const removedMessage = (position: number, kind: Kind, id: number): Unplaced => ({
    event: 'gallery:item-removed',
    payload: { position, kind, id, day: day(), order: dayOrder(day(), kind, id) },
  });
  const erasures = new Map<object, Awaited<ReturnType<typeof erasedOf>>>();
  for (const c of changes) if (c.what === 'erased') erasures.set(c, await erasedOf(db, c.subjectId));
  const shown = await shownToGuests(db, [
    ...changes.flatMap((c) => (c.what === 'removed' ? [c] : [])),
    ...changes.flatMap((c) =>
      c.what === 'erased' ? erasures.get(c)!.items.map((i) => ({ ...i, position: c.position })) : [],
    ),
  ]);
  // the mural's messages, a batch's strokes read in one query (projections/catalog/mural.ts)
  const mural = await muralMessages(
    db,
    changes.filter((c) => isMuralChange(c)),
  );
  for (const c of changes) {
    if (isMuralChange(c)) {
      messages.push(...(mural.get(c) ?? []));
      continue;
    }
    const { position } = c;
    if (c.what === 'show') {
      messages.push({ event: 'show:changed', payload: { position, ...statusOf(await readShow(db)) } });
      continue;
    }
    if (c.what === 'reactions') {
      const { kind, id, counts } = c;
      // taps counted just before the item left the gallery: nothing for guests to see any more
      if (!(await item(kind, id))) continue;
      const totals = await reactionTotals(db, kind, id);
      messages.push({ event: 'reactions:burst', payload: { position, kind, id, counts, totals } });
      continue;
    }
    if (c.what === 'captions') {
      // guests' screens hear of a track on what they may see; a pending message's reaches the queue
      const row = await item('media', c.id);
      const view = row && toView(row, guest);
      messages.push(
        view?.kind === 'media'
          ? {
              event: 'media:captions-changed',
              payload: { position, kind: 'media', id: c.id, captionsUrl: view.captionsUrl },
            }
          : { event: 'admin:queue-changed', payload: { position, kind: 'media', ...counts! } },
      );
      continue;
    }
    if (c.what === 'erased') {
      // one step for every screen: the items leave, the person's comments leave the items that stay,
      // and the admins' queue counts change once (decision 073)
      const erased = erasures.get(c)!;
      for (const { kind, id } of erased.items) {
        if (shown.has(`${kind}:${id}@${position}`)) messages.push(removedMessage(position, kind, id));
      }
      for (const { kind, id, comment_id: commentId } of erased.comments) {
        const row = await item(kind, id);
        if (row) {
          messages.push({
            event: 'comments:removed',
            payload: { position, kind, id, commentId, commentCount: row.comment_count },
          });
        }
      }
      const last = erased.items.at(-1);
      if (last) messages.push({ event: 'admin:queue-changed', payload: { position, kind: last.kind, ...counts! } });
      continue;
    }
    const { kind, id } = c;
    switch (c.what) {
      case 'queue':
        messages.push({ event: 'admin:queue-changed', payload: { position, kind, ...counts! } });
        break;
      case 'added': {
        // the item as a guest's page shows it, so screens place it without asking (decision 133)
        const row = await item(kind, id);
        if (row) {
          messages.push({
            event: 'gallery:item-added',
            payload: { position, kind, day: day(), item: galleryView(row, day()) },
          });
        }
        break;
      }
      case 'removed':
        if (shown.has(`${kind}:${id}@${position}`)) messages.push(removedMessage(position, kind, id));
        break;
      case 'likes': {
        const row = await item(kind, id);
        if (row) messages.push({ event: 'likes:changed', payload: { position, kind, id, likeCount: row.like_count } });
        break;
      }
      case 'comment-added': {
        const row = await item(kind, id);
        const comment = await findComment(db, c.commentId);
        if (row && comment) {
          messages.push({
            event: 'comments:added',
            payload: { position, kind, id, comment, commentCount: row.comment_count },
          });
        }
        break;
      }
      case 'comment-removed': {
        const row = await item(kind, id);
        if (row) {
          messages.push({
            event: 'comments:removed',
            payload: { position, kind, id, commentId: c.commentId, commentCount: row.comment_count },
          });
        }
        break;
      }
    }
  }
  return messages;
}
