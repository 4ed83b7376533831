import { describe, expect, it } from 'vitest';
import type { MuralSnapshot, MuralStroke } from '../../../contract/mural.ts';
import { MuralModel, type MuralMessage } from './model.ts';

const stroke = (id: number, position: number, authorId = 'me'): MuralStroke => ({
  id,
  position,
  authorId,
  tool: 'brush',
  color: '#dc2626',
  size: 5,
  opacity: 100,
  points: [[id, id]],
});
const snapshot = (position: number, strokes: MuralStroke[]): MuralSnapshot => ({
  state: 'open',
  width: 1600,
  height: 800,
  strokes,
  position,
  authorId: 'me',
  artworkId: null,
});
const added = (s: MuralStroke): MuralMessage => ({
  event: 'mural:stroke-added',
  payload: { position: s.position, stroke: s },
});
const removed = (id: number, position: number): MuralMessage => ({
  event: 'mural:stroke-removed',
  payload: { position, id },
});

describe('MuralModel', () => {
  it('skips messages the snapshot already holds: a late joiner paints nothing twice', () => {
    const m = new MuralModel();
    expect(m.reset(snapshot(5, [stroke(1, 3), stroke(2, 5)]))).toEqual({ kind: 'all' });
    expect(m.apply(added(stroke(2, 5)))).toBeUndefined();
    expect(m.apply(removed(1, 4))).toBeUndefined();
    expect([...m.strokes.keys()]).toEqual([1, 2]);
    expect(m.apply(added(stroke(3, 6)))).toEqual({ kind: 'add', stroke: stroke(3, 6) });
    expect(m.apply(removed(1, 7))).toEqual({ kind: 'remove', stroke: stroke(1, 3) });
    expect([...m.strokes.keys()]).toEqual([2, 3]);
    expect(m.position).toBe(7);
  });

  it('lays live messages again on a snapshot that was older than them', () => {
    const m = new MuralModel();
    m.reset(snapshot(2, [stroke(1, 2)]));
    m.apply(added(stroke(2, 3)));
    m.apply(added(stroke(3, 4)));
    m.apply(removed(1, 5));
    // a refetch that left before the last two messages and answers after them
    m.reset(snapshot(3, [stroke(1, 2), stroke(2, 3)]));
    expect([...m.strokes.keys()]).toEqual([2, 3]);
    expect(m.position).toBe(5);
  });

  it('paints in log order whatever order the snapshot lists, and knows its own strokes', () => {
    const m = new MuralModel();
    m.reset(snapshot(9, [stroke(2, 8, 'them'), stroke(1, 4), stroke(3, 9)]));
    expect([...m.strokes.keys()]).toEqual([1, 2, 3]);
    expect(m.own().map((s) => s.id)).toEqual([1, 3]);
    expect(m.remove(3)).toMatchObject({ kind: 'remove' });
    expect(m.remove(3)).toBeUndefined();
  });

  it('follows the state', () => {
    const m = new MuralModel();
    m.reset(snapshot(1, []));
    expect(m.apply({ event: 'mural:state', payload: { position: 2, state: 'frozen', artworkId: 7 } })).toEqual({
      kind: 'state',
    });
    expect(m.state).toBe('frozen');
    expect(m.artworkId).toBe(7);
  });
});
