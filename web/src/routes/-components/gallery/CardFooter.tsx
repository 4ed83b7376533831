import { ReactionSummary } from '../show/ReactionBar.tsx';
import { LikeButton } from '../../../components/LikeButton.tsx';
import { CommentIcon } from '../../../components/icons.tsx';
import { commentCountText } from '../../../lib/format.ts';
import type { GalleryItemView } from '../../../../../contract/views.ts';

export function CardFooter({ item }: { item: GalleryItemView }) {
  return (
    <div className="mt-auto flex items-center justify-between border-t border-amber-100 px-4 py-2.5 dark:border-stone-800">
      <span className="inline-flex items-center gap-1.5 text-sm text-stone-500 dark:text-stone-400">
        <CommentIcon className="h-4 w-4" />
        {commentCountText(item.commentCount ?? 0)}
      </span>
      <ReactionSummary totals={item.reactions} />
      <LikeButton kind={item.kind} id={item.id} count={item.likeCount ?? 0} />
    </div>
  );
}
