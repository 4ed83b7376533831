import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import type { CommentView as Comment } from '../../../contract/views.ts';
import { galleryKeys } from './gallery.ts';
import type { MutationHandlers } from './handlers.ts';
import { itemKey, itemPath } from './itemKinds.ts';
import type { Kind } from '../../../contract/views.ts';

export interface NewComment {
  authorName: string;
  content: string;
}

export const commentsKey = (kind: Kind, id: number) => [...itemKey(kind, id), 'comments'] as const;

export function commentsQueryOptions(kind: Kind, id: number) {
  return queryOptions({
    queryKey: commentsKey(kind, id),
    // A non-JSON answer reads as no comments (spec §7).
    queryFn: async ({ signal }) => {
      const comments = await api<Comment[] | null>(`${itemPath(kind, id)}/comments`, { signal });
      return Array.isArray(comments) ? comments : [];
    },
  });
}

export function postComment(kind: Kind, id: number, comment: NewComment): Promise<Comment> {
  return api<Comment>(`${itemPath(kind, id)}/comments`, { method: 'POST', body: comment });
}

/** Adds a comment; the item's comments and the gallery's counts are read again. */
export function useAddComment(kind: Kind, id: number, handlers: MutationHandlers<Comment, NewComment>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: NewComment) => postComment(kind, id, comment),
    onSuccess: (comment, variables) => {
      handlers.onSuccess?.(comment, variables);
      void queryClient.invalidateQueries({ queryKey: commentsKey(kind, id) });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
    },
    onError: handlers.onError,
  });
}
