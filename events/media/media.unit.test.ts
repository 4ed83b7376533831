import { describe, it } from 'vitest';
import { spec } from '../../tests/support/decider.ts';
import { mediaDecider, type MediaEvent } from './media.ts';

const now = '2025-09-12T10:00:00.000Z';
const file = { key: 'media/5/original.mov', contentType: 'video/quicktime', bytes: 1000 };
const submission = {
  mediaId: 5,
  titleRef: 11,
  descriptionRef: null,
  tagsRef: null,
  artistNameRef: 12,
  emailRef: 1,
  mediaType: 'video' as const,
  mimeType: 'video/quicktime',
  file,
  durationSeconds: 3,
  browserPlayable: false,
};
const submitted: MediaEvent = { type: 'MediaSubmitted', data: { ...submission, submittedAt: now } };
const poster = { key: 'media/5/poster.jpg', contentType: 'image/jpeg', bytes: 10 };
const processed: MediaEvent = { type: 'MediaProcessed', data: { mediaId: 5, poster, playable: null } };
const approved: MediaEvent = { type: 'MediaApproved', data: { mediaId: 5, adminNotesRef: null, approvedAt: now } };
const deleted: MediaEvent = { type: 'MediaDeleted', data: { mediaId: 5, deletedAt: now } };

const media = spec(mediaDecider);

describe('media decider', () => {
  it('submits once', () => {
    media.given([]).when({ type: 'SubmitMedia', data: submission, now }).then([submitted]);
    media
      .given([submitted])
      .when({ type: 'SubmitMedia', data: submission, now })
      .thenFails(409, 'Media already exists');
  });

  it('records processing once, whatever the job does twice', () => {
    const command = { type: 'RecordProcessing' as const, data: { poster, playable: null }, now };
    media.given([submitted]).when(command).then([processed]);
    media.given([submitted, processed]).when(command).thenNothing();
  });

  it('decides pending media once, and refuses a silent change of decision', () => {
    const review = (status: 'approved' | 'rejected') => ({
      type: 'ReviewMedia' as const,
      data: { status, adminNotesRef: null },
      now,
    });
    media.given([submitted]).when(review('approved')).then([approved]);
    media.given([submitted, approved]).when(review('approved')).thenNothing();
    media.given([submitted, approved]).when(review('rejected')).thenFails(409, 'Media was already approved');
  });

  it('deletes, after which nothing is known of it', () => {
    media.given([submitted]).when({ type: 'DeleteMedia', now }).then([deleted]);
    media.given([submitted, deleted]).when({ type: 'DeleteMedia', now }).thenFails(404, 'Media not found');
  });

  describe('its sender (CONTRACT §11)', () => {
    const words = { titleRef: 41, descriptionRef: null, tagsRef: 42, artistNameRef: 43 };
    const edited: MediaEvent = { type: 'MediaEdited', data: { mediaId: 5, ...words, editedAt: now } };
    const withdrawn: MediaEvent = { type: 'MediaWithdrawn', data: { mediaId: 5, withdrawnAt: now } };
    const edit = { type: 'EditMedia' as const, data: words, now };
    const withdraw = { type: 'WithdrawMedia' as const, now };

    it('edits pending media only', () => {
      media.given([submitted, processed]).when(edit).then([edited]);
      media
        .given([submitted, approved])
        .when(edit)
        .thenFails(409, 'Media was already approved', { status: 'approved' });
    });

    it('withdraws media in any state, once', () => {
      media.given([submitted, approved]).when(withdraw).then([withdrawn]);
      media.given([submitted, withdrawn]).when(withdraw).thenNothing();
      media.given([submitted, deleted]).when(withdraw).thenFails(404, 'Media not found');
      media
        .given([submitted, withdrawn])
        .when({ type: 'RecordProcessing', data: { poster, playable: null }, now })
        .thenFails(404, 'Media not found');
    });
  });
  it('captions a video or transcribes an audio message: its sender while pending, an admin any time (decisions 123, 130)', () => {
    const track = { key: 'media/5/captions-1.vtt', contentType: 'text/vtt; charset=utf-8', bytes: 40 };
    const caption = (bySender: boolean) => ({
      type: 'CaptionMedia' as const,
      data: { captions: track, bySender },
      now,
    });
    const captioned: MediaEvent = { type: 'MediaCaptioned', data: { mediaId: 5, captions: track, captionedAt: now } };
    const audio: MediaEvent = { type: 'MediaSubmitted', data: { ...submission, mediaType: 'audio', submittedAt: now } };
    media.given([submitted]).when(caption(true)).then([captioned]);
    media.given([audio]).when(caption(true)).then([captioned]);
    media.given([audio, approved]).when(caption(false)).then([captioned]);
    media.given([audio, approved]).when(caption(true)).thenFails(409, 'Media was already approved');
  });
});
