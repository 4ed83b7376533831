import { paintRecording, type Paint2D } from '../../../contract/paint.ts';
import { strokesDuration, type StrokeRecording } from '../../../contract/strokes.ts';

/** A replay never takes longer than this: a slow drawing is sped up to fit. */
export const LONGEST_REPLAY_MS = 12_000;

/** How fast a recording plays so that it lasts at most LONGEST_REPLAY_MS. */
export const replaySpeed = (recording: StrokeRecording) => Math.max(1, strokesDuration(recording) / LONGEST_REPLAY_MS);

/**
 * The whole recording as it stood `at` ms into it, from a blank page, painted by the one painter
 * (contract/paint.ts) that the server also uses to hold the recording to the drawing's image.
 */
export function drawRecording(ctx: CanvasRenderingContext2D, recording: StrokeRecording, at: number) {
  paintRecording(ctx as CanvasRenderingContext2D & Paint2D, recording, at);
}
