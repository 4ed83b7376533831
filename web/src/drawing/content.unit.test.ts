import { describe, expect, it } from 'vitest';
import { hasContent } from './content.ts';

const WHITE = [255, 255, 255, 255];

function pixels(...colours: number[][]): Uint8ClampedArray {
  return new Uint8ClampedArray(colours.flat());
}

describe('hasContent (spec §4)', () => {
  it('is false for a canvas of pure white pixels, and for no pixels at all', () => {
    expect(hasContent(pixels(WHITE, WHITE, WHITE))).toBe(false);
    expect(hasContent(new Uint8ClampedArray(800 * 400 * 4).fill(255))).toBe(false);
    expect(hasContent(pixels())).toBe(false);
  });

  it('is true once a single pixel is not pure white', () => {
    const canvas = new Uint8ClampedArray(800 * 400 * 4).fill(255);
    canvas[(399 * 800 + 799) * 4 + 2] = 254;
    expect(hasContent(canvas)).toBe(true);
    expect(hasContent(pixels(WHITE, [0, 0, 0, 255]))).toBe(true);
    expect(hasContent(pixels([255, 254, 255, 255]))).toBe(true);
  });

  it('counts a transparent pixel as content', () => {
    expect(hasContent(pixels(WHITE, [255, 255, 255, 0]))).toBe(true);
  });
});
