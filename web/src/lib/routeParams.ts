/** `$id` path params as numbers. */
export const idParams = {
  parse: (params: { id: string }) => ({ id: Number(params.id) }),
  stringify: (params: { id: number }) => ({ id: String(params.id) }),
};

export interface GallerySearch {
  page?: number;
  q?: string;
}

/** `?page=N&q=TEXT` on the gallery; detail pages keep `page` for their Back to Gallery link. */
export function gallerySearch(search: Record<string, unknown>): GallerySearch {
  const page = Number(search.page);
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  return {
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    q: q || undefined,
  };
}
