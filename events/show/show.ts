import { z } from 'zod';
import { REACTION_EMOJIS } from '#contract/live.ts';
import { DomainError } from '../errors.ts';
import type { Decider } from '../decider.ts';
import { defineEvent, type EventOf } from '../registry.ts';
import { ItemKind } from '../engagement/engagement.ts';

/** The one show: every presenter action is an event on this stream, so the reveal can be replayed (§6). */
export const SHOW_STREAM = 'show';
/** Reaction totals, one stream per item: appended without contention by whichever process counted them. */
export const reactionStream = (kind: ItemKind, id: number) => `reactions-${kind}-${id}`;

export const Emoji = z.enum(REACTION_EMOJIS);
export type Emoji = z.infer<typeof Emoji>;

/**
 * A submission, or what the show can also put up: the mural (`{ kind: 'mural', id: 1 }`, decision 046)
 * and the montage (`{ kind: 'montage', id: 1 }`, decision 125).
 */
const ShowItem = z.object({
  kind: z.enum([...ItemKind.options, 'mural', 'montage']),
  id: z.number().int().positive(),
});
export type ShowItem = z.infer<typeof ShowItem>;
const Items = z.array(ShowItem);

/** The presenter started a show over these items (the reveal's deck as it stood), at the first. */
export const ShowStarted = defineEvent('ShowStarted', z.object({ items: Items, index: z.number().int().min(0) }));
/** The presenter moved to another item (next, previous or go to): where the show now stands. */
export const ShowMoved = defineEvent(
  'ShowMoved',
  z.object({ action: z.enum(['next', 'prev', 'goto']), index: z.number().int().min(0), current: ShowItem }),
);
/** An item was put next (or, by go to, added and shown); the whole list after it, so the fold is a set. */
export const ShowItemQueued = defineEvent('ShowItemQueued', z.object({ item: ShowItem, items: Items }));
export const ShowPaused = defineEvent('ShowPaused', z.object({}));
export const ShowResumed = defineEvent('ShowResumed', z.object({}));
export const ShowStopped = defineEvent('ShowStopped', z.object({}));

/** Taps counted by one API process over a short while (docs/decisions/035): the log keeps the totals. */
export const ReactionsCounted = defineEvent(
  'ReactionsCounted',
  z.object({
    kind: ItemKind,
    itemId: z.number().int().positive(),
    counts: z.partialRecord(Emoji, z.number().int().positive()),
  }),
);

export const showEvents = [
  ShowStarted,
  ShowMoved,
  ShowItemQueued,
  ShowPaused,
  ShowResumed,
  ShowStopped,
  ReactionsCounted,
] as const;
type ShowEvent = EventOf<Exclude<(typeof showEvents)[number], typeof ReactionsCounted>>;

export type ShowState = 'idle' | 'running' | 'paused';
export interface Show {
  state: ShowState;
  items: ShowItem[];
  index: number;
}

export const sameItem = (a: ShowItem, b: ShowItem) => a.kind === b.kind && a.id === b.id;

export type ShowCommand =
  | { type: 'start'; items: ShowItem[] }
  | { type: 'pause' | 'resume' | 'stop' }
  /** `from`: the index the presenter saw; a move from an index the show has left is already made */
  | { type: 'next' | 'prev'; from?: number }
  /** `approved`: whether the item may be shown; an item the show already holds may always be shown */
  | { type: 'goto' | 'queue'; item: ShowItem; approved: boolean };

export const NOT_RUNNING = 'The show is not running';

export function evolveShow(show: Show, event: ShowEvent): Show {
  switch (event.type) {
    case 'ShowStarted':
      return { state: 'running', items: event.data.items, index: event.data.index };
    case 'ShowMoved':
      return { ...show, index: event.data.index };
    case 'ShowItemQueued':
      return { ...show, items: event.data.items };
    case 'ShowPaused':
      return { ...show, state: 'paused' };
    case 'ShowResumed':
      return { ...show, state: 'running' };
    case 'ShowStopped':
      return { state: 'idle', items: [], index: 0 };
  }
}

/**
 * The presenter's rules. Moves stay inside the list (next on the last item and previous on the first
 * change nothing); the same pause, resume or move twice is one event (a next or prev that says
 * `from` which index is one move, however often it is sent); everything but start needs a
 * show (409), and start needs none.
 */
export const showDecider: Decider<Show, ShowEvent, ShowCommand> = {
  initial: { state: 'idle', items: [], index: 0 },
  evolve: evolveShow,
  decide(command, show) {
    if (command.type === 'start') {
      if (show.state !== 'idle') throw new DomainError(409, 'The show is already running');
      if (command.items.length === 0) throw new DomainError(409, 'There is nothing to show yet');
      return [{ type: 'ShowStarted', data: { items: command.items, index: 0 } }];
    }
    if (show.state === 'idle') throw new DomainError(409, NOT_RUNNING);
    const moveTo = (action: 'next' | 'prev' | 'goto', index: number): ShowEvent[] =>
      index === show.index ? [] : [{ type: 'ShowMoved', data: { action, index, current: show.items[index]! } }];
    switch (command.type) {
      case 'next':
        // the same press twice (a double tap, two screens' keys, a retry) is one move
        if (command.from !== undefined && command.from !== show.index) return [];
        return moveTo('next', Math.min(show.index + 1, show.items.length - 1));
      case 'prev':
        if (command.from !== undefined && command.from !== show.index) return [];
        return moveTo('prev', Math.max(show.index - 1, 0));
      case 'pause':
        return show.state === 'paused' ? [] : [{ type: 'ShowPaused', data: {} }];
      case 'resume':
        return show.state === 'running' ? [] : [{ type: 'ShowResumed', data: {} }];
      case 'stop':
        return [{ type: 'ShowStopped', data: {} }];
      case 'goto': {
        const at = show.items.findIndex((i) => sameItem(i, command.item));
        if (at >= 0) return moveTo('goto', at);
        if (!command.approved) throw new DomainError(404, 'Item not found');
        const items = show.items.toSpliced(show.index + 1, 0, command.item);
        const index = show.index + 1;
        return [
          { type: 'ShowItemQueued', data: { item: command.item, items } },
          { type: 'ShowMoved', data: { action: 'goto', index, current: command.item } },
        ];
      }
      case 'queue': {
        if (!command.approved) throw new DomainError(404, 'Item not found');
        const at = show.items.findIndex((i, n) => n > show.index && sameItem(i, command.item));
        if (at === show.index + 1) return [];
        // an item still to come moves up; one already shown (or the current one) is shown again
        const rest = at > show.index ? show.items.toSpliced(at, 1) : show.items;
        const items = rest.toSpliced(show.index + 1, 0, command.item);
        return [{ type: 'ShowItemQueued', data: { item: command.item, items } }];
      }
    }
  },
};
