import { artworkStream } from '#events/artworks/artwork.ts';
import { mediaStream } from '#events/media/media.ts';
import { storyStream } from '#events/stories/story.ts';
import type { Kind } from '#projections/catalog/items.ts';

/** The three kinds of submission, as URLs and messages name them. */
export const KINDS: Record<
  Kind,
  { path: string; label: string; stream: (id: number) => string; blobPrefix: (id: number) => string }
> = {
  artwork: { path: 'artworks', label: 'Artwork', stream: artworkStream, blobPrefix: (id) => `artworks/${id}/` },
  story: { path: 'stories', label: 'Story', stream: storyStream, blobPrefix: (id) => `stories/${id}/` },
  media: { path: 'media', label: 'Media', stream: mediaStream, blobPrefix: (id) => `media/${id}/` },
};
export const KIND_NAMES = Object.keys(KINDS) as Kind[];
