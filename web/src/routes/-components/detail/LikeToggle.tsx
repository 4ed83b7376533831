import { useQuery } from '@tanstack/react-query';
import { likeCountText, likeQueryOptions, useToggleLike, type LikeState } from '../../../queries/likes.ts';
import { HeartIcon } from '../../../components/icons.tsx';
import { toast } from '../../../components/Toaster.tsx';
import type { Kind } from '../../../../../contract/views.ts';

/** The detail-page like: toggles between Like and Liked, with '1 like' / 'N likes' beside it (spec §4). */
export function LikeToggle({ kind, id }: { kind: Kind; id: number }) {
  const likes = useQuery(likeQueryOptions(kind, id));
  const state: LikeState = likes.data ?? { liked: false, count: 0 };

  const toggle = useToggleLike(kind, id, {
    onError: () => {
      toast({ title: 'Error', description: 'Failed to update like. Please try again.', variant: 'destructive' });
    },
  });

  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        onClick={() => toggle.mutate(state)}
        disabled={likes.isPending || toggle.isPending}
        aria-pressed={state.liked}
        className={`inline-flex items-center gap-2 rounded-full border px-5 py-2 font-semibold transition disabled:cursor-wait disabled:opacity-70 ${
          state.liked
            ? 'border-rose-300 bg-rose-100 text-rose-700 hover:bg-rose-200 dark:border-rose-800 dark:bg-rose-950/60 dark:text-rose-200 dark:hover:bg-rose-900/60'
            : 'border-amber-300 bg-white text-stone-700 hover:border-rose-300 hover:bg-rose-50 hover:text-rose-700 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200 dark:hover:bg-stone-800'
        }`}
      >
        <HeartIcon className="h-5 w-5" filled={state.liked} />
        {state.liked ? 'Liked' : 'Like'}
      </button>
      <span className="text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
        {likes.isPending ? '' : likeCountText(state.count)}
      </span>
    </div>
  );
}
