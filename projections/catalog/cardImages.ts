import { createHash } from 'node:crypto';
import type { CardImage } from '#contract/views.ts';
import type { CatalogRow } from './items.ts';

/**
 * The image a gallery card shows, in the widths the card needs, at versioned URLs: the version is a
 * hash of the source rendition's stored identity (key, size and dimensions), so a URL never serves
 * other bytes and can be cached as immutable. See docs/decisions/026-card-images.md.
 */
export const CARD_WIDTHS = [320, 480, 640] as const;
export type CardWidth = (typeof CARD_WIDTHS)[number];

/** Card shapes, as in the web cards: artworks 4:3, video posters 16:9. */
export const CARD_ASPECT = { artwork: 3 / 4, media: 9 / 16 } as const;
export type CardKind = keyof typeof CARD_ASPECT;

/** What the browser needs for `<img src srcset sizes width height>` (contract/views.ts). */
export type { CardImage };

export interface CardSource {
  key: string;
  contentType: string;
}

/** The stored file a card image is made from: the display rendition (else the original), or the poster. */
export function cardSource(row: Pick<CatalogRow, 'kind' | 'image' | 'media'>): CardSource | null {
  if (row.kind === 'artwork') {
    const image = row.image?.display ?? row.image?.original;
    return image ? { key: image.key, contentType: image.contentType } : null;
  }
  if (row.kind === 'media' && row.media?.mediaType === 'video' && row.media.poster) {
    return { key: row.media.poster.key, contentType: row.media.poster.contentType };
  }
  return null;
}

export function cardVersion(row: Pick<CatalogRow, 'kind' | 'image' | 'media'>): string | null {
  const image = row.kind === 'artwork' ? (row.image?.display ?? row.image?.original) : row.media?.poster;
  return image ? cardVersionOf(image) : null;
}

/** The version of card images made from this stored file. */
export function cardVersionOf(image: { key: string; bytes?: number; width?: number; height?: number }): string {
  const identity = [image.key, image.bytes ?? '', image.width ?? '', image.height ?? ''];
  return createHash('sha256').update(identity.join('|')).digest('base64url').slice(0, 16);
}

export const cardUrl = (kind: CardKind, id: number, version: string, width: number) =>
  `/api/images/${kind}/${id}/${version}/${width}.webp`;

export function cardImage(row: CatalogRow): CardImage | null {
  if (row.kind === 'story') return null;
  const version = cardVersion(row);
  if (!version) return null;
  const kind = row.kind;
  const url = (w: number) => cardUrl(kind, row.id, version, w);
  return {
    src: url(480),
    srcSet: CARD_WIDTHS.map((w) => `${url(w)} ${w}w`).join(', '),
    width: 480,
    height: Math.round(480 * CARD_ASPECT[kind]),
  };
}
