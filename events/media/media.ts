import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { assertEditable, editedAt, WORK_EDIT_REFS, withdrawnAt } from '../contributions.ts';
import { reviewDecides, type ReviewData } from '../review.ts';
import type { Decider } from '../decider.ts';
import {
  inlineToRefs,
  PERSONAL_FIELDS,
  WORK_WORD_REFS,
  WORK_WORDS_V1,
  REVIEW_NOTES,
  REVIEW_NOTES_V1,
} from '../personal.ts';
import { defineEvent, type EventOf } from '../registry.ts';

export const mediaStream = (id: number) => `media-${id}`;
const mediaId = z.number().int().positive();

export const StoredFile = z.object({ key: z.string(), contentType: z.string(), bytes: z.number().int().nonnegative() });
export type StoredFile = z.infer<typeof StoredFile>;

const submittedFields = {
  mediaId,
  emailRef: z.number().int().positive(),
  mediaType: z.enum(['video', 'audio']),
  mimeType: z.string(),
  file: StoredFile,
  /** what ffprobe found when the file was uploaded */
  durationSeconds: z.number().nonnegative(),
  browserPlayable: z.boolean(),
  submittedAt: z.iso.datetime(),
};
/** v1: the words and the artist's name inline in the log (before decision 050). */
export const MediaSubmittedV1 = z.object({
  ...submittedFields,
  ...WORK_WORDS_V1,
});
/** v2: the words and the artist's name are personal data, erasable; the event holds their refs. */
export const MediaSubmitted = defineEvent(
  'MediaSubmitted',
  z.object({
    ...submittedFields,
    ...WORK_WORD_REFS,
  }),
  { version: 2, upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.MediaSubmitted) }, legacy: { 1: MediaSubmittedV1 } },
);
/** The job's results: a poster frame for video, and an MP4 when the original can't play in browsers. */
export const MediaProcessed = defineEvent(
  'MediaProcessed',
  z.object({ mediaId, poster: StoredFile.nullable(), playable: StoredFile.nullable() }),
);
export const MediaApproved = defineEvent(
  'MediaApproved',
  z.object({ mediaId, ...REVIEW_NOTES, approvedAt: z.iso.datetime() }),
  {
    version: 2,
    upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.MediaApproved) },
    legacy: { 1: z.object({ mediaId, ...REVIEW_NOTES_V1, approvedAt: z.iso.datetime() }) },
  },
);
export const MediaRejected = defineEvent(
  'MediaRejected',
  z.object({ mediaId, ...REVIEW_NOTES, rejectedAt: z.iso.datetime() }),
  {
    version: 2,
    upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.MediaRejected) },
    legacy: { 1: z.object({ mediaId, ...REVIEW_NOTES_V1, rejectedAt: z.iso.datetime() }) },
  },
);
export const MediaDeleted = defineEvent('MediaDeleted', z.object({ mediaId, deletedAt: z.iso.datetime() }));

/** The sender changed the words of their pending media (CONTRACT §11): refs to new personal data rows. */
export const MediaEdited = defineEvent('MediaEdited', z.object({ mediaId, ...WORK_EDIT_REFS, editedAt }));
/** The sender took their media back (CONTRACT §11): it leaves the queue or the gallery, its files go. */
export const MediaWithdrawn = defineEvent('MediaWithdrawn', z.object({ mediaId, withdrawnAt }));

/**
 * A message's WebVTT track (decision 123): a video's captions, an audio message's transcript (decision
 * 130). Set by its sender while it waits for review, or by an admin at any time; a new track replaces
 * the old, null takes it off.
 */
export const MediaCaptioned = defineEvent(
  'MediaCaptioned',
  z.object({ mediaId, captions: StoredFile.nullable(), captionedAt: z.iso.datetime() }),
);

export const mediaEvents = [
  MediaSubmitted,
  MediaProcessed,
  MediaApproved,
  MediaRejected,
  MediaDeleted,
  MediaEdited,
  MediaWithdrawn,
  MediaCaptioned,
] as const;
export type MediaEvent = EventOf<(typeof mediaEvents)[number]>;

