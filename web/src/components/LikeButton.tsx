import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { galleryKeys, patchGalleryItem, type GalleryKind } from '../queries/gallery.ts';
import { HeartIcon } from './icons.tsx';

const LIKE_PATHS: Record<GalleryKind, string> = {
  artwork: '/api/artworks',
  story: '/api/stories',
  media: '/api/media',
};

interface LikeButtonProps {
  kind: GalleryKind;
  id: number;
  count: number;
}

/** The gallery card like: optimistic +1 on the cached page, rolled back when the server refuses. */
export function LikeButton({ kind, id, count }: LikeButtonProps) {
  const queryClient = useQueryClient();
  const [liked, setLiked] = useState(false);

  const like = useMutation({
    mutationFn: () => api<{ count?: number; likeCount?: number } | null>(`${LIKE_PATHS[kind]}/${id}/likes`, { method: 'POST' }),
    onMutate: async () => {
      setLiked(true);
      await queryClient.cancelQueries({ queryKey: galleryKeys.all });
      patchGalleryItem(queryClient, kind, id, (item) => ({ likeCount: item.likeCount + 1 }));
    },
    onError: () => {
      setLiked(false);
      patchGalleryItem(queryClient, kind, id, (item) => ({ likeCount: Math.max(0, item.likeCount - 1) }));
    },
    onSuccess: (result) => {
      const serverCount = result?.count ?? result?.likeCount;
      if (typeof serverCount === 'number') patchGalleryItem(queryClient, kind, id, { likeCount: serverCount });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: galleryKeys.all }),
  });

  return (
    <button
      type="button"
      onClick={() => like.mutate()}
      disabled={liked || like.isPending}
      aria-pressed={liked}
      aria-label={`Like (${count})`}
      className={`relative z-10 inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-semibold transition disabled:cursor-default ${
        liked
          ? 'bg-rose-100 text-rose-600 dark:bg-rose-950/60 dark:text-rose-300'
          : 'text-stone-500 hover:bg-rose-50 hover:text-rose-600 dark:text-stone-400 dark:hover:bg-rose-950/40 dark:hover:text-rose-300'
      }`}
    >
      <HeartIcon className="h-5 w-5" filled={liked} />
      <span>{count}</span>
    </button>
  );
}
