import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { galleryKeys, patchGalleryItem } from './gallery.ts';
import type { MutationHandlers } from './handlers.ts';
import { itemKey, itemPath } from './itemKinds.ts';
import type { Kind } from '../../../contract/views.ts';

/** A visitor's like state on a detail page (spec §3 "Like state per item"). */
export interface LikeState {
  liked: boolean;
  count: number;
}

interface LikeAnswer {
  count?: number;
  likeCount?: number;
  liked?: boolean;
  hasLiked?: boolean;
}

export const likeKey = (kind: Kind, id: number) => [...itemKey(kind, id), 'likes'] as const;

export function likeQueryOptions(kind: Kind, id: number) {
  return queryOptions({
    queryKey: likeKey(kind, id),
    queryFn: ({ signal }) => loadLikes(kind, id, signal),
  });
}

// Spec §7: media answers in one call; artworks and stories ask "has liked" and "how many" separately,
// where a failed or non-JSON count reads as 0.
async function loadLikes(kind: Kind, id: number, signal: AbortSignal): Promise<LikeState> {
  const base = itemPath(kind, id);
  if (kind === 'media') {
    const answer = await api<LikeAnswer | null>(`${base}/likes`, { signal });
    return { liked: Boolean(answer?.hasLiked ?? answer?.liked), count: answer?.likeCount ?? answer?.count ?? 0 };
  }
  const [check, count] = await Promise.all([
    api<LikeAnswer | null>(`${base}/likes/check`, { signal }).catch(() => null),
    api<LikeAnswer | null>(`${base}/likes/count`, { signal }).catch(() => null),
  ]);
  return { liked: Boolean(check?.hasLiked), count: typeof count?.count === 'number' ? count.count : 0 };
}

/**
 * Likes or unlikes, each kind through its own call (spec §7): artworks POST or DELETE `likes`,
 * stories and media toggle through POST `like`.
 */
export async function toggleLike(kind: Kind, id: number, current: LikeState): Promise<LikeState> {
  const base = itemPath(kind, id);
  const answer =
    kind === 'artwork'
      ? await api<LikeAnswer | null>(`${base}/likes`, { method: current.liked ? 'DELETE' : 'POST' })
      : await api<LikeAnswer | null>(`${base}/like`, { method: 'POST' });
  const liked = answer?.liked ?? answer?.hasLiked ?? !current.liked;
  const count = answer?.likeCount ?? answer?.count ?? Math.max(0, current.count + (liked ? 1 : -1));
  return { liked, count };
}

/** The detail page's like toggle: the answer replaces the like state and the card's count. */
export function useToggleLike(kind: Kind, id: number, { onError }: MutationHandlers<LikeState, LikeState>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (current: LikeState) => toggleLike(kind, id, current),
    onSuccess: (next) => {
      queryClient.setQueryData(likeKey(kind, id), next);
      patchGalleryItem(queryClient, kind, id, { likeCount: next.count });
    },
    onError,
  });
}

/**
 * The gallery card's like, one-way (spec §4): +1 on the cached page at once, taken back when the
 * server refuses; the server's count wins when it answers.
 */
export function useCardLike(kind: Kind, id: number, { onError }: MutationHandlers<LikeAnswer | null>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<LikeAnswer | null>(`${itemPath(kind, id)}/likes`, { method: 'POST' }),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: galleryKeys.all });
      patchGalleryItem(queryClient, kind, id, (item) => ({ likeCount: item.likeCount + 1 }));
    },
    onError: (error, variables) => {
      patchGalleryItem(queryClient, kind, id, (item) => ({ likeCount: Math.max(0, item.likeCount - 1) }));
      onError?.(error, variables);
    },
    onSuccess: (answer) => {
      const serverCount = answer?.count ?? answer?.likeCount;
      if (typeof serverCount === 'number') patchGalleryItem(queryClient, kind, id, { likeCount: serverCount });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
    },
  });
}

/** '1 like' or 'N likes' (spec §4 Likes). */
export function likeCountText(count: number): string {
  return count === 1 ? '1 like' : `${count} likes`;
}