export type Media =
  | { exists: false; deleted?: boolean; withdrawn?: boolean }
  | {
      exists: true;
      id: number;
      status: 'pending' | 'approved' | 'rejected';
      mediaType: 'video' | 'audio';
      file: StoredFile;
      browserPlayable: boolean;
      processed: boolean;
    };

export type MediaCommand =
  | { type: 'SubmitMedia'; data: Omit<z.infer<typeof MediaSubmitted.schema>, 'submittedAt' | 'inline'>; now: string }
  | { type: 'RecordProcessing'; data: { poster: StoredFile | null; playable: StoredFile | null }; now: string }
  | { type: 'ReviewMedia'; data: ReviewData; now: string }
  | { type: 'DeleteMedia'; now: string }
  | { type: 'EditMedia'; data: Omit<z.infer<typeof MediaEdited.schema>, 'mediaId' | 'editedAt'>; now: string }
  | { type: 'WithdrawMedia'; now: string }
  | { type: 'CaptionMedia'; data: { captions: StoredFile | null; bySender: boolean }; now: string };

export function evolve(state: Media, event: MediaEvent): Media {
  switch (event.type) {
    case 'MediaSubmitted': {
      const d = event.data;
      return {
        exists: true,
        id: d.mediaId,
        status: 'pending',
        mediaType: d.mediaType,
        file: d.file,
        browserPlayable: d.browserPlayable,
        processed: false,
      };
    }
    case 'MediaProcessed':
      return state.exists ? { ...state, processed: true } : state;
    case 'MediaApproved':
      return state.exists ? { ...state, status: 'approved' } : state;
    case 'MediaRejected':
      return state.exists ? { ...state, status: 'rejected' } : state;
    case 'MediaDeleted':
      return { exists: false, deleted: true };
    case 'MediaEdited':
    case 'MediaCaptioned':
      return state;
    case 'MediaWithdrawn':
      return { exists: false, deleted: true, withdrawn: true };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export function decide(command: MediaCommand, state: Media, version = 0): MediaEvent[] {
  if (command.type === 'SubmitMedia') {
    if (state.exists || state.deleted) throw new DomainError(409, 'Media already exists');
    return [{ type: 'MediaSubmitted', data: { ...command.data, submittedAt: command.now } }];
  }
  // withdrawing twice is one withdrawal (a retried request, a second tab)
  if (command.type === 'WithdrawMedia' && !state.exists && state.withdrawn) return [];
  if (!state.exists) throw new DomainError(404, 'Media not found');
  const mediaId = state.id;
  switch (command.type) {
    case 'RecordProcessing':
      return state.processed ? [] : [{ type: 'MediaProcessed', data: { mediaId, ...command.data } }];
    case 'ReviewMedia': {
      const { status, adminNotesRef } = command.data;
      if (!reviewDecides('Media', state.status, command.data, version)) return [];
      return status === 'approved'
        ? [{ type: 'MediaApproved', data: { mediaId, adminNotesRef, approvedAt: command.now } }]
        : [{ type: 'MediaRejected', data: { mediaId, adminNotesRef, rejectedAt: command.now } }];
    }
    case 'DeleteMedia':
      return [{ type: 'MediaDeleted', data: { mediaId, deletedAt: command.now } }];
    case 'EditMedia':
      assertEditable('Media', state.status, version);
      return [{ type: 'MediaEdited', data: { mediaId, ...command.data, editedAt: command.now } }];
    case 'WithdrawMedia':
      return [{ type: 'MediaWithdrawn', data: { mediaId, withdrawnAt: command.now } }];
    case 'CaptionMedia':
      if (command.data.bySender) assertEditable('Media', state.status, version);
      return [{ type: 'MediaCaptioned', data: { mediaId, captions: command.data.captions, captionedAt: command.now } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

export const mediaDecider: Decider<Media, MediaEvent, MediaCommand> = { initial: { exists: false }, evolve, decide };
