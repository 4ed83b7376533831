import { createCanvas } from '@napi-rs/canvas';
import { paintRecording, type Paint2D } from '#contract/paint.ts';
import { MURAL_BACKGROUND, MURAL_HEIGHT, MURAL_WIDTH, muralToStroke, type MuralStrokeInput } from '#contract/mural.ts';

/**
 * The mural as a PNG, painted by the same code that paints it in every browser (contract/paint.ts)
 * on a skia canvas: what is frozen is what everyone saw.
 */
export function renderMural(strokes: readonly MuralStrokeInput[]): Buffer {
  const canvas = createCanvas(MURAL_WIDTH, MURAL_HEIGHT);
  const ctx = canvas.getContext('2d') as unknown as Paint2D;
  paintRecording(ctx, {
    version: 1,
    width: MURAL_WIDTH,
    height: MURAL_HEIGHT,
    background: MURAL_BACKGROUND,
    strokes: strokes.map(muralToStroke),
  });
  return canvas.toBuffer('image/png');
}
