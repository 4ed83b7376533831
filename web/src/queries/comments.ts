import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import type { GalleryKind } from './gallery.ts';
import { itemKey, itemPath } from './itemKinds.ts';

export interface Comment {
  id: number;
  authorName: string;
  content: string;
  createdAt: string;
}

export interface NewComment {
  authorName: string;
  content: string;
}

export const commentsKey = (kind: GalleryKind, id: number) => [...itemKey(kind, id), 'comments'] as const;

export function commentsQueryOptions(kind: GalleryKind, id: number) {
  return queryOptions({
    queryKey: commentsKey(kind, id),
    // A non-JSON answer reads as no comments (spec §7).
    queryFn: async ({ signal }) => {
      const comments = await api<Comment[] | null>(`${itemPath(kind, id)}/comments`, { signal });
      return Array.isArray(comments) ? comments : [];
    },
  });
}

export function postComment(kind: GalleryKind, id: number, comment: NewComment): Promise<Comment> {
  return api<Comment>(`${itemPath(kind, id)}/comments`, { method: 'POST', body: comment });
}
