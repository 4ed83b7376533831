import type pg from 'pg';
import type { RecordedEvent } from '#events/store.ts';
import { queueCounts } from '#projections/catalog/adminQueue.ts';
import { findComment } from '#projections/catalog/engagement.ts';
import { findItem, toView, type Kind } from '#projections/catalog/items.ts';
import type { CommittedListener } from '#projections/runner.ts';
import type { Realtime } from './realtime.ts';

type Change =
  | { what: 'added' | 'removed' | 'queue' | 'likes'; kind: Kind; id: number }
  | { what: 'comment-added' | 'comment-removed'; kind: Kind; id: number; commentId: number };

/** What an event means for open screens. */
function changesOf(event: RecordedEvent): Change[] {
  switch (event.type) {
    case 'ArtworkSubmitted':
      return [{ what: 'queue', kind: 'artwork', id: event.data.artworkId }];
    case 'StorySubmitted':
      return [{ what: 'queue', kind: 'story', id: event.data.storyId }];
    case 'MediaSubmitted':
      return [{ what: 'queue', kind: 'media', id: event.data.mediaId }];
    case 'ArtworkApproved':
    case 'ArtworkUnarchived':
      return [{ what: 'added', kind: 'artwork', id: event.data.artworkId }, { what: 'queue', kind: 'artwork', id: event.data.artworkId }];
    case 'StoryApproved':
      return [{ what: 'added', kind: 'story', id: event.data.storyId }, { what: 'queue', kind: 'story', id: event.data.storyId }];
    case 'MediaApproved':
      return [{ what: 'added', kind: 'media', id: event.data.mediaId }, { what: 'queue', kind: 'media', id: event.data.mediaId }];
    case 'ArtworkRejected':
    case 'ArtworkArchived':
    case 'ArtworkDeleted':
      return [{ what: 'removed', kind: 'artwork', id: event.data.artworkId }, { what: 'queue', kind: 'artwork', id: event.data.artworkId }];
    case 'StoryRejected':
    case 'StoryDeleted':
      return [{ what: 'removed', kind: 'story', id: event.data.storyId }, { what: 'queue', kind: 'story', id: event.data.storyId }];
    case 'MediaRejected':
    case 'MediaDeleted':
      return [{ what: 'removed', kind: 'media', id: event.data.mediaId }, { what: 'queue', kind: 'media', id: event.data.mediaId }];
    case 'ItemLiked':
    case 'ItemUnliked':
      return [{ what: 'likes', kind: event.data.kind, id: event.data.itemId }];
    case 'CommentPosted':
      return [{ what: 'comment-added', kind: event.data.kind, id: event.data.itemId, commentId: event.data.commentId }];
    case 'CommentRemoved':
      return [{ what: 'comment-removed', kind: event.data.kind, id: event.data.itemId, commentId: event.data.commentId }];
    case 'ArtworkRenditionsMade':
    case 'MediaProcessed':
      return [];
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Pushes catalog changes to sockets once the catalog has committed them, batch after batch, in log order. */
export function livePublisher(pool: pg.Pool, realtime: Realtime): CommittedListener {
  let tail = Promise.resolve();
  return (projection, events) => {
    if (projection !== 'catalog') return;
    tail = tail.then(() => publish(pool, realtime, events)).catch((error) => console.error('live publish:', error));
  };
}

const guest = { admin: false };

async function publish(pool: pg.Pool, realtime: Realtime, events: readonly RecordedEvent[]) {
  const changes = events.flatMap((e) => (e.seq === null ? [] : changesOf(e).map((c) => ({ ...c, position: e.seq! }))));
  const counts = changes.some((c) => c.what === 'queue') ? await queueCounts(pool) : undefined;
  for (const c of changes) {
    const { position, kind, id } = c;
    switch (c.what) {
      case 'queue':
        realtime.send('admin:queue-changed', { position, kind, ...counts! });
        break;
      case 'added': {
        const row = await findItem(pool, kind, id, guest);
        if (row) realtime.send('gallery:item-added', { position, kind, item: toView(row, guest) });
        break;
      }
      case 'removed':
        realtime.send('gallery:item-removed', { position, kind, id });
        break;
      case 'likes': {
        const row = await findItem(pool, kind, id, guest);
        if (row) realtime.send('likes:changed', { position, kind, id, likeCount: row.like_count });
        break;
      }
      case 'comment-added': {
        const row = await findItem(pool, kind, id, guest);
        const comment = await findComment(pool, c.commentId);
        if (row && comment) realtime.send('comments:added', { position, kind, id, comment, commentCount: row.comment_count });
        break;
      }
      case 'comment-removed': {
        const row = await findItem(pool, kind, id, guest);
        if (row) {
          realtime.send('comments:removed', { position, kind, id, commentId: c.commentId, commentCount: row.comment_count });
        }
        break;
      }
    }
  }
}
