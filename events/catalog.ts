import { EventRegistry, type EventOf } from './registry.ts';
import { artworkEvents } from './artworks/artwork.ts';

/** Every event type the log may hold. */
export const allEvents = [...artworkEvents] as const;
export const registry = new EventRegistry(allEvents);
export type DomainEvent = EventOf<(typeof allEvents)[number]>;
export type EventType = DomainEvent['type'];
