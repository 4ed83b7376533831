import { useQuery } from '@tanstack/react-query';
import { commentsQueryOptions } from '../../../queries/comments.ts';
import { useDeleteComment } from '../../../queries/adminKey.ts';
import { formatDate } from '../../../lib/format.ts';
import { CommentIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { toast } from '../../../components/Toaster.tsx';
import { CommentForm } from './CommentForm.tsx';
import { deletionFailed } from './deletionFailed.ts';
import type { CommentView as Comment, Kind } from '../../../../../contract/views.ts';

interface CommentsProps {
  kind: Kind;
  id: number;
  /** Set once the admin controls are unlocked: comments then get a delete button. */
  adminKey: string | null;
  onInvalidKey: () => void;
}

export function Comments({ kind, id, adminKey, onInvalidKey }: CommentsProps) {
  const comments = useQuery(commentsQueryOptions(kind, id));

  const remove = useDeleteComment(kind, id, {
    onSuccess: (answer) => toast({ title: answer?.message ?? 'Comment deleted successfully' }),
    onError: (error) => deletionFailed(error, 'comment', onInvalidKey),
  });

  function deleteSelected(comment: Comment | undefined) {
    if (!comment) return toast({ title: 'No comment selected', variant: 'destructive' });
    if (adminKey) remove.mutate({ commentId: comment.id, adminKey });
  }

  const list = comments.data ?? [];
  return (
    <section aria-labelledby="comments-heading" className="card p-6 sm:p-8">
      <h2
        id="comments-heading"
        className="flex items-center gap-2 font-display text-2xl font-semibold text-stone-900 dark:text-amber-50"
      >
        <CommentIcon className="h-6 w-6 text-amber-500" />
        Comments{comments.isSuccess && ` (${list.length})`}
      </h2>

      {comments.isPending ? (
        <div className="flex justify-center py-8 text-amber-600" role="status" aria-label="Loading comments">
          <Spinner className="h-6 w-6" />
        </div>
      ) : list.length === 0 ? (
        <p className="mt-4 text-stone-500 dark:text-stone-400">No comments yet. Be the first to leave one!</p>
      ) : (
        <ul className="mt-5 space-y-4">
          {list.map((comment) => (
            <li key={comment.id} className="rounded-xl bg-amber-50/80 p-4 dark:bg-stone-800/60">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                <p className="font-semibold text-stone-800 dark:text-amber-100">{comment.authorName}</p>
                <p className="text-xs text-stone-500 dark:text-stone-400">{formatDate(comment.createdAt)}</p>
              </div>
              <p className="mt-1.5 break-words whitespace-pre-line text-stone-700 dark:text-stone-300">
                {comment.content}
              </p>
              {adminKey && (
                <button
                  type="button"
                  disabled={remove.isPending}
                  onClick={() => deleteSelected(comment)}
                  aria-label={`Delete comment by ${comment.authorName}`}
                  className="mt-2 text-sm font-semibold text-rose-600 hover:underline disabled:opacity-50 dark:text-rose-400"
                >
                  Delete comment
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      <CommentForm kind={kind} id={id} />
    </section>
  );
}
