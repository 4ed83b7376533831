import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { galleryKeys } from './gallery.ts';
import type { MutationHandlers } from './handlers.ts';
import { itemKey } from './itemKinds.ts';
import { adminKeys } from './adminKeys.ts';
import type {
  ArtworkView as Artwork,
  Kind,
  MediaView as Media,
  QueueCounts,
  StoryView as Story,
} from '../../../contract/views.ts';

export type ReviewDecision = 'approved' | 'rejected';

// Admin-panel queries raise '{status}: {statusText}' (spec §8).
const adminGet = <T>(path: string, signal: AbortSignal) => api<T>(path, { signal, errorStyle: 'status' });

export function adminQueueQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.queue,
    queryFn: ({ signal }) => adminGet<QueueCounts>('/api/admin/queue', signal),
  });
}

/** How many items wait for review, all kinds together; undefined until the queue is read. */
export function useWaitingForReview(): number | undefined {
  const { data } = useQuery(adminQueueQueryOptions());
  return data && data.pending.artworks + data.pending.stories + data.pending.media;
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

export function pendingStoriesQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.pendingStories,
    queryFn: ({ signal }) => adminGet<Story[]>('/api/admin/stories/pending', signal),
  });
}

export function pendingMediaQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.pendingMedia,
    queryFn: ({ signal }) => adminGet<Media[]>('/api/admin/media/pending', signal),
  });
}

export function reviewArtwork(id: number, status: ReviewDecision, adminNotes: string): Promise<Artwork> {
  return api<Artwork>(`/api/admin/artworks/${id}`, { method: 'PATCH', body: { status, adminNotes } });
}

export function restoreArtwork(id: number): Promise<unknown> {
  return api(`/api/admin/artworks/${id}/unarchive`, { method: 'POST' });
}

export function reviewStory(id: number, status: ReviewDecision, adminNotes: string): Promise<Story> {
  return api<Story>(`/api/admin/stories/${id}`, { method: 'PATCH', body: { status, adminNotes } });
}

/** Media status changes use their own call (spec §4). */
export function reviewMedia(id: number, status: ReviewDecision, adminNotes: string): Promise<Media> {
  return api<Media>(`/api/media/${id}/status`, { method: 'PUT', body: { status, adminNotes } });
}

const REVIEWS = { artwork: reviewArtwork, story: reviewStory, media: reviewMedia } satisfies Record<Kind, unknown>;

/** Approves or rejects any kind of item, each through its own call. */
export function reviewItem(kind: Kind, id: number, status: ReviewDecision, adminNotes: string): Promise<unknown> {
  return REVIEWS[kind](id, status, adminNotes);
}

/** Approves or rejects with the notes; the queues, the gallery and the item are read again. */
export function useReview(kind: Kind, id: number, handlers: MutationHandlers<unknown, ReviewDecision>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { status: ReviewDecision; notes: string }) =>
      reviewItem(kind, id, decision.status, decision.notes),
    onSuccess: (result, decision) => {
      handlers.onSuccess?.(result, decision.status);
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: itemKey(kind, id) });
    },
    onError: (error, decision) => handlers.onError?.(error, decision.status),
  });
}

/** Brings an archived artwork back; the queues and the gallery are read again. */
export function useRestoreArtwork(id: number, handlers: MutationHandlers) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => restoreArtwork(id),
    onSuccess: () => {
      handlers.onSuccess?.(undefined, undefined);
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
    },
    onError: handlers.onError,
  });
}
