import type { InvalidateQueryFilters, QueryKey } from '@tanstack/react-query';
import { galleryKeys } from '../queries/gallery.ts';
import { itemKey } from '../queries/itemKinds.ts';
import type { LivePayloads } from '../../../contract/live.ts';

type CaptionsChanged = LivePayloads['media:captions-changed'];
type Listed = { kind?: string; id: number; captionsUrl?: string | null };

const MEDIA_KEY = itemKey('media', 0)[0];

/**
 * A cached answer with a message's new track (decisions 123, 130): the message itself, or a gallery
 * page or the show's deck that lists it. Pure; any other answer comes back as it was.
 */
export function withCaptions(key: QueryKey, data: unknown, { id, captionsUrl }: CaptionsChanged): unknown {
  if (data === undefined || data === null) return data;
  if (key.length === 2 && key[0] === MEDIA_KEY && key[1] === id) return { ...(data as object), captionsUrl };
  if (key[0] !== galleryKeys.all[0]) return data;
  const page = data as { items?: Listed[] };
  if (!page.items?.some((item) => item.kind === 'media' && item.id === id)) return data;
  return {
    ...page,
    items: page.items.map((item) => (item.kind === 'media' && item.id === id ? { ...item, captionsUrl } : item)),
  };
}

/** The words of one message's track, which its players and transcript load again after a change. */
export const trackWordsOf = (id: number): InvalidateQueryFilters => ({
  queryKey: [...itemKey('media', id), 'captions'],
  exact: true,
});

/** Every message's track words: a pending message's change reaches the admins as a queue change only. */
export const everyTrackWords: InvalidateQueryFilters = {
  predicate: (query) => query.queryKey[0] === MEDIA_KEY && query.queryKey[2] === 'captions',
};
