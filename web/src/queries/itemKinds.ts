import type { Kind } from '../../../contract/views.ts';

/** Where each kind of item lives in the API and in the query cache (one map for the whole web app). */
export const ITEM_KINDS = {
  artwork: { api: '/api/artworks', key: 'artworks', noun: 'artwork', Noun: 'Artwork' },
  story: { api: '/api/stories', key: 'stories', noun: 'story', Noun: 'Story' },
  media: { api: '/api/media', key: 'media', noun: 'media', Noun: 'Media' },
} as const satisfies Record<Kind, { api: string; key: string; noun: string; Noun: string }>;

/** One item's key, e.g. ['artworks', 7]; its comments and likes sit beneath it, so invalidating it refreshes them too. */
export function itemKey(kind: Kind, id: number) {
  return [ITEM_KINDS[kind].key, id] as const;
}

export function itemPath(kind: Kind, id: number): string {
  return `${ITEM_KINDS[kind].api}/${id}`;
}
