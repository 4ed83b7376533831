import { useState, type FormEvent } from 'react';
import { useAddComment } from '../../../queries/comments.ts';
import { serverMessageOf } from '../../../lib/api.ts';
import { toast, type ToastInput } from '../../../components/Toaster.tsx';
import { TextField } from '../submit/TextField.tsx';
import type { Kind } from '../../../../../contract/views.ts';

// Spec §5 and §8: the artwork page and the story and media pages word their comment errors differently.
const MISSING: Record<Kind, ToastInput> = {
  artwork: { title: 'Error', description: 'Please provide both your name and a comment.' },
  story: { title: 'Missing information', description: 'Please provide both your name and a comment' },
  media: { title: 'Missing information', description: 'Please provide both your name and a comment' },
};
const FAILED: Record<Kind, string> = {
  artwork: 'Failed to submit comment',
  story: 'Failed to add comment',
  media: 'Failed to add comment',
};

export function CommentForm({ kind, id }: { kind: Kind; id: number }) {
  const [authorName, setAuthorName] = useState('');
  const [content, setContent] = useState('');

  const add = useAddComment(kind, id, {
    onSuccess: () => {
      setAuthorName('');
      setContent('');
      toast({ title: 'Success!', description: 'Your comment has been added.' });
    },
    onError: (error) => {
      toast({
        title: FAILED[kind],
        description: serverMessageOf(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const comment = { authorName: authorName.trim(), content: content.trim() };
    if (!comment.authorName || !comment.content) return toast({ ...MISSING[kind], variant: 'destructive' });
    add.mutate(comment);
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Add a comment"
      className="mt-8 space-y-4 border-t border-amber-100 pt-6 dark:border-stone-800"
    >
      <h3 className="font-display text-xl font-semibold text-stone-900 dark:text-amber-50">Leave a comment</h3>
      <TextField label="Name" value={authorName} onChange={setAuthorName} autoComplete="name" />
      <TextField
        label="Comment"
        value={content}
        onChange={setContent}
        multiline
        rows={3}
        placeholder="Share a kind word or a memory"
      />
      <button type="submit" disabled={add.isPending} className="btn-primary">
        {add.isPending ? 'Posting...' : 'Post Comment'}
      </button>
    </form>
  );
}
