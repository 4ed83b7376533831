import { describe, expect, it } from 'vitest';
import { BLOCK, CHANNEL_TOLERANCE, differingShare } from './compare.ts';

const W = 800;
const H = 400;
const paper = (value = 255) => new Uint8Array(W * H * 4).fill(value);
function paint(pixels: Uint8Array, left: number, top: number, size: number, rgb: [number, number, number]) {
  for (let y = top; y < top + size; y++) for (let x = left; x < left + size; x++) pixels.set(rgb, (y * W + x) * 4);
  return pixels;
}

describe('how many pixels differ (decision 066)', () => {
  it('counts the pixels of the squares that differ', () => {
    expect(differingShare(paper(), paper(), W, H)).toBe(0);
    // a 40x40 mark on whole squares: 1,600 of 320,000 pixels
    expect(differingShare(paint(paper(), 100, 100, 40, [220, 38, 38]), paper(), W, H)).toBe(0.005);
    // off the grid it touches the squares around it too
    expect(differingShare(paint(paper(), 101, 101, 40, [220, 38, 38]), paper(), W, H)).toBeCloseTo((44 * 44) / (W * H));
  });

  it("holds each square's average to the tolerance in every channel", () => {
    expect(BLOCK).toBe(4);
    expect(differingShare(paper(255 - CHANNEL_TOLERANCE), paper(), W, H)).toBe(0);
    expect(differingShare(paper(255 - CHANNEL_TOLERANCE - 1), paper(), W, H)).toBe(1);
    // one black pixel in a square of white is a 16th of it: not a difference anyone sees
    expect(differingShare(paint(paper(), 10, 10, 1, [0, 0, 0]), paper(), W, H)).toBe(0);
    // a blue mark differs in one channel only
    expect(differingShare(paint(paper(), 0, 0, 4, [255, 255, 0]), paper(), W, H)).toBe(16 / (W * H));
  });

  it('averages what a square cut by the edge holds', () => {
    const a = new Uint8Array(5 * 5 * 4).fill(255);
    const b = new Uint8Array(5 * 5 * 4).fill(255);
    b.set([0, 0, 0], (4 * 5 + 4) * 4); // the corner square is that one pixel
    expect(differingShare(a, b, 5, 5)).toBe(1 / 25);
  });
});
