import { api } from '../lib/api.ts';
import type { GalleryKind } from './gallery.ts';
import { ITEM_KINDS, itemPath } from './itemKinds.ts';

// Detail-page deletes carry the typed admin key (spec §6); the server decides whether it is right.

interface DeleteAnswer {
  success?: boolean;
  message?: string;
}

export function deleteItem(kind: GalleryKind, id: number, adminKey: string): Promise<DeleteAnswer | null> {
  return api<DeleteAnswer | null>(itemPath(kind, id), { method: 'DELETE', headers: bearer(adminKey) });
}

/** Artwork comments take the key in an admin-key header; story and media comments in Authorization. */
export function deleteComment(kind: GalleryKind, commentId: number, adminKey: string): Promise<DeleteAnswer | null> {
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

function bearer(adminKey: string): Record<string, string> {
  return { Authorization: `Bearer ${adminKey}` };
}
