import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { itemPath } from './itemKinds.ts';
import type { Kind } from '../../../contract/views.ts';

/**
 * Counting a view answers with the count. Its own key, outside the item's, so that refreshing the item
 * does not count again; asked once per page visit, and never again on failure (the page shows no count).
 */
export function viewCountQueryOptions(kind: Kind, id: number) {
  return queryOptions({
    queryKey: ['views', kind, id] as const,
    queryFn: async () =>
      (await api<{ viewCount: number }>(`${itemPath(kind, id)}/views`, { method: 'POST' })).viewCount,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/**
 * Counts this visitor's view of an item with the server (first-party: nothing goes to an analytics
 * service) and returns how many visitors have opened it; null until known. A visitor counts once.
 */
export function useViewCount(kind: Kind, id: number): number | null {
  return useQuery(viewCountQueryOptions(kind, id)).data ?? null;
}

export const viewsText = (n: number) => (n === 1 ? '1 view' : `${n} views`);
