import { z } from 'zod';
import { DomainError } from '../errors.ts';
import type { Decider } from '../decider.ts';
import { defineEvent, type EventOf } from '../registry.ts';

/**
 * The mural (CONTRACT §8). Its state (open, locked, frozen) is one small stream; every stroke is a
 * stream of its own, so fifty people drawing at once never contend for one stream's version, and
 * deciding on a stroke reads two events at most (docs/decisions/038).
 */
export const MURAL_STREAM = 'mural';
export const muralStrokeStream = (strokeId: number) => `mural-stroke-${strokeId}`;

const strokeId = z.number().int().positive();
const point = z.tuple([z.number(), z.number()]);

export const MuralStrokeDrawn = defineEvent(
  'MuralStrokeDrawn',
  z.object({
    strokeId,
    /** the author's visitor id (the browser's, across logins): whose undo it is */
    visitorId: z.string(),
    tool: z.enum(['brush', 'eraser']),
    color: z.string(),
    size: z.number(),
    opacity: z.number(),
    points: z.array(point),
    drawnAt: z.iso.datetime(),
  }),
);
export const MuralStrokeErased = defineEvent(
  'MuralStrokeErased',
  z.object({ strokeId, by: z.enum(['author', 'admin']), erasedAt: z.iso.datetime() }),
);
export const MuralLocked = defineEvent('MuralLocked', z.object({ lockedAt: z.iso.datetime() }));
export const MuralUnlocked = defineEvent('MuralUnlocked', z.object({ unlockedAt: z.iso.datetime() }));
export const MuralFrozen = defineEvent(
  'MuralFrozen',
  z.object({
    artworkId: z.number().int().positive(),
    strokeCount: z.number().int().nonnegative(),
    frozenAt: z.iso.datetime(),
  }),
);

export const muralEvents = [MuralStrokeDrawn, MuralStrokeErased, MuralLocked, MuralUnlocked, MuralFrozen] as const;
export type MuralEvent = EventOf<(typeof muralEvents)[number]>;
type StateEvent = EventOf<typeof MuralLocked | typeof MuralUnlocked | typeof MuralFrozen>;
type StrokeEvent = EventOf<typeof MuralStrokeDrawn | typeof MuralStrokeErased>;

export type MuralState = 'open' | 'locked' | 'frozen';
export type MuralCommand =
  { type: 'Lock' | 'Unlock'; now: string } | { type: 'Freeze'; artworkId: number; strokeCount: number; now: string };

export const muralDecider: Decider<MuralState, StateEvent, MuralCommand> = {
  initial: 'open',
  evolve(state, event) {
    switch (event.type) {
      case 'MuralLocked':
        return 'locked';
      case 'MuralUnlocked':
        return 'open';
      case 'MuralFrozen':
        return 'frozen';
      default:
        return state;
    }
  },
  decide(command, state) {
    if (state === 'frozen') throw new DomainError(409, 'The mural is frozen', { state });
    switch (command.type) {
      case 'Lock':
        return state === 'locked' ? [] : [{ type: 'MuralLocked', data: { lockedAt: command.now } }];
      case 'Unlock':
        return state === 'open' ? [] : [{ type: 'MuralUnlocked', data: { unlockedAt: command.now } }];
      case 'Freeze':
        return [
          {
            type: 'MuralFrozen',
            data: { artworkId: command.artworkId, strokeCount: command.strokeCount, frozenAt: command.now },
          },
        ];
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },
};

/** 409 unless the mural is open: what every stroke and undo asks first. */
export function requireOpen(state: MuralState) {
  if (state === 'locked') throw new DomainError(409, 'The mural is locked', { state });
  if (state === 'frozen') throw new DomainError(409, 'The mural is frozen', { state });
}

type Stroke =
  | { exists: false }
  /** `points`: how many it has, what an undo gives back to the mural's budget (decision 069) */
  | { exists: true; strokeId: number; visitorId: string; points: number; erased: boolean };
export type StrokeCommand =
  | { type: 'Draw'; data: Omit<z.infer<typeof MuralStrokeDrawn.schema>, 'drawnAt'>; now: string }
  | { type: 'Erase'; visitorId: string | undefined; admin: boolean; now: string };

export const strokeDecider: Decider<Stroke, StrokeEvent, StrokeCommand> = {
  initial: { exists: false },
  evolve(state, event) {
    if (event.type === 'MuralStrokeDrawn') {
      const { strokeId, visitorId, points } = event.data;
      return { exists: true, strokeId, visitorId, points: points.length, erased: false };
    }
    return state.exists ? { ...state, erased: true } : state;
  },
  decide(command, state) {
    if (command.type === 'Draw') {
      if (state.exists) throw new DomainError(409, 'Stroke already exists');
      return [{ type: 'MuralStrokeDrawn', data: { ...command.data, drawnAt: command.now } }];
    }
    if (!state.exists || state.erased) throw new DomainError(404, 'Stroke not found');
    const own = command.visitorId !== undefined && command.visitorId === state.visitorId;
    if (!own && !command.admin) throw new DomainError(403, 'Only its author or an admin can remove a stroke');
    return [
      {
        type: 'MuralStrokeErased',
        data: { strokeId: state.strokeId, by: own ? 'author' : 'admin', erasedAt: command.now },
      },
    ];
  },
};
