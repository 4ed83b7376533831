import type { StrokeRecording } from '../../../contract/strokes.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api } from '../lib/api.ts';
import type { ArtworkView as Artwork } from '../../../contract/views.ts';
import { galleryKeys } from './gallery.ts';
import { itemKey } from './itemKinds.ts';

export interface NewArtwork {
  title: string;
  description: string;
  /** what the picture shows, for screen readers (decision 122); blank for none */
  altText: string;
  imageData: string;
  artistName: string;
  email: string;
  isFromCanvas: 'true' | 'false';
  /** a drawing's strokes, for replay (contract/strokes.ts) */
  strokes?: StrokeRecording;
}

export const artworkKeys = {
  all: ['artworks'] as const,
  detail: (id: number) => itemKey('artwork', id),
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

interface SubmitArtworkHandlers {
  /** The form's own success toast; it shows before the gallery opens. */
  onSuccess: () => void;
  onError: (error: Error) => void;
}

/**
 * Sends an artwork from the upload form or the drawing studio; on success the lists are refreshed and
 * the visitor goes to /gallery (spec §7). The toasts stay with each form, because their texts differ.
 */
export function useSubmitArtwork({ onSuccess, onError }: SubmitArtworkHandlers) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (artwork: NewArtwork) => submitArtwork(artwork),
    onSuccess: async () => {
      onSuccess();
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: artworkKeys.all });
      await navigate({ to: '/gallery' });
    },
    onError,
  });
}
