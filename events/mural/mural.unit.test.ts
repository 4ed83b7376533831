import { describe, it } from 'vitest';
import { spec } from '../../tests/support/decider.ts';
import { muralDecider, strokeDecider, type MuralEvent } from './mural.ts';

const now = '2026-11-26T10:00:00.000Z';
const locked: MuralEvent = { type: 'MuralLocked', data: { lockedAt: now } };
const unlocked: MuralEvent = { type: 'MuralUnlocked', data: { unlockedAt: now } };
const frozen: MuralEvent = { type: 'MuralFrozen', data: { artworkId: 9, strokeCount: 2, frozenAt: now } };

const stroke = { strokeId: 4, visitorId: 'v-1', tool: 'brush' as const, color: '#000', size: 4, opacity: 1 };
const points: Array<[number, number]> = [
  [1, 1],
  [2, 2],
];
const drawn = { type: 'MuralStrokeDrawn' as const, data: { ...stroke, points, drawnAt: now } } satisfies MuralEvent;
const erase = (visitorId: string | undefined, admin = false) => ({ type: 'Erase' as const, visitorId, admin, now });
const erasedBy = (by: 'author' | 'admin') =>
  ({ type: 'MuralStrokeErased' as const, data: { strokeId: 4, by, erasedAt: now } }) satisfies MuralEvent;

const mural = spec(muralDecider);
const strokes = spec(strokeDecider);

describe('mural decider (CONTRACT §8)', () => {
  it('locks and unlocks once each; the same twice is nothing', () => {
    mural.given([]).when({ type: 'Lock', now }).then([locked]);
    mural.given([locked]).when({ type: 'Lock', now }).thenNothing();
    mural.given([locked]).when({ type: 'Unlock', now }).then([unlocked]);
    mural.given([]).when({ type: 'Unlock', now }).thenNothing();
  });

  it('freezes with its artwork, and a frozen mural takes nothing more', () => {
    const freeze = { type: 'Freeze' as const, artworkId: 9, strokeCount: 2, now };
    mural.given([locked]).when(freeze).then([frozen]);
    mural.given([locked, frozen]).when({ type: 'Unlock', now }).thenFails(409, 'The mural is frozen', {
      state: 'frozen',
    });
    mural.given([locked, frozen]).when(freeze).thenFails(409, 'The mural is frozen');
  });
});

describe('mural stroke decider', () => {
  it('draws a stroke once, stamped with the command time', () => {
    strokes
      .given([])
      .when({ type: 'Draw', data: { ...stroke, points }, now })
      .then([drawn]);
    strokes
      .given([drawn])
      .when({ type: 'Draw', data: { ...stroke, points }, now })
      .thenFails(409, 'Stroke already exists');
  });

  it('is undone by its author or removed by an admin, once', () => {
    strokes
      .given([drawn])
      .when(erase('v-1'))
      .then([erasedBy('author')]);
    strokes
      .given([drawn])
      .when(erase('v-2', true))
      .then([erasedBy('admin')]);
    strokes.given([drawn]).when(erase('v-2')).thenFails(403, 'Only its author or an admin can remove a stroke');
    strokes
      .given([drawn])
      .when(erase(undefined))
      .thenFails(403, /author or an admin/);
    strokes
      .given([drawn, erasedBy('author')])
      .when(erase('v-1'))
      .thenFails(404, 'Stroke not found');
    strokes.given([]).when(erase('v-1', true)).thenFails(404, 'Stroke not found');
  });
});
