/** Pixels are compared as the averages of BLOCK x BLOCK squares: a JPEG keeps colour at half size (066). */
export const BLOCK = 4;
/** A square differs when one of its channels is off by more than this, on 0-255 (decision 066). */
export const CHANNEL_TOLERANCE = 48;

/**
 * The share of pixels that differ between two RGBA pictures of `width` x `height` (alpha is not
 * compared: both are opaque): both averaged over
 * BLOCK x BLOCK squares (a square cut by the edge averages what it holds), a square differing when
 * one of its channels is off by more than CHANNEL_TOLERANCE, and each pixel counting as its square.
 */
export function differingShare(a: ArrayLike<number>, b: ArrayLike<number>, width: number, height: number): number {
  let differing = 0;
  const sums = new Float64Array(Math.ceil(width / BLOCK) * 3);
  for (let top = 0; top < height; top += BLOCK) {
    const bottom = Math.min(height, top + BLOCK);
    sums.fill(0);
    for (let y = top; y < bottom; y++) {
      for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
        const s = Math.floor(x / BLOCK) * 3;
        sums[s]! += a[i]! - b[i]!;
        sums[s + 1]! += a[i + 1]! - b[i + 1]!;
        sums[s + 2]! += a[i + 2]! - b[i + 2]!;
      }
    }
    for (let left = 0; left < width; left += BLOCK) {
      const right = Math.min(width, left + BLOCK);
      const pixels = (right - left) * (bottom - top);
      const s = (left / BLOCK) * 3;
      const limit = CHANNEL_TOLERANCE * pixels;
      if (Math.abs(sums[s]!) > limit || Math.abs(sums[s + 1]!) > limit || Math.abs(sums[s + 2]!) > limit)
        differing += pixels;
    }
  }
  return differing / (width * height);
}
