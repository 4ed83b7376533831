import { describe, it } from 'vitest';
import { spec } from '../../tests/support/decider.ts';
import { storyDecider, type StoryEvent } from './story.ts';

const now = '2025-09-12T10:00:00.000Z';
const submitted: StoryEvent = {
  type: 'StorySubmitted',
  data: {
    storyId: 7,
    titleRef: null,
    contentRef: 11,
    authorNameRef: 12,
    emailRef: null,
    isAnonymous: false,
    submittedAt: now,
  },
};
const approved: StoryEvent = { type: 'StoryApproved', data: { storyId: 7, adminNotesRef: null, approvedAt: now } };
const rejected: StoryEvent = { type: 'StoryRejected', data: { storyId: 7, adminNotesRef: 9, rejectedAt: now } };
const deleted: StoryEvent = { type: 'StoryDeleted', data: { storyId: 7, deletedAt: now } };
const review = (status: 'approved' | 'rejected', expectedVersion?: number, adminNotesRef: number | null = null) => ({
  type: 'ReviewStory' as const,
  data: { status, adminNotesRef, ...(expectedVersion === undefined ? {} : { expectedVersion }) },
  now,
});

const story = spec(storyDecider);

describe('story decider', () => {
  it('submits a new story once', () => {
    const { submittedAt: _, ...data } = submitted.data as typeof submitted.data & { submittedAt: string };
    story.given([]).when({ type: 'SubmitStory', data, now }).then([submitted]);
    story.given([submitted]).when({ type: 'SubmitStory', data, now }).thenFails(409, 'Story already exists');
    story.given([submitted, deleted]).when({ type: 'SubmitStory', data, now }).thenFails(409, 'Story already exists');
  });

  it('decides a pending story', () => {
    story.given([submitted]).when(review('approved')).then([approved]);
    story
      .given([submitted])
      .when(review('rejected', undefined, 9))
      .then([rejected]);
  });

  it('records the same decision twice as one event', () => {
    story.given([submitted, approved]).when(review('approved')).thenNothing();
    story.given([submitted, rejected]).when(review('rejected')).thenNothing();
  });

  it('refuses a different decision on a decided story with its current status', () => {
    story.given([submitted, approved]).when(review('rejected')).thenFails(409, 'Story was already approved', {
      status: 'approved',
      version: 2,
    });
  });

  it('changes a decision when the admin states the current version, and only then', () => {
    story
      .given([submitted, approved])
      .when(review('rejected', 2, 9))
      .then([rejected]);
    story.given([submitted, approved]).when(review('rejected', 1)).thenFails(409, 'already approved', { version: 2 });
    story.given([submitted]).when(review('approved', 5)).thenFails(409, 'has changed since you saw it');
  });

  it('knows nothing of a story that does not exist or was deleted', () => {
    story.given([]).when(review('approved')).thenFails(404, 'Story not found');
    story.given([submitted, deleted]).when(review('approved')).thenFails(404, 'Story not found');
    story.given([submitted, deleted]).when({ type: 'DeleteStory', now }).thenFails(404, 'Story not found');
  });

  it('deletes a story of any status', () => {
    story.given([submitted, rejected]).when({ type: 'DeleteStory', now }).then([deleted]);
  });

  describe('its sender (CONTRACT §11)', () => {
    const words = { titleRef: 21, contentRef: 22, authorNameRef: 23 };
    const edited: StoryEvent = { type: 'StoryEdited', data: { storyId: 7, ...words, editedAt: now } };
    const withdrawn: StoryEvent = { type: 'StoryWithdrawn', data: { storyId: 7, withdrawnAt: now } };
    const edit = { type: 'EditStory' as const, data: words, now };
    const withdraw = { type: 'WithdrawStory' as const, now };

    it('edits a pending story, as often as they like', () => {
      story.given([submitted]).when(edit).then([edited]);
      story.given([submitted, edited]).when(edit).then([edited]);
    });

    it('cannot edit a decided story: 409 with what stands', () => {
      story.given([submitted, approved]).when(edit).thenFails(409, 'Story was already approved', {
        status: 'approved',
        version: 2,
      });
      story
        .given([submitted, rejected])
        .when(edit)
        .thenFails(409, 'Story was already rejected', { status: 'rejected' });
      story.given([submitted, withdrawn]).when(edit).thenFails(404, 'Story not found');
      story.given([submitted, deleted]).when(edit).thenFails(404, 'Story not found');
    });

    it('withdraws a story in any state, once', () => {
      story.given([submitted]).when(withdraw).then([withdrawn]);
      story.given([submitted, approved]).when(withdraw).then([withdrawn]);
      story.given([submitted, rejected]).when(withdraw).then([withdrawn]);
      story.given([submitted, withdrawn]).when(withdraw).thenNothing();
      story.given([submitted, deleted]).when(withdraw).thenFails(404, 'Story not found');
      story.given([]).when(withdraw).thenFails(404, 'Story not found');
    });

    it('leaves nothing an admin can decide once withdrawn', () => {
      story.given([submitted, withdrawn]).when(review('approved')).thenFails(404, 'Story not found');
      story
        .given([submitted, withdrawn])
        .when({ type: 'SubmitStory', data: submitted.data as never, now })
        .thenFails(409, 'Story already exists');
    });
  });
});
