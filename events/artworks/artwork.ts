import { z } from 'zod';
import {
  inlineToRefs,
  PersonalRef,
  PERSONAL_FIELDS,
  WORK_WORD_REFS,
  WORK_WORDS_V1,
  REVIEW_NOTES,
  REVIEW_NOTES_V1,
} from '../personal.ts';
import { editedAt, WORK_EDIT_REFS, withdrawnAt } from '../contributions.ts';
import { defineEvent, type EventOf } from '../registry.ts';

export const artworkStream = (id: number) => `artwork-${id}`;

export const StoredImage = z.object({
  key: z.string(),
  contentType: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
});
export type StoredImage = z.infer<typeof StoredImage>;

const submittedFields = {
  artworkId: z.number().int().positive(),
  /** personal_data id of the email, never the address itself */
  emailRef: z.number().int().positive(),
  isFromCanvas: z.boolean(),
  image: StoredImage,
  submittedAt: z.iso.datetime(),
};

/** v1: the words and the artist's name inline in the log (before decision 050). */
export const ArtworkSubmittedV1 = z.object({
  ...submittedFields,
  ...WORK_WORDS_V1,
});

/** v2: the words and the artist's name are personal data, erasable; the event holds their refs. */
export const ArtworkSubmittedV2 = z.object({
  ...submittedFields,
  ...WORK_WORD_REFS,
});

/**
 * v3: the picture's description for those who cannot see it (alt text, decision 122), erasable like
 * the other words; an artwork sent before it has none (null).
 */
export const ArtworkSubmitted = defineEvent(
  'ArtworkSubmitted',
  z.object({
    ...submittedFields,
    ...WORK_WORD_REFS,
    altTextRef: PersonalRef.nullable(),
  }),
  {
    version: 3,
    upcasters: {
      1: inlineToRefs(['title', 'description', 'tags', 'artistName']),
      2: (data) => ({ ...data, altTextRef: null }),
    },
    legacy: { 1: ArtworkSubmittedV1, 2: ArtworkSubmittedV2 },
  },
);

export const ArtworkRenditionsMade = defineEvent(
  'ArtworkRenditionsMade',
  z.object({ artworkId: z.number().int().positive(), display: StoredImage, thumbnail: StoredImage }),
);

export const ArtworkApproved = defineEvent(
  'ArtworkApproved',
  z.object({ artworkId: z.number().int().positive(), ...REVIEW_NOTES, approvedAt: z.iso.datetime() }),
  {
    version: 2,
    upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.ArtworkApproved) },
    legacy: {
      1: z.object({ artworkId: z.number().int().positive(), ...REVIEW_NOTES_V1, approvedAt: z.iso.datetime() }),
    },
  },
);

export const ArtworkRejected = defineEvent(
  'ArtworkRejected',
  z.object({ artworkId: z.number().int().positive(), ...REVIEW_NOTES, rejectedAt: z.iso.datetime() }),
  {
    version: 2,
    upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.ArtworkRejected) },
    legacy: {
      1: z.object({ artworkId: z.number().int().positive(), ...REVIEW_NOTES_V1, rejectedAt: z.iso.datetime() }),
    },
  },
);

export const ArtworkArchived = defineEvent(
  'ArtworkArchived',
  z.object({ artworkId: z.number().int().positive(), archivedAt: z.iso.datetime() }),
);

export const ArtworkUnarchived = defineEvent(
  'ArtworkUnarchived',
  z.object({ artworkId: z.number().int().positive(), unarchivedAt: z.iso.datetime() }),
);

export const ArtworkDeleted = defineEvent(
  'ArtworkDeleted',
  z.object({ artworkId: z.number().int().positive(), deletedAt: z.iso.datetime() }),
);

/** The sender changed the words of their pending artwork (CONTRACT §11): refs to new personal data rows. */
export const ArtworkEdited = defineEvent(
  'ArtworkEdited',
  z.object({ artworkId: z.number().int().positive(), ...WORK_EDIT_REFS, editedAt }),
);

/** The sender took their artwork back (CONTRACT §11): it leaves the queue or the gallery, its files go. */
export const ArtworkWithdrawn = defineEvent(
  'ArtworkWithdrawn',
  z.object({ artworkId: z.number().int().positive(), withdrawnAt }),
);

export const artworkEvents = [
  ArtworkSubmitted,
  ArtworkRenditionsMade,
  ArtworkApproved,
  ArtworkRejected,
  ArtworkArchived,
  ArtworkUnarchived,
  ArtworkDeleted,
  ArtworkEdited,
  ArtworkWithdrawn,
] as const;

export type ArtworkEvent = EventOf<(typeof artworkEvents)[number]>;

export type ArtworkStatus = 'pending' | 'approved' | 'rejected';

export type Artwork =
  | { exists: false; deleted?: boolean; withdrawn?: boolean }
  | { exists: true; id: number; status: ArtworkStatus; archived: boolean; image: StoredImage; renditions: boolean };

export const initialArtwork: Artwork = { exists: false };

export function evolve(state: Artwork, event: ArtworkEvent): Artwork {
  switch (event.type) {
    case 'ArtworkSubmitted':
      return {
        exists: true,
        id: event.data.artworkId,
        status: 'pending',
        archived: false,
        image: event.data.image,
        renditions: false,
      };
    case 'ArtworkRenditionsMade':
      return state.exists ? { ...state, renditions: true } : state;
    case 'ArtworkApproved':
      return state.exists ? { ...state, status: 'approved' } : state;
    case 'ArtworkRejected':
      return state.exists ? { ...state, status: 'rejected' } : state;
    case 'ArtworkArchived':
      return state.exists ? { ...state, archived: true } : state;
    case 'ArtworkUnarchived':
      return state.exists ? { ...state, archived: false } : state;
    case 'ArtworkDeleted':
      return { exists: false, deleted: true };
    case 'ArtworkEdited':
      return state;
    case 'ArtworkWithdrawn':
      return { exists: false, deleted: true, withdrawn: true };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
