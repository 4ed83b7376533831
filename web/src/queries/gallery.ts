import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiAt } from '../lib/api.ts';
import type { GalleryItemView, GalleryPageView, Kind } from '../../../contract/views.ts';

export interface GalleryParams {
  page: number;
  q: string;
}

/**
 * A gallery page as the cache keeps it: the answer, and the catalog position it was read at
 * (`X-Log-Position`; null when the answer named none). A live message at or before that position is
 * already in the page, and is not placed in it again (decision 140).
 */
export type CachedGalleryPage = GalleryPageView & { position?: number | null };

/** A gallery page from the API, with the position it was read at. */
export async function fetchGalleryPage(search: string, signal?: AbortSignal): Promise<CachedGalleryPage> {
  const { data, position } = await apiAt<GalleryPageView>(`/api/gallery?${search}`, { signal });
  return { ...data, position };
}

export const galleryKeys = {
  all: ['gallery'] as const,
  page: (params: GalleryParams) => ['gallery', params] as const,
};

export function galleryQueryOptions(params: GalleryParams) {
  const search = new URLSearchParams({ page: String(params.page) });
  if (params.q) search.set('q', params.q);
  return queryOptions({
    queryKey: galleryKeys.page(params),
    queryFn: ({ signal }) => fetchGalleryPage(String(search), signal),
    placeholderData: keepPreviousData,
  });
}

type Counters = Partial<Pick<GalleryItemView, 'likeCount' | 'commentCount'>>;

/** Updates one item's counters in every cached gallery page (live updates, optimistic likes). */
export function patchGalleryItem(
  queryClient: QueryClient,
  kind: Kind,
  id: number,
  patch: Counters | ((item: GalleryItemView) => Counters),
): void {
  queryClient.setQueriesData<GalleryPageView>({ queryKey: galleryKeys.all }, (page) => {
    if (!page?.items.some((item) => item.kind === kind && item.id === id)) return page;
    return {
      ...page,
      items: page.items.map((item) =>
        item.kind === kind && item.id === id
          ? { ...item, ...(typeof patch === 'function' ? patch(item) : patch) }
          : item,
      ),
    };
  });
}
