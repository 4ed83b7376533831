import { artworkStream } from '#events/artworks/artwork.ts';
import { mediaStream } from '#events/media/media.ts';
import { storyStream } from '#events/stories/story.ts';
import { KIND_PATH, KINDS as KIND_LIST, type Kind } from '#contract/views.ts';
import { log } from './observability/logger.ts';
import { currentRequestId } from './observability/requestContext.ts';
import type { BlobStore } from './storage/index.ts';

/** The three kinds of submission, as URLs and messages name them. */
export const KINDS: Record<Kind, { path: string; label: string; stream: (id: number) => string }> = {
  artwork: { path: KIND_PATH.artwork, label: 'Artwork', stream: artworkStream },
  story: { path: KIND_PATH.story, label: 'Story', stream: storyStream },
  media: { path: KIND_PATH.media, label: 'Media', stream: mediaStream },
};

/**
 * Where an item's files are kept in the blob store (`artworks/7/`): the folder is the kind's name in
 * URLs (contract/views.ts KIND_PATH), so the table is the contract's, not a copy of it.
 */
export const itemFolder = (kind: Kind, id: number): string => `${KIND_PATH[kind]}/${id}/`;
export const KIND_NAMES: readonly Kind[] = KIND_LIST;

/** An item whose files go: a media item's upload lies outside its prefix (`uploads/…`). */
export interface ItemFiles {
  kind: Kind;
  id: number;
  uploadKey?: string | null;
}

/**
 * Removes items' files from the blob store: everything under each one's prefix (an artwork's original
 * and renditions, a media item's transcode and poster) and a media item's upload. Runs after the
 * event is committed: a failure leaves files nobody can reach, never a dangling item.
 */
export async function removeItemFiles(blobs: BlobStore, items: readonly ItemFiles[]): Promise<void> {
  const removals = items.flatMap(({ kind, id, uploadKey }) => [
    blobs.deletePrefix(itemFolder(kind, id)),
    ...(uploadKey ? [blobs.delete(uploadKey)] : []),
  ]);
  await Promise.all(removals).catch((error: unknown) =>
    log
      .child({ component: 'blob cleanup' })
      .error({ err: error, requestId: currentRequestId() }, 'files left in the blob store'),
  );
}
