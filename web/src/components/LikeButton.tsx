import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { galleryKeys, patchGalleryItem, type GalleryKind } from '../queries/gallery.ts';
import { HeartIcon } from './icons.tsx';
import { toast } from './Toaster.tsx';
import { Tooltip } from './Tooltip.tsx';

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
    mutationFn: () =>
      api<{ count?: number; likeCount?: number } | null>(`${LIKE_PATHS[kind]}/${id}/likes`, { method: 'POST' }),
    onMutate: async () => {
      setLiked(true);
      await queryClient.cancelQueries({ queryKey: galleryKeys.all });
      patchGalleryItem(queryClient, kind, id, (item) => ({ likeCount: item.likeCount + 1 }));
    },
    onError: () => {
      setLiked(false);
      patchGalleryItem(queryClient, kind, id, (item) => ({ likeCount: Math.max(0, item.likeCount - 1) }));
      toast({
        title: 'Error',
        description: 'Failed to process your request. Please try again.',
        variant: 'destructive',
      });
    },
    onSuccess: (result) => {
      const serverCount = result?.count ?? result?.likeCount;
      if (typeof serverCount === 'number') patchGalleryItem(queryClient, kind, id, { likeCount: serverCount });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
    },
  });

  // A like on a card is one-way (spec §4): once given, the button stays pressed.
  const done = liked || like.isPending;
  const label = liked ? 'Liked' : 'Like';
  return (
    <Tooltip label={label}>
      <button
        type="button"
        onClick={() => !done && like.mutate()}
        aria-disabled={done || undefined}
        aria-pressed={liked}
        aria-label={`${label} (${count} ${count === 1 ? 'like' : 'likes'})`}
        className={`relative z-10 inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-semibold transition aria-disabled:cursor-default ${
          liked
            ? 'bg-rose-100 text-rose-700 dark:bg-rose-950/60 dark:text-rose-300'
            : 'text-stone-600 hover:bg-rose-50 hover:text-rose-700 dark:text-stone-400 dark:hover:bg-rose-950/40 dark:hover:text-rose-300'
        }`}
      >
        <HeartIcon className="h-5 w-5" filled={liked} />
        <span data-testid="like-count">{count}</span>
      </button>
    </Tooltip>
  );
}
