/**
 * What the API answers about items, comments and the review queue: declared once here, returned by
 * the catalog's read side (`projections/catalog/`, checked by the type system) and read by the web app,
 * so a field renamed on one side fails the build on the other (issue 28).
 */

import type { ReactionCounts } from './live.ts';

/** The three kinds of submission. */
export const KINDS = ['artwork', 'story', 'media'] as const;
export type Kind = (typeof KINDS)[number];

/** Where each kind lives under `/api` and in the web app's addresses (`/api/artworks/7`, `/artworks/7`). */
export const KIND_PATH = { artwork: 'artworks', story: 'stories', media: 'media' } as const satisfies Record<
  Kind,
  string
>;

/** What every item view has. `email` and `adminNotes` are sent to admins only. */
interface ItemBase {
  id: number;
  title: string | null;
  description: string | null;
  tags: string | null;
  artistName: string;
  status: string;
  archived: boolean;
  createdAt: string;
  approvedAt: string | null;
  archivedAt: string | null;
  likeCount: number;
  commentCount: number;
  viewCount: number;
  reactions: ReactionCounts;
  email?: string | null;
  adminNotes?: string | null;
}

export interface ArtworkView extends ItemBase {
  kind: 'artwork';
  /** 'true' for a drawing made in the studio or the frozen mural (spec §3 keeps it a string) */
  isFromCanvas: string;
  /** the display size */
  imageData: string;
  /** what the picture shows, in its sender's words (decision 122); null when not given */
  altText: string | null;
  thumbnailUrl: string;
  originalUrl: string;
}

export interface StoryView extends ItemBase {
  kind: 'story';
  content: string;
  authorName: string;
  isAnonymous: boolean;
}

export interface MediaView extends ItemBase {
  kind: 'media';
  mediaType: 'video' | 'audio';
  mimeType: string;
  /** the stored path (spec §3), served by the stream route: the player's fallback source */
  mediaData: string;
  streamUrl: string;
  thumbnailUrl: string | null;
  durationSeconds: number;
  /** the poster and transcode job has not run yet */
  processing: boolean;
  /**
   * the message's WebVTT track, null when none: a video's captions for `<track kind="captions">`
   * (decision 123), and for video and audio alike the words of its transcript (decision 130)
   */
  captionsUrl: string | null;
}

/**
 * What a screen reader reads for an artwork's picture (decision 122): its sender's description, else
 * its title, else who made it.
 */
export function pictureAlt(artwork: Pick<ArtworkView, 'altText' | 'title' | 'artistName'>, noun = 'Artwork'): string {
  return artwork.altText?.trim() || artwork.title?.trim() || `${noun} by ${artwork.artistName}`;
}

/** One item as `GET /api/{artworks,stories,media}/:id` answers it. */
export type ItemView = ArtworkView | StoryView | MediaView;

/** A card's picture: the widths the browser may choose from (`srcset`). */
export interface CardImage {
  src: string;
  srcSet: string;
  width: number;
  height: number;
}

/**
 * An item on a gallery page, with its card's picture (none for a story or audio) and its place in
 * the day's order: pages list items by `order`, then kind, then id (`dayOrder`), so a screen can put
 * a newly approved item where a reload would show it (decision 133).
 */
export type GalleryItemView<K extends Kind = Kind> = Extract<ItemView, { kind: K }> & {
  card: CardImage | null;
  order: string;
};

/** Whether `a` comes before `b` on the day's gallery pages (negative), after (positive), or is the same item. */
export function galleryOrder(
  a: Pick<GalleryItemView, 'order' | 'kind' | 'id'>,
  b: Pick<GalleryItemView, 'order' | 'kind' | 'id'>,
): number {
  if (a.order !== b.order) return a.order < b.order ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.id - b.id;
}

export interface GalleryPageView {
  /** the day whose order the page is in (YYYY-MM-DD, in the gallery's time zone) */
  day: string;
  items: GalleryItemView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** A comment, with its item under the kind's own name too (`artworkId`, `storyId`, `mediaId`, spec §3). */
export interface CommentView {
  id: number;
  kind: Kind;
  itemId: number;
  artworkId?: number;
  storyId?: number;
  mediaId?: number;
  authorName: string;
  content: string;
  createdAt: string;
}

/** How many items wait for review, per kind, and how many artworks are archived (`GET /api/admin/queue`). */
export interface QueueCounts {
  pending: { artworks: number; stories: number; media: number };
  archived: number;
}
