import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { adminKeys } from './adminKeys.ts';
import { commentsKey } from './comments.ts';
import { galleryKeys } from './gallery.ts';
import type { MutationHandlers } from './handlers.ts';
import { ITEM_KINDS, itemKey, itemPath } from './itemKinds.ts';
import type { Kind } from '../../../contract/views.ts';

// Detail-page deletes carry the typed admin key (spec §6); the server decides whether it is right.

interface DeleteAnswer {
  success?: boolean;
  message?: string;
}

export function deleteItem(kind: Kind, id: number, adminKey: string): Promise<DeleteAnswer | null> {
  return api<DeleteAnswer | null>(itemPath(kind, id), { method: 'DELETE', headers: bearer(adminKey) });
}

/** Artwork comments take the key in an admin-key header; story and media comments in Authorization. */
export function deleteComment(kind: Kind, commentId: number, adminKey: string): Promise<DeleteAnswer | null> {
  if (kind === 'artwork') {
    return api<DeleteAnswer | null>(`/api/comments/${commentId}`, {
      method: 'DELETE',
      headers: { 'admin-key': adminKey },
    });
  }
  return api<DeleteAnswer | null>(`${ITEM_KINDS[kind].api}/comments/${commentId}`, {
    method: 'DELETE',
    headers: bearer(adminKey),
  });
}

/** Deletes the item with the typed key; its cached detail goes, the lists are read again. */
export function useDeleteItem(kind: Kind, id: number, handlers: MutationHandlers<DeleteAnswer | null, string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (adminKey: string) => deleteItem(kind, id, adminKey),
    onSuccess: (answer, adminKey) => {
      queryClient.removeQueries({ queryKey: itemKey(kind, id) });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      return handlers.onSuccess?.(answer, adminKey);
    },
    onError: handlers.onError,
  });
}

interface CommentDeletion {
  commentId: number;
  adminKey: string;
}

/** Deletes one of the item's comments with the typed key; its comments and the counts are read again. */
export function useDeleteComment(
  kind: Kind,
  id: number,
  handlers: MutationHandlers<DeleteAnswer | null, CommentDeletion>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, adminKey }: CommentDeletion) => deleteComment(kind, commentId, adminKey),
    onSuccess: (answer, deletion) => {
      handlers.onSuccess?.(answer, deletion);
      void queryClient.invalidateQueries({ queryKey: commentsKey(kind, id) });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
    },
    onError: handlers.onError,
  });
}

function bearer(adminKey: string): Record<string, string> {
  return { Authorization: `Bearer ${adminKey}` };
}
