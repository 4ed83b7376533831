import { EVENT_WORDS } from '../../../../../contract/eventTypes.ts';
import type { Actor } from '../../../queries/audit.ts';

/** What an event says, in words an auditor reads at a glance; a type this app does not know yet is split into words. */
export function describeType(type: string): string {
  return (EVENT_WORDS as Record<string, string>)[type] ?? type.replace(/([a-z])([A-Z])/g, '$1 $2');
}

export function describeActor(actor: Actor): string {
  const role = actor.role === 'guest' ? 'a guest' : actor.role === 'system' ? 'the system' : `an ${actor.role}`;
  if (actor.role === 'admin' || actor.role === 'auditor') {
    return actor.name ? `${actor.name} (${actor.role})` : `${role} (no name given)`;
  }
  return role;
}

/** The item an event is about, as `{ kind, id }`, from its stream or its data. */
export function itemOf(streamId: string, data: Record<string, unknown>): { kind: string; id: number } | null {
  const own = /^(artwork|story|media)-(\d+)$/.exec(streamId);
  if (own) return { kind: own[1]!, id: Number(own[2]) };
  if (typeof data.kind === 'string' && typeof data.itemId === 'number') return { kind: data.kind, id: data.itemId };
  return null;
}

/**
 * The words an event carries: an admin's note, or a submission's text and title. These are personal
 * data beside the event (`personal`, by ref key, null once erased); events from before held them inline.
 */
export function noteOf(data: Record<string, unknown>, personal: Record<string, string | null> = {}): string | null {
  for (const key of ['adminNotes', 'content', 'title']) {
    const value = data[key] ?? personal[`${key}Ref`];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
