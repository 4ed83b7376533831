import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';

/** The honoree's name and dates; only available after login (CONTRACT §2). */
export interface Tribute {
  name: string;
  welcomeCutoff: string;
  celebrationStart: string;
  celebrationEnd: string;
}

export function tributeQueryOptions() {
  return queryOptions({
    queryKey: ['tribute'] as const,
    queryFn: ({ signal }) => api<Tribute>('/api/tribute', { signal }),
    staleTime: Infinity,
  });
}
