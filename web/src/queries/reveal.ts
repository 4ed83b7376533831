import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { galleryKeys } from './gallery.ts';
import type { GalleryPageView } from '../../../contract/views.ts';

/**
 * The whole gallery as one page: every approved item in the day's order, and the total.
 * Under the gallery's key, so a live arrival or removal refetches it and a like or comment patches it,
 * exactly as it does the gallery's own pages.
 */
export function revealQueryOptions() {
  return queryOptions({
    queryKey: [...galleryKeys.all, 'reveal'] as const,
    queryFn: async ({ signal }): Promise<GalleryPageView> => {
      const first = await api<GalleryPageView>('/api/gallery?page=1', { signal });
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, first.pageCount - 1) }, (_, index) =>
          api<GalleryPageView>(`/api/gallery?page=${index + 2}`, { signal }),
        ),
      );
      // An item added between two page requests can shift the pages; keep each item once.
      const seen = new Set<string>();
      const items = [first, ...rest]
        .flatMap((page) => page.items)
        .filter((item) => {
          const key = `${item.kind}:${item.id}`;
          return !seen.has(key) && Boolean(seen.add(key));
        });
      return { ...first, items, total: items.length, page: 1, pageSize: items.length, pageCount: 1 };
    },
  });
}
