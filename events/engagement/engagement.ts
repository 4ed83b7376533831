import { z } from 'zod';
import { KINDS } from '#contract/views.ts';
import { DomainError } from '../errors.ts';
import type { Decider } from '../decider.ts';
import { Inline, inlineToRefs, PERSONAL_FIELDS, PersonalRef } from '../personal.ts';
import { defineEvent, type EventOf } from '../registry.ts';

export const ItemKind = z.enum(KINDS);
export type ItemKind = z.infer<typeof ItemKind>;
const itemId = z.number().int().positive();

/**
 * One like stream per visitor and item, so concurrent likes of one item never contend, and the
 * stream's version makes a visitor's repeated like a no-op exactly once.
 */
export const likeStream = (kind: ItemKind, id: number, visitorKey: string) => `like-${kind}-${id}-${visitorKey}`;
/** One view stream per visitor and item: a view counts once per visitor, however often they look. */
export const viewStream = (kind: ItemKind, id: number, visitorKey: string) => `view-${kind}-${id}-${visitorKey}`;
/** One stream per comment: comments on a busy item never conflict with each other. */
export const commentStream = (commentId: number) => `comment-${commentId}`;

export const ItemLiked = defineEvent('ItemLiked', z.object({ kind: ItemKind, itemId, visitorKey: z.string() }));
export const ItemUnliked = defineEvent('ItemUnliked', z.object({ kind: ItemKind, itemId, visitorKey: z.string() }));
const postedFields = {
  kind: ItemKind,
  itemId,
  commentId: z.number().int().positive(),
  postedAt: z.iso.datetime(),
};
/** v1: the commenter's name and words inline in the log (before decision 050). */
export const CommentPostedV1 = z.object({ ...postedFields, authorName: z.string(), content: z.string() });
/** v2: the commenter's name and words are personal data, erasable; the event holds their refs. */
export const CommentPosted = defineEvent(
  'CommentPosted',
  z.object({
    ...postedFields,
    authorNameRef: PersonalRef.nullable(),
    contentRef: PersonalRef.nullable(),
    inline: Inline,
  }),
  { version: 2, upcasters: { 1: inlineToRefs(PERSONAL_FIELDS.CommentPosted) }, legacy: { 1: CommentPostedV1 } },
);
export const CommentRemoved = defineEvent(
  'CommentRemoved',
  z.object({ kind: ItemKind, itemId, commentId: z.number().int().positive(), removedAt: z.iso.datetime() }),
);

/** A visitor opened the item's detail page (the first-party replacement for third-party analytics). */
export const ItemViewed = defineEvent('ItemViewed', z.object({ kind: ItemKind, itemId, visitorKey: z.string() }));

export const engagementEvents = [ItemLiked, ItemUnliked, CommentPosted, CommentRemoved, ItemViewed] as const;
type LikeEvent = EventOf<typeof ItemLiked | typeof ItemUnliked>;
type ViewEvent = EventOf<typeof ItemViewed>;
type CommentEvent = EventOf<typeof CommentPosted | typeof CommentRemoved>;

type Target = { kind: ItemKind; itemId: number; visitorKey: string };
export type LikeCommand = { type: 'Like' | 'Unlike'; target: Target };

export const likeDecider: Decider<boolean, LikeEvent, LikeCommand> = {
  initial: false,
  evolve: (_liked, event) => event.type === 'ItemLiked',
  decide(command, liked) {
    const wantLiked = command.type === 'Like';
    if (liked === wantLiked) return [];
    return [{ type: wantLiked ? 'ItemLiked' : 'ItemUnliked', data: command.target }];
  },
};

export const viewDecider: Decider<boolean, ViewEvent, { type: 'View'; target: Target }> = {
  initial: false,
  evolve: () => true,
  decide: (command, viewed) => (viewed ? [] : [{ type: 'ItemViewed', data: command.target }]),
};

type Comment =
  { exists: false } | { exists: true; kind: ItemKind; itemId: number; commentId: number; removed: boolean };
export type CommentCommand =
  | { type: 'PostComment'; data: Omit<z.infer<typeof CommentPosted.schema>, 'postedAt' | 'inline'>; now: string }
  | { type: 'RemoveComment'; now: string };

export const commentDecider: Decider<Comment, CommentEvent, CommentCommand> = {
  initial: { exists: false },
  evolve(state, event) {
    if (event.type === 'CommentPosted') return { exists: true, ...event.data, removed: false };
    return state.exists ? { ...state, removed: true } : state;
  },
  decide(command, state) {
    if (command.type === 'PostComment') {
      if (state.exists) throw new DomainError(409, 'Comment already exists');
      return [{ type: 'CommentPosted', data: { ...command.data, postedAt: command.now } }];
    }
    if (!state.exists || state.removed) throw new DomainError(404, 'Comment not found');
    const { kind, itemId, commentId } = state;
    return [{ type: 'CommentRemoved', data: { kind, itemId, commentId, removedAt: command.now } }];
  },
};
