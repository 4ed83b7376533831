/**
 * Spec §4: the canvas has content once any pixel is not pure white. `rgba` is an ImageData's data
 * (four bytes a pixel), so a pixel is pure white only when all four bytes are 255: a transparent
 * pixel counts as content too, because that is not what the visitor sees as blank paper.
 */
export function hasContent(rgba: ArrayLike<number>): boolean {
  for (let i = 0; i < rgba.length; i++) {
    if (rgba[i] !== 255) return true;
  }
  return false;
}
