import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';

export interface Artwork {
  kind?: 'artwork';
  id: number;
  title: string | null;
  description: string | null;
  tags?: string | null;
  artistName: string;
  isFromCanvas?: string;
  status: 'pending' | 'approved' | 'rejected' | string;
  createdAt: string;
  approvedAt?: string | null;
  archived?: boolean;
  archivedAt?: string | null;
  imageData: string;
  thumbnailUrl?: string | null;
  likeCount?: number;
  commentCount?: number;
  /** Admins only. */
  email?: string;
  adminNotes?: string | null;
}

export interface NewArtwork {
  title: string;
  description: string;
  imageData: string;
  artistName: string;
  email: string;
  isFromCanvas: 'true' | 'false';
}

export const artworkKeys = {
  all: ['artworks'] as const,
  detail: (id: number) => ['artworks', id] as const,
};

export function artworkQueryOptions(id: number) {
  return queryOptions({
    queryKey: artworkKeys.detail(id),
    queryFn: ({ signal }) => api<Artwork>(`/api/artworks/${id}`, { signal }),
  });
}

export function submitArtwork(artwork: NewArtwork): Promise<Artwork> {
  return api<Artwork>('/api/artworks', { method: 'POST', body: artwork });
}
