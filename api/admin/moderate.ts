import { artworkStream } from '#events/artworks/artwork.ts';
import type { DomainEvent } from '#events/catalog.ts';
import { artworkDecider } from '#events/artworks/decide.ts';
import { DomainError, StaleVersion } from '#events/errors.ts';
import { handleCommand } from '#events/handle.ts';
import { mediaDecider, mediaStream } from '#events/media/media.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { storyDecider, storyStream } from '#events/stories/story.ts';
import type { Kind } from '#projections/catalog/items.ts';
import type { ReviewData } from '#events/review.ts';
import type { EventStore } from '#events/store.ts';
import { blankDeletedItem } from '../erasure.ts';

export type Moderation = ({ type: 'review' } & ReviewData) | { type: 'archive' | 'unarchive' | 'delete' };

/** One moderation action on any kind, through that kind's own decider. Returns the last position written. */
export async function moderate(
  store: EventStore,
  kind: Kind,
  id: number,
  action: Moderation,
  metadata: EventMetadata,
): Promise<number | undefined> {
  const now = metadata.now;
  const review: ReviewData | undefined =
    action.type === 'review'
      ? { status: action.status, adminNotes: action.adminNotes, expectedVersion: action.expectedVersion }
      : undefined;
  const run = async <S, E extends DomainEvent, C>(
    stream: string,
    decider: Parameters<typeof handleCommand<S, E, C>>[2],
    command: C,
  ) => {
    if (action.type !== 'delete') return (await handleCommand(store, stream, decider, command, metadata)).lastPosition;
    // a deleted item keeps no names or words: blanked with the event, or not at all (decision 050)
    for (let attempt = 1; ; attempt++) {
      try {
        return await store.transaction(async (tx) => {
          const { lastPosition } = await handleCommand(store, stream, decider, command, metadata, { tx });
          await blankDeletedItem(tx, kind, id, stream);
          return lastPosition;
        });
      } catch (error) {
        // a job (renditions, transcode) appended to the item meanwhile: decide again on fresh state
        if (!(error instanceof StaleVersion) || attempt >= 3) throw error;
      }
    }
  };

  switch (kind) {
    case 'artwork':
      if (review) return run(artworkStream(id), artworkDecider, { type: 'ReviewArtwork', data: review, now });
      if (action.type === 'archive') return run(artworkStream(id), artworkDecider, { type: 'ArchiveArtwork', now });
      if (action.type === 'unarchive') return run(artworkStream(id), artworkDecider, { type: 'UnarchiveArtwork', now });
      return run(artworkStream(id), artworkDecider, { type: 'DeleteArtwork', now });
    case 'story':
      if (action.type === 'archive' || action.type === 'unarchive')
        throw new DomainError(400, 'Only artworks can be archived');
      if (review) return run(storyStream(id), storyDecider, { type: 'ReviewStory', data: review, now });
      return run(storyStream(id), storyDecider, { type: 'DeleteStory', now });
    case 'media':
      if (action.type === 'archive' || action.type === 'unarchive')
        throw new DomainError(400, 'Only artworks can be archived');
      if (review) return run(mediaStream(id), mediaDecider, { type: 'ReviewMedia', data: review, now });
      return run(mediaStream(id), mediaDecider, { type: 'DeleteMedia', now });
  }
}
