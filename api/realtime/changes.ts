import type pg from 'pg';
import type { RecordedEvent } from '#events/store.ts';
import { queueCounts } from '#projections/catalog/adminQueue.ts';
import { findComment } from '#projections/catalog/engagement.ts';
import { findItem, toView, type Kind } from '#projections/catalog/items.ts';
import type { Message } from './events.ts';

type Change =
  | { what: 'added' | 'removed' | 'queue' | 'likes'; kind: Kind; id: number }
  | { what: 'comment-added' | 'comment-removed'; kind: Kind; id: number; commentId: number };

/** What an event means for open screens. */
export function changesOf(event: RecordedEvent): Change[] {
  switch (event.type) {
    case 'ArtworkSubmitted':
      return [{ what: 'queue', kind: 'artwork', id: event.data.artworkId }];
    case 'StorySubmitted':
      return [{ what: 'queue', kind: 'story', id: event.data.storyId }];
    case 'MediaSubmitted':
      return [{ what: 'queue', kind: 'media', id: event.data.mediaId }];
    case 'ArtworkApproved':
    case 'ArtworkUnarchived':
      return [
        { what: 'added', kind: 'artwork', id: event.data.artworkId },
        { what: 'queue', kind: 'artwork', id: event.data.artworkId },
      ];
    case 'StoryApproved':
      return [
        { what: 'added', kind: 'story', id: event.data.storyId },
        { what: 'queue', kind: 'story', id: event.data.storyId },
      ];
    case 'MediaApproved':
      return [
        { what: 'added', kind: 'media', id: event.data.mediaId },
        { what: 'queue', kind: 'media', id: event.data.mediaId },
      ];
    case 'ArtworkRejected':
    case 'ArtworkArchived':
    case 'ArtworkDeleted':
      return [
        { what: 'removed', kind: 'artwork', id: event.data.artworkId },
        { what: 'queue', kind: 'artwork', id: event.data.artworkId },
      ];
    case 'StoryRejected':
    case 'StoryDeleted':
      return [
        { what: 'removed', kind: 'story', id: event.data.storyId },
        { what: 'queue', kind: 'story', id: event.data.storyId },
      ];
    case 'MediaRejected':
    case 'MediaDeleted':
      return [
        { what: 'removed', kind: 'media', id: event.data.mediaId },
        { what: 'queue', kind: 'media', id: event.data.mediaId },
      ];
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
  const messages: Message[] = [];
  for (const c of changes) {
    const { position, kind, id } = c;
    switch (c.what) {
      case 'queue':
        messages.push({ event: 'admin:queue-changed', payload: { position, kind, ...counts! } });
        break;
      case 'added': {
        const row = await findItem(pool, kind, id, guest);
        if (row) messages.push({ event: 'gallery:item-added', payload: { position, kind, item: toView(row, guest) } });
        break;
      }
      case 'removed':
        messages.push({ event: 'gallery:item-removed', payload: { position, kind, id } });
        break;
      case 'likes': {
        const row = await findItem(pool, kind, id, guest);
        if (row) messages.push({ event: 'likes:changed', payload: { position, kind, id, likeCount: row.like_count } });
        break;
      }
      case 'comment-added': {
        const row = await findItem(pool, kind, id, guest);
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
        const row = await findItem(pool, kind, id, guest);
        const payload = { position, kind, id, commentId: c.commentId, commentCount: row?.comment_count ?? 0 };
        if (row) messages.push({ event: 'comments:removed', payload });
        break;
      }
    }
  }
  return messages;
}
