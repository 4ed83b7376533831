import { describe, expect, it } from 'vitest';
import { spec } from '../../tests/support/decider.ts';
import { registry } from '../catalog.ts';
import type { ArtworkEvent } from './artwork.ts';
import { artworkDecider } from './decide.ts';

const now = '2025-09-12T10:00:00.000Z';
const image = { key: 'artworks/3/original.png', contentType: 'image/png', width: 10, height: 10, bytes: 100 };
const thumb = { ...image, key: 'artworks/3/thumbnail.webp', contentType: 'image/webp' };
const submission = {
  artworkId: 3,
  titleRef: 11,
  descriptionRef: null,
  tagsRef: null,
  artistNameRef: 12,
  altTextRef: null,
  emailRef: 1,
  isFromCanvas: false,
  image,
};
const submitted: ArtworkEvent = { type: 'ArtworkSubmitted', data: { ...submission, submittedAt: now } };
const approved: ArtworkEvent = {
  type: 'ArtworkApproved',
  data: { artworkId: 3, adminNotesRef: null, approvedAt: now },
};
const rejected: ArtworkEvent = {
  type: 'ArtworkRejected',
  data: { artworkId: 3, adminNotesRef: null, rejectedAt: now },
};
const archived: ArtworkEvent = { type: 'ArtworkArchived', data: { artworkId: 3, archivedAt: now } };
const unarchived: ArtworkEvent = { type: 'ArtworkUnarchived', data: { artworkId: 3, unarchivedAt: now } };
const deleted: ArtworkEvent = { type: 'ArtworkDeleted', data: { artworkId: 3, deletedAt: now } };
const renditions: ArtworkEvent = {
  type: 'ArtworkRenditionsMade',
  data: { artworkId: 3, display: image, thumbnail: thumb },
};
const review = (status: 'approved' | 'rejected', expectedVersion?: number) => ({
  type: 'ReviewArtwork' as const,
  data: { status, adminNotesRef: null, ...(expectedVersion === undefined ? {} : { expectedVersion }) },
  now,
});

const artwork = spec(artworkDecider);

describe('artwork decider', () => {
  it('submits once', () => {
    artwork.given([]).when({ type: 'SubmitArtwork', data: submission, now }).then([submitted]);
    artwork
      .given([submitted])
      .when({ type: 'SubmitArtwork', data: submission, now })
      .thenFails(409, /already exists/);
  });

  it('decides a pending artwork once; a different decision needs the current version', () => {
    artwork.given([submitted]).when(review('approved')).then([approved]);
    artwork.given([submitted, approved]).when(review('approved')).thenNothing();
    artwork.given([submitted, approved]).when(review('rejected')).thenFails(409, 'Artwork was already approved', {
      status: 'approved',
    });
    artwork.given([submitted, approved]).when(review('rejected', 2)).then([rejected]);
  });

  it('records renditions once, whatever the job does twice', () => {
    const command = { type: 'RecordRenditions' as const, data: { display: image, thumbnail: thumb }, now };
    artwork.given([submitted]).when(command).then([renditions]);
    artwork.given([submitted, renditions]).when(command).thenNothing();
  });

  it('archives and restores, each only when it changes something', () => {
    artwork.given([submitted, approved]).when({ type: 'ArchiveArtwork', now }).then([archived]);
    artwork.given([submitted, approved, archived]).when({ type: 'ArchiveArtwork', now }).thenNothing();
    artwork.given([submitted, approved, archived]).when({ type: 'UnarchiveArtwork', now }).then([unarchived]);
    artwork.given([submitted, approved]).when({ type: 'UnarchiveArtwork', now }).thenNothing();
  });

  it('deletes, after which nothing is known of it', () => {
    artwork.given([submitted]).when({ type: 'DeleteArtwork', now }).then([deleted]);
    artwork.given([submitted, deleted]).when(review('approved')).thenFails(404, 'Artwork not found');
    artwork
      .given([submitted, deleted])
      .when({ type: 'SubmitArtwork', data: submission, now })
      .thenFails(409, /exists/);
  });

  describe('its sender (CONTRACT §11)', () => {
    const words = { titleRef: 31, descriptionRef: 32, tagsRef: null, artistNameRef: 33 };
    const edited: ArtworkEvent = { type: 'ArtworkEdited', data: { artworkId: 3, ...words, editedAt: now } };
    const withdrawn: ArtworkEvent = { type: 'ArtworkWithdrawn', data: { artworkId: 3, withdrawnAt: now } };
    const edit = { type: 'EditArtwork' as const, data: words, now };
    const withdraw = { type: 'WithdrawArtwork' as const, now };

    it('edits a pending artwork, renditions or not, and never a decided one', () => {
      artwork.given([submitted]).when(edit).then([edited]);
      artwork.given([submitted, renditions]).when(edit).then([edited]);
      artwork.given([submitted, approved]).when(edit).thenFails(409, 'Artwork was already approved');
      artwork.given([submitted, rejected]).when(edit).thenFails(409, 'Artwork was already rejected');
    });

    it('withdraws an artwork in any state (archived too), once; renditions made later find it gone', () => {
      artwork.given([submitted, approved, archived]).when(withdraw).then([withdrawn]);
      artwork.given([submitted, rejected]).when(withdraw).then([withdrawn]);
      artwork.given([submitted, withdrawn]).when(withdraw).thenNothing();
      artwork.given([submitted, deleted]).when(withdraw).thenFails(404, 'Artwork not found');
      artwork
        .given([submitted, withdrawn])
        .when({ type: 'RecordRenditions', data: { display: image, thumbnail: thumb }, now })
        .thenFails(404, 'Artwork not found');
    });
  });
});

describe('an ArtworkSubmitted written before alt text (decision 122)', () => {
  const { altTextRef: _none, ...v2 } = { ...submission, submittedAt: now };
  it('is read as v3 with no alt text, never rewritten', () => {
    expect(registry.decode('ArtworkSubmitted', 2, v2).data).toEqual({ ...v2, altTextRef: null });
    const v1 = { ...submission, title: 'Cake', description: null, tags: null, artistName: 'Sam', submittedAt: now };
    const read = registry.decode('ArtworkSubmitted', 1, v1).data as Record<string, unknown>;
    expect(read).toMatchObject({ altTextRef: null, titleRef: null, inline: { title: 'Cake', artistName: 'Sam' } });
  });
});
