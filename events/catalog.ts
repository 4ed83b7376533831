import type { DescribedEventType } from '#contract/eventTypes.ts';
import type { z } from 'zod';
import { ArtworkSubmittedV1, artworkEvents } from './artworks/artwork.ts';
import { CommentPostedV1, engagementEvents } from './engagement/engagement.ts';
import { MediaSubmittedV1, mediaEvents } from './media/media.ts';
import { muralEvents } from './mural/mural.ts';
import { showEvents } from './show/show.ts';
import { EventRegistry, type EventOf } from './registry.ts';
import { StorySubmittedV1, storyEvents } from './stories/story.ts';
import { subjectEvents } from './subjects/subject.ts';

/** Every event type the log may hold. */
export const allEvents = [
  ...artworkEvents,
  ...storyEvents,
  ...mediaEvents,
  ...engagementEvents,
  ...showEvents,
  ...muralEvents,
  ...subjectEvents,
] as const;
export const registry = new EventRegistry(allEvents);
export type DomainEvent = EventOf<(typeof allEvents)[number]>;
export type EventType = DomainEvent['type'];

/**
 * An event as the log held it before names and free text left it (schema v1, decision 050): only
 * tests and benches write these, to stand for an older log; they are read through the upcasters.
 */
export type LegacyEvent =
  | { type: 'ArtworkSubmitted'; schemaVersion: 1; data: z.input<typeof ArtworkSubmittedV1> }
  | { type: 'MediaSubmitted'; schemaVersion: 1; data: z.input<typeof MediaSubmittedV1> }
  | { type: 'StorySubmitted'; schemaVersion: 1; data: z.input<typeof StorySubmittedV1> }
  | { type: 'CommentPosted'; schemaVersion: 1; data: z.input<typeof CommentPostedV1> }
  | ReviewedV1<'Artwork', 'artworkId'>
  | ReviewedV1<'Story', 'storyId'>
  | ReviewedV1<'Media', 'mediaId'>;

/** A decision as v1 held it, its note inline (before decision 090). */
type ReviewedV1<Noun extends string, Id extends string> =
  | {
      type: `${Noun}Approved`;
      schemaVersion: 1;
      data: Record<Id, number> & { adminNotes: string | null; approvedAt: string };
    }
  | {
      type: `${Noun}Rejected`;
      schemaVersion: 1;
      data: Record<Id, number> & { adminNotes: string | null; rejectedAt: string };
    };

/** Fails to compile when a registered type has no words in the audit console (contract/eventTypes.ts). */
type Undescribed = Exclude<EventType, DescribedEventType>;
export const everyTypeDescribed: [Undescribed] extends [never] ? true : Undescribed = true;
