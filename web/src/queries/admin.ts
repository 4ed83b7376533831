import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import type { Artwork } from './artworks.ts';

export interface AdminQueue {
  pending: { artworks: number; stories: number; media: number };
  archived: number;
}

export type ReviewDecision = 'approved' | 'rejected';

export const adminKeys = {
  all: ['admin'] as const,
  queue: ['admin', 'queue'] as const,
  pendingArtworks: ['admin', 'artworks', 'pending'] as const,
  archivedArtworks: ['admin', 'artworks', 'archived'] as const,
};

// Admin-panel queries raise '{status}: {statusText}' (spec §8).
const adminGet = <T>(path: string, signal: AbortSignal) => api<T>(path, { signal, errorStyle: 'status' });

export function adminQueueQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.queue,
    queryFn: ({ signal }) => adminGet<AdminQueue>('/api/admin/queue', signal),
  });
}

export function pendingArtworksQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.pendingArtworks,
    queryFn: ({ signal }) => adminGet<Artwork[]>('/api/admin/artworks/pending', signal),
  });
}

export function archivedArtworksQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.archivedArtworks,
    queryFn: ({ signal }) => adminGet<Artwork[]>('/api/admin/artworks/archived', signal),
  });
}

export function reviewArtwork(id: number, status: ReviewDecision, adminNotes: string): Promise<Artwork> {
  return api<Artwork>(`/api/admin/artworks/${id}`, { method: 'PATCH', body: { status, adminNotes } });
}

export function restoreArtwork(id: number): Promise<unknown> {
  return api(`/api/admin/artworks/${id}/unarchive`, { method: 'POST' });
}
