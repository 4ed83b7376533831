import { useState } from 'react';
import { useCardLike } from '../queries/likes.ts';
import { HeartIcon } from './icons.tsx';
import { toast } from './Toaster.tsx';
import { Tooltip } from './Tooltip.tsx';
import type { Kind } from '../../../contract/views.ts';

interface LikeButtonProps {
  kind: Kind;
  id: number;
  count: number;
}

/** The gallery card like: optimistic +1 on the cached page, rolled back when the server refuses. */
export function LikeButton({ kind, id, count }: LikeButtonProps) {
  const [liked, setLiked] = useState(false);
  const like = useCardLike(kind, id, {
    onError: () => {
      setLiked(false);
      toast({
        title: 'Error',
        description: 'Failed to process your request. Please try again.',
        variant: 'destructive',
      });
    },
  });

  // A like on a card is one-way (spec §4): once given, the button stays pressed.
  const done = liked || like.isPending;
  const label = liked ? 'Liked' : 'Like';
  return (
    <Tooltip label={label}>
      <button
        type="button"
        onClick={() => {
          if (done) return;
          setLiked(true);
          like.mutate();
        }}
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
