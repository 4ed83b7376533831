import { buffer } from 'node:stream/consumers';
import { CARD_ASPECT, CARD_WIDTHS, type CardKind } from '#projections/catalog/cardImages.ts';
import { itemFolder } from '../kinds.ts';
import type { BlobStore } from '../storage/index.ts';
import { makeCardImages } from './index.ts';

/** Where a card's images are kept: beside the item's other files, so deleting the item deletes them. */
export const cardPrefix = (kind: CardKind, id: number, version: string) => `${itemFolder(kind, id)}card-${version}`;

/** One width of a card's images, as stored. */
export const cardKey = (kind: CardKind, id: number, version: string, width: number) =>
  `${cardPrefix(kind, id, version)}-${width}.webp`;

/**
 * Makes and stores a card's images in every width from its source's bytes (one decode). Called by
 * the image route on a first request, and by the renditions job ahead of time when it is given the
 * chance, so that the first crowd finds them made.
 */
export async function storeCardImages(
  blobs: BlobStore,
  card: { kind: CardKind; id: number; version: string },
  source: Buffer,
): Promise<Map<number, Buffer>> {
  const made = await makeCardImages(source, CARD_WIDTHS, CARD_ASPECT[card.kind]);
  await Promise.all(
    [...made].map(([w, image]) =>
      blobs.put(cardKey(card.kind, card.id, card.version, w), image.buffer, { contentType: image.contentType }),
    ),
  );
  return new Map([...made].map(([w, image]) => [w, image.buffer]));
}

/** The stored card images in every width, or made now from the source file and stored. */
export async function loadCardImages(
  blobs: BlobStore,
  card: { kind: CardKind; id: number; version: string },
  sourceKey: string,
): Promise<Map<number, Buffer>> {
  const keys = CARD_WIDTHS.map((w) => cardKey(card.kind, card.id, card.version, w));
  if ((await Promise.all(keys.map((key) => blobs.stat(key)))).every(Boolean)) {
    const all = await Promise.all(keys.map(async (key) => buffer(await blobs.read(key))));
    return new Map(CARD_WIDTHS.map((w, i) => [w, all[i]!]));
  }
  return storeCardImages(blobs, card, await buffer(await blobs.read(sourceKey)));
}
