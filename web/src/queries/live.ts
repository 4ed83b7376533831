import type { QueryClient } from '@tanstack/react-query';
import type { LiveMessage } from '../lib/liveSequence.ts';
import { adminKeys, type AdminQueue } from './admin.ts';
import { commentsKey, type Comment } from './comments.ts';
import { galleryKeys, patchGalleryItem, type GalleryKind } from './gallery.ts';
import { itemKey } from './itemKinds.ts';
import { likeKey, type LikeState } from './likes.ts';

/**
 * Brings the query cache in step with one live message, through the same keys the loaders use:
 * counters are patched in place, lists whose order is the server's (the gallery's day order, the
 * admin queues) are refetched.
 */
export function applyToCache(queryClient: QueryClient, message: LiveMessage): void {
  switch (message.event) {
    case 'gallery:item-added':
    case 'gallery:item-removed': {
      const { kind } = message.payload;
      const id = message.event === 'gallery:item-added' ? message.payload.item.id : message.payload.id;
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      // An open detail page loads again: a removed item then 404s into its error view.
      void queryClient.invalidateQueries({ queryKey: itemKey(kind, id), exact: true });
      return;
    }
    case 'likes:changed': {
      const { kind, id, likeCount } = message.payload;
      patchGalleryItem(queryClient, kind, id, { likeCount });
      queryClient.setQueryData<LikeState>(likeKey(kind, id), (likes) => likes && { ...likes, count: likeCount });
      patchItem(queryClient, kind, id, { likeCount });
      return;
    }
    case 'comments:added': {
      const { kind, id, comment, commentCount } = message.payload;
      patchComments(queryClient, kind, id, commentCount, (list) =>
        list.some((c) => c.id === comment.id) ? list : [...list, comment],
      );
      return;
    }
    case 'comments:removed': {
      const { kind, id, commentId, commentCount } = message.payload;
      patchComments(queryClient, kind, id, commentCount, (list) => list.filter((c) => c.id !== commentId));
      return;
    }
    case 'admin:queue-changed': {
      const { pending, archived } = message.payload;
      queryClient.setQueryData<AdminQueue>(adminKeys.queue, { pending, archived });
      void queryClient.invalidateQueries({
        queryKey: adminKeys.all,
        predicate: (query) => query.queryKey[1] !== adminKeys.queue[1],
      });
      return;
    }
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

function patchComments(
  queryClient: QueryClient,
  kind: GalleryKind,
  id: number,
  commentCount: number,
  change: (list: Comment[]) => Comment[],
): void {
  patchGalleryItem(queryClient, kind, id, { commentCount });
  queryClient.setQueryData<Comment[]>(commentsKey(kind, id), (list) => list && change(list));
  patchItem(queryClient, kind, id, { commentCount });
}

/** The detail page's own item, when it is cached. */
function patchItem(
  queryClient: QueryClient,
  kind: GalleryKind,
  id: number,
  counters: { likeCount?: number; commentCount?: number },
) {
  queryClient.setQueryData<{ likeCount?: number; commentCount?: number }>(
    itemKey(kind, id),
    (item) => item && { ...item, ...counters },
  );
}
