import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';

export type GalleryKind = 'artwork' | 'story' | 'media';

interface ItemBase {
  id: number;
  title?: string | null;
  likeCount: number;
  commentCount: number;
  createdAt?: string;
}

export interface ArtworkItem extends ItemBase {
  kind: 'artwork';
  artistName: string;
  description?: string | null;
  /** Cards load only this; `imageData` (the display size) is left out of the type on purpose. */
  thumbnailUrl?: string | null;
}

export interface StoryItem extends ItemBase {
  kind: 'story';
  content: string;
  authorName: string;
  isAnonymous: boolean;
}

export interface MediaItem extends ItemBase {
  kind: 'media';
  mediaType: 'video' | 'audio';
  artistName: string;
  description?: string | null;
  /** Comma-separated (spec §3); tolerate an array too. */
  tags?: string | string[] | null;
  thumbnailUrl?: string | null;
}

export type GalleryItem = ArtworkItem | StoryItem | MediaItem;

/** An item with the full-size URLs the server sends too; only the full-screen slideshow uses them. */
export type FullGalleryItem = GalleryItem & { imageData?: string; streamUrl?: string; mediaData?: string };

export interface GalleryPage {
  items: GalleryItem[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export interface GalleryParams {
  page: number;
  q: string;
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
    queryFn: ({ signal }) => api<GalleryPage>(`/api/gallery?${search}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

type Counters = Partial<Pick<ItemBase, 'likeCount' | 'commentCount'>>;

/** Updates one item's counters in every cached gallery page (live updates, optimistic likes). */
export function patchGalleryItem(
  queryClient: QueryClient,
  kind: GalleryKind,
  id: number,
  patch: Counters | ((item: GalleryItem) => Counters),
): void {
  queryClient.setQueriesData<GalleryPage>({ queryKey: galleryKeys.all }, (page) => {
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
