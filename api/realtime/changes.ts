import type pg from 'pg';
import type { RecordedEvent } from '#events/store.ts';
import { queueCounts } from '#projections/catalog/adminQueue.ts';
import { findComment } from '#projections/catalog/engagement.ts';
import { findItem, toView, type Kind } from '#projections/catalog/items.ts';
import type { Message } from './events.ts';

type Change =
  | { what: 'added' | 'removed' | 'queue' | 'likes'; kind: Kind; id: number }
  | { what: 'comment-added' | 'comment-removed'; kind: Kind; id: number; commentId: number };

/** A moderation change: the admin queue moves, and the gallery gains or loses the item if it says so. */
const moderated = (kind: Kind, id: number, gallery?: 'added' | 'removed'): Change[] => [
  ...(gallery ? [{ what: gallery, kind, id }] : []),
  { what: 'queue', kind, id },
];

/** What an event means for open screens. */
export function changesOf(event: RecordedEvent): Change[] {
  switch (event.type) {
    case 'ArtworkSubmitted':
      return moderated('artwork', event.data.artworkId);
    case 'StorySubmitted':
      return moderated('story', event.data.storyId);
    case 'MediaSubmitted':
      return moderated('media', event.data.mediaId);
    case 'ArtworkApproved':
    case 'ArtworkUnarchived':
      return moderated('artwork', event.data.artworkId, 'added');
    case 'StoryApproved':
      return moderated('story', event.data.storyId, 'added');
    case 'MediaApproved':
      return moderated('media', event.data.mediaId, 'added');
    case 'ArtworkRejected':
    case 'ArtworkArchived':
    case 'ArtworkDeleted':
      return moderated('artwork', event.data.artworkId, 'removed');
    case 'StoryRejected':
    case 'StoryDeleted':
      return moderated('story', event.data.storyId, 'removed');
    case 'MediaRejected':
    case 'MediaDeleted':
      return moderated('media', event.data.mediaId, 'removed');
    case 'ItemLiked':
    case 'ItemUnliked':
      return [{ what: 'likes', kind: event.data.kind, id: event.data.itemId }];
    case 'CommentPosted':
      return [{ what: 'comment-added', kind: event.data.kind, id: event.data.itemId, commentId: event.data.commentId }];
    case 'CommentRemoved':
      return [
        { what: 'comment-removed', kind: event.data.kind, id: event.data.itemId, commentId: event.data.commentId },
      ];
    case 'ArtworkRenditionsMade':
    case 'MediaProcessed':
    case 'ItemViewed':
      return [];
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

const guest = { admin: false };

/**
 * The socket messages for a run of events, in order, built from the read model as it is now. Used
 * by the live publisher and by the catch-up of a reconnecting client alike.
 */
export async function messagesFor(pool: pg.Pool, events: readonly RecordedEvent[]): Promise<Message[]> {
  const changes = events.flatMap((e) => (e.seq === null ? [] : changesOf(e).map((c) => ({ ...c, position: e.seq! }))));
  const counts = changes.some((c) => c.what === 'queue') ? await queueCounts(pool) : undefined;
  // one read per item per batch: 200 likes of one item are one query, not 200
  const rows = new Map<string, ReturnType<typeof findItem>>();
  const item = (kind: Kind, id: number) => {
    const key = `${kind}:${id}`;
    if (!rows.has(key)) rows.set(key, findItem(pool, kind, id, guest));
    return rows.get(key)!;
  };
  const messages: Message[] = [];
  for (const c of changes) {
    const { position, kind, id } = c;
    switch (c.what) {
      case 'queue':
        messages.push({ event: 'admin:queue-changed', payload: { position, kind, ...counts! } });
        break;
      case 'added': {
        const row = await item(kind, id);
        if (row) messages.push({ event: 'gallery:item-added', payload: { position, kind, item: toView(row, guest) } });
        break;
      }
      case 'removed':
        messages.push({ event: 'gallery:item-removed', payload: { position, kind, id } });
        break;
      case 'likes': {
        const row = await item(kind, id);
        if (row) messages.push({ event: 'likes:changed', payload: { position, kind, id, likeCount: row.like_count } });
        break;
      }
      case 'comment-added': {
        const row = await item(kind, id);
        const comment = await findComment(pool, c.commentId);
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
        const payload = { position, kind, id, commentId: c.commentId, commentCount: row?.comment_count ?? 0 };
        if (row) messages.push({ event: 'comments:removed', payload });
        break;
      }
    }
  }
  return messages;
}
