import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { assertEditable, editedAt, withdrawnAt } from '../contributions.ts';
import { reviewDecides, type ReviewData } from '../review.ts';
import type { Decider } from '../decider.ts';
import { Inline, inlineToRefs, PERSONAL_FIELDS, PersonalRef, REVIEW_NOTES, REVIEW_NOTES_V1 } from '../personal.ts';
import { defineEvent, type EventOf } from '../registry.ts';

export const storyStream = (id: number) => `story-${id}`;
const storyId = z.number().int().positive();

const submittedFields = {
  storyId,
  /** personal_data id of the email, never the address itself */
  emailRef: z.number().int().positive().nullable(),
  isAnonymous: z.boolean(),
  submittedAt: z.iso.datetime(),
};
/** v1: title, text and author inline in the log (before decision 050). */
export const StorySubmittedV1 = z.object({
  ...submittedFields,
  title: z.string().nullable(),
  content: z.string(),
  /** 'Anonymous' when isAnonymous: the real name is never recorded for anonymous stories */
  authorName: z.string(),
});
/** v2: title, text and author are personal data, erasable; an anonymous story has no author ref. */
export const StorySubmitted = defineEvent(
  'StorySubmitted',
  z.object({
    ...submittedFields,
    titleRef: PersonalRef.nullable(),
    contentRef: PersonalRef.nullable(),
    authorNameRef: PersonalRef.nullable(),
    inline: Inline,
  }),
  { version: 2, upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.StorySubmitted) }, legacy: { 1: StorySubmittedV1 } },
);
export const StoryApproved = defineEvent(
  'StoryApproved',
  z.object({ storyId, ...REVIEW_NOTES, approvedAt: z.iso.datetime() }),
  {
    version: 2,
    upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.StoryApproved) },
    legacy: { 1: z.object({ storyId, ...REVIEW_NOTES_V1, approvedAt: z.iso.datetime() }) },
  },
);
export const StoryRejected = defineEvent(
  'StoryRejected',
  z.object({ storyId, ...REVIEW_NOTES, rejectedAt: z.iso.datetime() }),
  {
    version: 2,
    upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.StoryRejected) },
    legacy: { 1: z.object({ storyId, ...REVIEW_NOTES_V1, rejectedAt: z.iso.datetime() }) },
  },
);
export const StoryDeleted = defineEvent('StoryDeleted', z.object({ storyId, deletedAt: z.iso.datetime() }));
/** The sender changed the words of their pending story (CONTRACT §11): refs to new personal data rows. */
export const StoryEdited = defineEvent(
  'StoryEdited',
  z.object({
    storyId,
    titleRef: PersonalRef.nullable(),
    contentRef: PersonalRef.nullable(),
    authorNameRef: PersonalRef.nullable(),
    editedAt,
  }),
);
/** The sender took their story back (CONTRACT §11): it leaves the queue or the gallery, as a delete. */
export const StoryWithdrawn = defineEvent('StoryWithdrawn', z.object({ storyId, withdrawnAt }));

export const storyEvents = [
  StorySubmitted,
  StoryApproved,
  StoryRejected,
  StoryDeleted,
  StoryEdited,
  StoryWithdrawn,
] as const;
export type StoryEvent = EventOf<(typeof storyEvents)[number]>;

export type Story =
  | { exists: false; deleted?: boolean; withdrawn?: boolean }
  | { exists: true; id: number; status: 'pending' | 'approved' | 'rejected' };
type EditedWords = Omit<z.infer<typeof StoryEdited.schema>, 'storyId' | 'editedAt'>;

export type StoryCommand =
  | { type: 'SubmitStory'; data: Omit<z.infer<typeof StorySubmitted.schema>, 'submittedAt' | 'inline'>; now: string }
  | { type: 'ReviewStory'; data: ReviewData; now: string }
  | { type: 'DeleteStory'; now: string }
  | { type: 'EditStory'; data: EditedWords; now: string }
  | { type: 'WithdrawStory'; now: string };

export function evolve(state: Story, event: StoryEvent): Story {
  switch (event.type) {
    case 'StorySubmitted':
      return { exists: true, id: event.data.storyId, status: 'pending' };
    case 'StoryApproved':
      return state.exists ? { ...state, status: 'approved' } : state;
    case 'StoryRejected':
      return state.exists ? { ...state, status: 'rejected' } : state;
    case 'StoryDeleted':
      return { exists: false, deleted: true };
    case 'StoryEdited':
      return state;
    case 'StoryWithdrawn':
      return { exists: false, deleted: true, withdrawn: true };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export function decide(command: StoryCommand, state: Story, version = 0): StoryEvent[] {
  if (command.type === 'SubmitStory') {
    if (state.exists || state.deleted) throw new DomainError(409, 'Story already exists');
    return [{ type: 'StorySubmitted', data: { ...command.data, submittedAt: command.now } }];
  }
  // withdrawing twice is one withdrawal (a retried request, a second tab)
  if (command.type === 'WithdrawStory' && !state.exists && state.withdrawn) return [];
  if (!state.exists) throw new DomainError(404, 'Story not found');
  switch (command.type) {
    case 'ReviewStory': {
      const { status, adminNotesRef } = command.data;
      if (!reviewDecides('Story', state.status, command.data, version)) return [];
      return status === 'approved'
        ? [{ type: 'StoryApproved', data: { storyId: state.id, adminNotesRef, approvedAt: command.now } }]
        : [{ type: 'StoryRejected', data: { storyId: state.id, adminNotesRef, rejectedAt: command.now } }];
    }
    case 'DeleteStory':
      return [{ type: 'StoryDeleted', data: { storyId: state.id, deletedAt: command.now } }];
    case 'EditStory':
      assertEditable('Story', state.status, version);
      return [{ type: 'StoryEdited', data: { storyId: state.id, ...command.data, editedAt: command.now } }];
    case 'WithdrawStory':
      return [{ type: 'StoryWithdrawn', data: { storyId: state.id, withdrawnAt: command.now } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

export const storyDecider: Decider<Story, StoryEvent, StoryCommand> = { initial: { exists: false }, evolve, decide };
