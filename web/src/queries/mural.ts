import { queryOptions } from '@tanstack/react-query';
import type { MuralSnapshot, MuralState, MuralStroke, MuralStrokeInput } from '../../../contract/mural.ts';
import { api } from '../lib/api.ts';

export type { MuralSnapshot, MuralState, MuralStroke, MuralStrokeInput } from '../../../contract/mural.ts';

export const muralKeys = { all: ['mural'] as const };

/** `GET /api/mural` (CONTRACT §8): every stroke and the log position the answer stands at. */
export function muralQueryOptions() {
  return queryOptions({
    queryKey: muralKeys.all,
    queryFn: ({ signal }) => api<MuralSnapshot>('/api/mural', { signal }),
    // the page keeps itself current from live messages; a refetch only when the live layer asks
    staleTime: Infinity,
  });
}

export const sendStroke = (stroke: MuralStrokeInput) =>
  api<Omit<MuralStroke, 'position'>>('/api/mural/strokes', { body: stroke });

export const removeStroke = (id: number) =>
  api<{ success: true; id: number }>(`/api/mural/strokes/${id}`, { method: 'DELETE' });

export const muralAction = (action: 'lock' | 'unlock' | 'freeze') =>
  api<{ state: MuralState; artworkId: number | null }>(`/api/mural/${action}`, { method: 'POST' });
