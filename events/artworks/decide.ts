import type { z } from 'zod';
import { DomainError } from '../errors.ts';
import { assertEditable } from '../contributions.ts';
import { reviewDecides, type ReviewData } from '../review.ts';
import type { Decider } from '../decider.ts';
import {
  evolve,
  initialArtwork,
  type Artwork,
  type ArtworkEdited,
  type ArtworkEvent,
  type ArtworkSubmitted,
  type StoredImage,
} from './artwork.ts';

type Submission = Omit<z.infer<typeof ArtworkSubmitted.schema>, 'submittedAt' | 'inline'>;

export type ArtworkCommand =
  | { type: 'SubmitArtwork'; data: Submission; now: string }
  | { type: 'ReviewArtwork'; data: ReviewData; now: string }
  | { type: 'RecordRenditions'; data: { display: StoredImage; thumbnail: StoredImage }; now: string }
  | { type: 'ArchiveArtwork'; now: string }
  | { type: 'UnarchiveArtwork'; now: string }
  | { type: 'DeleteArtwork'; now: string }
  | { type: 'EditArtwork'; data: Omit<z.infer<typeof ArtworkEdited.schema>, 'artworkId' | 'editedAt'>; now: string }
  | { type: 'WithdrawArtwork'; now: string };

export function decide(command: ArtworkCommand, state: Artwork, version = 0): ArtworkEvent[] {
  if (command.type === 'SubmitArtwork') {
    if (state.exists || state.deleted) throw new DomainError(409, 'Artwork already exists');
    return [{ type: 'ArtworkSubmitted', data: { ...command.data, submittedAt: command.now } }];
  }
  // withdrawing twice is one withdrawal (a retried request, a second tab)
  if (command.type === 'WithdrawArtwork' && !state.exists && state.withdrawn) return [];
  if (!state.exists) throw new DomainError(404, 'Artwork not found');
  const artworkId = state.id;
  switch (command.type) {
    case 'ReviewArtwork': {
      const { status, adminNotesRef } = command.data;
      if (!reviewDecides('Artwork', state.status, command.data, version)) return [];
      return status === 'approved'
        ? [{ type: 'ArtworkApproved', data: { artworkId, adminNotesRef, approvedAt: command.now } }]
        : [{ type: 'ArtworkRejected', data: { artworkId, adminNotesRef, rejectedAt: command.now } }];
    }
    case 'RecordRenditions':
      if (state.renditions) return [];
      return [{ type: 'ArtworkRenditionsMade', data: { artworkId, ...command.data } }];
    case 'ArchiveArtwork':
      if (state.archived) return [];
      return [{ type: 'ArtworkArchived', data: { artworkId, archivedAt: command.now } }];
    case 'UnarchiveArtwork':
      if (!state.archived) return [];
      return [{ type: 'ArtworkUnarchived', data: { artworkId, unarchivedAt: command.now } }];
    case 'DeleteArtwork':
      return [{ type: 'ArtworkDeleted', data: { artworkId, deletedAt: command.now } }];
    case 'EditArtwork':
      assertEditable('Artwork', state.status, version);
      return [{ type: 'ArtworkEdited', data: { artworkId, ...command.data, editedAt: command.now } }];
    case 'WithdrawArtwork':
      return [{ type: 'ArtworkWithdrawn', data: { artworkId, withdrawnAt: command.now } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

export const artworkDecider: Decider<Artwork, ArtworkEvent, ArtworkCommand> = {
  initial: initialArtwork,
  evolve,
  decide,
};
