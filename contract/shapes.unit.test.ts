import { describe, expect, it } from 'vitest';
import { arrowBarbs, arrowHeadLength, arrowPath, distance, dragBox, starPoints, trianglePoints } from './shapes.ts';

describe('arrow', () => {
  it('draws the shaft, then both barbs through the tip', () => {
    const from = { x: 100, y: 100 };
    const to = { x: 300, y: 100 };
    const [left, right] = arrowBarbs(from, to, 5);
    expect(left.x).toBeCloseTo(300 - 15 * Math.cos(Math.PI / 6));
    expect(left.y).toBeCloseTo(100 + 15 * Math.sin(Math.PI / 6));
    expect(right.y).toBeCloseTo(100 - 15 * Math.sin(Math.PI / 6));
    expect(arrowPath(from, to, 5)).toMatch(/^M 100 100 L 300 100 M [\d.]+ [\d.]+ L 300 100 L [\d.]+ [\d.]+$/);
  });

  it('grows the head with the stroke, from 12 px, but not past the shaft', () => {
    expect(arrowHeadLength({ x: 0, y: 0 }, { x: 100, y: 0 }, 1)).toBe(12);
    expect(arrowHeadLength({ x: 0, y: 0 }, { x: 100, y: 0 }, 20)).toBe(60);
    expect(arrowHeadLength({ x: 0, y: 0 }, { x: 30, y: 40 }, 50)).toBe(50);
  });

  it('points the way it was dragged', () => {
    const [left, right] = arrowBarbs({ x: 0, y: 100 }, { x: 0, y: 0 }, 5);
    expect(left.y).toBeGreaterThan(0);
    expect(right.y).toBeGreaterThan(0);
  });
});

describe('closed shapes', () => {
  it('a star alternates outer and inner points, the first straight up', () => {
    const points = starPoints({ x: 400, y: 200 }, 100);
    expect(points).toHaveLength(10);
    expect(points[0]).toEqual({ x: 400, y: 100 });
    points.forEach((p, i) => expect(distance(p, { x: 400, y: 200 })).toBeCloseTo(i % 2 === 0 ? 100 : 50, 1));
  });

  it('a drag box is the same whichever corner the drag starts from', () => {
    const box = { left: 100, top: 50, width: 200, height: 100 };
    expect(dragBox({ x: 100, y: 50 }, { x: 300, y: 150 })).toEqual(box);
    expect(dragBox({ x: 300, y: 150 }, { x: 100, y: 50 })).toEqual(box);
  });

  it('a triangle stands upright in its box', () => {
    expect(trianglePoints({ x: 300, y: 300 }, { x: 500, y: 100 })).toEqual([
      { x: 400, y: 100 },
      { x: 500, y: 300 },
      { x: 300, y: 300 },
    ]);
  });
});
