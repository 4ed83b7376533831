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
import type pg from 'pg';
import { blankDeletedItem } from '../erasure.ts';
import type { PersonalData } from '../personalData.ts';

/** A review as the admin gives it: the note as text, recorded as erasable personal data (decision 090). */
export type Moderation =
  | ({ type: 'review'; adminNotes: string | null } & Omit<ReviewData, 'adminNotesRef'>)
  | { type: 'archive' | 'unarchive' | 'delete' };

/** Rolls back a review's note row when the review appends nothing (the same decision twice). */
class NothingDecided extends Error {
  readonly lastPosition: number | undefined;
  constructor(lastPosition: number | undefined) {
    super('nothing decided');
    this.lastPosition = lastPosition;
  }
}

/** One moderation action on any kind, through that kind's own decider. Returns the last position written. */
export async function moderate(
  store: EventStore,
  kind: Kind,
  id: number,
  action: Moderation,
  metadata: EventMetadata,
  personal: Pick<PersonalData, 'recordTexts'>,
): Promise<number | undefined> {
  const now = metadata.now;
  const review: ReviewData | undefined =
    action.type === 'review'
      ? { status: action.status, adminNotesRef: null, expectedVersion: action.expectedVersion }
      : undefined;
  const run = async <S, E extends DomainEvent, C>(
    stream: string,
    decider: Parameters<typeof handleCommand<S, E, C>>[2],
    command: C,
  ) => {
    if (action.type === 'review' && action.adminNotes !== null) {
      const notes = action.adminNotes;
      return inTransaction(async (tx) => {
        const { adminNotesRef } = await personal.recordTexts({ adminNotes: notes }, { stream, subjectId: null }, tx);
        review!.adminNotesRef = adminNotesRef; // the command carries this review
        const { events, lastPosition } = await handleCommand(store, stream, decider, command, metadata, { tx });
        if (events.length === 0) throw new NothingDecided(lastPosition);
        return lastPosition;
      });
    }
    if (action.type !== 'delete') return (await handleCommand(store, stream, decider, command, metadata)).lastPosition;
    // a deleted item keeps no names or words: blanked with the event, or not at all (decision 050)
    return inTransaction(async (tx) => {
      const { lastPosition } = await handleCommand(store, stream, decider, command, metadata, { tx });
      await blankDeletedItem(tx, kind, id, stream);
      return lastPosition;
    });
  };
  const inTransaction = async (work: (tx: pg.PoolClient) => Promise<number | undefined>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await store.transaction(work);
      } catch (error) {
        if (error instanceof NothingDecided) return error.lastPosition;
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
