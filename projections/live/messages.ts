import type pg from 'pg';
import type { LiveMessage } from '#contract/live.ts';
import type { Clock } from '#events/clock.ts';
import { readSealedStreams, type RecordedEvent } from '#events/store.ts';
import { queueCounts } from '../catalog/adminQueue.ts';
import { findComment } from '../catalog/engagement.ts';
import { dayOrder, galleryView, processDay } from '../catalog/galleryPage.ts';
import { findItem, toView, type Kind } from '../catalog/items.ts';
import { isMuralChange, muralMessages } from '../catalog/mural.ts';
import type { Change, ForgetChange, MineChange } from '../catalog/statements/statement.ts';
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
/** A change as a batch heard it, at the position (seq) of its event. */
export type Heard = Change & { position: number };
type ScreenChange = Exclude<Change, MineChange | ForgetChange> & { position: number };

const guest = { admin: false };

/**
 * Keeps, of the changes in one batch, what open screens need: counters and the queue are totals,
 * so only the last like change per item and the last queue change survive, each at the position
 * of the last event it stands for. A hundred likes of one item are one `likes:changed`.
 */
export function coalesce<C extends Heard>(changes: C[]): C[] {
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
 * their comments on items that stay, with the item each was posted on (what its posting was heard as).
 */
async function erasedOf(db: Pick<pg.Pool, 'query'>, heardOf: HeardOf, subjectId: number) {
  const { rows } = await db.query<{ stream_id: string }>(
    `SELECT stream_id FROM erased_streams WHERE subject_id = $1 ORDER BY stream_id`,
    [subjectId],
  );
  const items = rows.flatMap((r) => {
    const [, kind, id] = /^(artwork|story|media)-(\d+)$/.exec(r.stream_id) ?? [];
    return kind ? [{ kind: kind as Kind, id: Number(id) }] : [];
  });
  const commentStreams = rows.map((r) => r.stream_id).filter((s) => /^comment-\d+$/.test(s));
  const posted = (await readSealedStreams(db, commentStreams))
    .flatMap((e) => heardOf(e))
    .flatMap((c) => (c.what === 'comment-added' ? [{ kind: c.kind, id: c.id, comment_id: c.commentId }] : []))
    .sort((a, b) => a.comment_id - b.comment_id);
  const gone = new Set(items.map((i) => `${i.kind}-${i.id}`));
  return { items, comments: posted.filter((c) => !gone.has(`${c.kind}-${c.id}`)) };
}

/**
 * Of the items a batch removes, those that were in the gallery just before their removal (in the
 * log, by chain order): guests may have them on screen, and a screen takes them out of its pages
 * and counts one fewer (decision 140). The item's own events say it, as their statements declare
 * (`added` or `removed`): it was shown if the last of them before the removal put it in. A pending
 * item rejected, withdrawn or deleted was never theirs to see, and its id is not sent to them
 * (issue 20); nor is an item already out (archived, then deleted), which a screen would count out
 * twice. The admins' queue message still goes.
 */
async function shownToGuests(
  db: Pick<pg.Pool, 'query'>,
  heardOf: HeardOf,
  removed: ReadonlyArray<{ kind: Kind; id: number; position: number }>,
): Promise<Set<string>> {
  const past = await readSealedStreams(db, [...new Set(removed.map((r) => `${r.kind}-${r.id}`))]);
  const shown = removed.filter(({ kind, id, position }) => {
    let inGallery = false;
    for (const e of past) {
      if (e.streamId !== `${kind}-${id}` || e.seq! >= position) continue;
      for (const c of heardOf(e)) {
        if ((c.what === 'added' || c.what === 'removed') && c.kind === kind && c.id === id) {
          inGallery = c.what === 'added';
        }
      }
    }
    return inGallery;
  });
  return new Set(shown.map((r) => `${r.kind}:${r.id}@${r.position}`));
}

/**
 * The live messages for a batch of catalog events, in log order, built inside the batch's
 * transaction from the read model as the batch leaves it; `clock` says which day it is.
 */
export async function messagesFor(
  db: Pick<pg.Pool, 'query'>,
  heard: readonly Heard[],
  heardOf: HeardOf,
  clock: Clock,
): Promise<Unplaced[]> {
  // a sender's own message and a forgetting are the outbox's to write (mine.ts, forgetting.ts)
  const changes = coalesce(heard.filter((c): c is ScreenChange => c.what !== 'mine' && c.what !== 'forget'));
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
  for (const c of changes) if (c.what === 'erased') erasures.set(c, await erasedOf(db, heardOf, c.subjectId));
  const shown = await shownToGuests(db, heardOf, [
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
