import { MURAL_BACKGROUND, MURAL_HEIGHT, MURAL_WIDTH, muralToStroke, type MuralStrokeInput } from '#contract/mural.ts';
import { paintPng } from '../canvas/index.ts';

/**
 * The mural as a PNG, painted by the same code that paints it in every browser (contract/paint.ts)
 * on a skia canvas: what is frozen is what everyone saw.
 */
export function renderMural(strokes: readonly MuralStrokeInput[]): Buffer {
  return paintPng({
    version: 1,
    width: MURAL_WIDTH,
    height: MURAL_HEIGHT,
    background: MURAL_BACKGROUND,
    strokes: strokes.map(muralToStroke),
  });
}
