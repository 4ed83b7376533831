import { queryOptions } from '@tanstack/react-query';
import { fetchGalleryPage, galleryKeys, type CachedGalleryPage } from './gallery.ts';

/**
 * The whole gallery as one page: every approved item in the day's order, and the total.
 * Under the gallery's key, so a live arrival or removal is placed in it and a like or comment patches
 * it, exactly as it does the gallery's own pages. Its position is its earliest page's: a message after
 * that is placed, and one already in a later page is found there and changes nothing.
 */
export function revealQueryOptions() {
  return queryOptions({
    queryKey: [...galleryKeys.all, 'reveal'] as const,
    queryFn: async ({ signal }): Promise<CachedGalleryPage> => {
      const first = await fetchGalleryPage('page=1', signal);
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, first.pageCount - 1) }, (_, index) =>
          fetchGalleryPage(`page=${index + 2}`, signal),
        ),
      );
      // An item added between two page requests can shift the pages; keep each item once.
      const seen = new Set<string>();
      const pages = [first, ...rest];
      const items = pages
        .flatMap((page) => page.items)
        .filter((item) => {
          const key = `${item.kind}:${item.id}`;
          return !seen.has(key) && Boolean(seen.add(key));
        });
      const positions = pages.map((page) => page.position);
      const position = positions.every((at): at is number => typeof at === 'number') ? Math.min(...positions) : null;
      return { ...first, items, total: items.length, page: 1, pageSize: items.length, pageCount: 1, position };
    },
  });
}
