import type { DescribedEventType } from '#contract/eventTypes.ts';
import { artworkEvents } from './artworks/artwork.ts';
import { engagementEvents } from './engagement/engagement.ts';
import { mediaEvents } from './media/media.ts';
import { muralEvents } from './mural/mural.ts';
import { showEvents } from './show/show.ts';
import { EventRegistry, type EventOf } from './registry.ts';
import { storyEvents } from './stories/story.ts';

/** Every event type the log may hold. */
export const allEvents = [
  ...artworkEvents,
  ...storyEvents,
  ...mediaEvents,
  ...engagementEvents,
  ...showEvents,
  ...muralEvents,
] as const;
export const registry = new EventRegistry(allEvents);
export type DomainEvent = EventOf<(typeof allEvents)[number]>;
export type EventType = DomainEvent['type'];

/** Fails to compile when a registered type has no words in the audit console (contract/eventTypes.ts). */
type Undescribed = Exclude<EventType, DescribedEventType>;
export const everyTypeDescribed: [Undescribed] extends [never] ? true : Undescribed = true;
