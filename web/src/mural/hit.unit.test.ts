import { describe, expect, it } from 'vitest';
import type { MuralStroke } from '../../../contract/mural.ts';
import { strokeAt } from './hit.ts';

const stroke = (id: number, points: Array<[number, number]>, tool: 'brush' | 'eraser' = 'brush'): MuralStroke => ({
  id,
  tool,
  color: '#000000',
  size: 10,
  opacity: 100,
  points,
  authorId: 'v',
  position: id,
});

describe('strokeAt: the stroke a moderator taps', () => {
  const under = stroke(1, [
    [0, 100],
    [400, 100],
  ]);
  const over = stroke(2, [
    [200, 0],
    [200, 400],
  ]);
  const eraser = stroke(
    3,
    [
      [0, 100],
      [400, 100],
    ],
    'eraser',
  );

  it('finds the topmost stroke whose ink passes near the tap', () => {
    expect(strokeAt([under, over], [200, 100], 0)?.id).toBe(2);
    expect(strokeAt([under, over], [100, 104], 0)?.id).toBe(1);
  });
  it('counts the slack beyond the ink, and nothing further', () => {
    expect(strokeAt([under], [100, 112], 0)).toBeUndefined();
    expect(strokeAt([under], [100, 112], 8)?.id).toBe(1);
  });
  it('passes over eraser strokes and finds a single dot', () => {
    expect(strokeAt([under, eraser], [100, 100], 0)?.id).toBe(1);
    expect(strokeAt([stroke(4, [[50, 50]])], [52, 52], 0)?.id).toBe(4);
  });
});
