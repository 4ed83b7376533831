import { MURAL_BACKGROUND, MURAL_HEIGHT, MURAL_WIDTH, muralToStroke, type MuralStrokeInput } from '#contract/mural.ts';
import type { StrokeRecording } from '#contract/strokes.ts';
import { differingShare } from './compare.ts';
import { paintPng, paintRgba } from './index.ts';

/** What the painters' threads are asked (api/canvas/painters.ts): each answer is a copy, never shared. */
export type PainterTask =
  /** the mural's strokes as JSON text (a string crosses threads as its bytes, no object cloning) */
  | { type: 'mural'; strokesJson: string }
  /** a drawing's recording against its image's RGBA pixels */
  | { type: 'mismatch'; recording: StrokeRecording; rgba: Uint8Array };

/**
 * The mural as a PNG, painted by the same code that paints it in every browser (contract/paint.ts)
 * on a skia canvas: what is frozen is what everyone saw.
 */
export function paintMuralPng(strokes: readonly MuralStrokeInput[]): Buffer {
  return paintPng({
    version: 1,
    width: MURAL_WIDTH,
    height: MURAL_HEIGHT,
    background: MURAL_BACKGROUND,
    strokes: strokes.map(muralToStroke),
  });
}

/** Runs one task in a painter thread (piscina's entry point). */
export default function paint(task: PainterTask): Uint8Array | number {
  if (task.type === 'mural') return paintMuralPng(JSON.parse(task.strokesJson) as MuralStrokeInput[]);
  const { recording, rgba } = task;
  return differingShare(paintRgba(recording), rgba, recording.width, recording.height);
}
