import type { StrokeRecording } from '#contract/strokes.ts';
import { mismatchOffTheLoop } from '../canvas/painters.ts';
import { HttpError } from '../http/errors.ts';
import { rgbaPixels, type NormalisedImage } from '../images/index.ts';

/** CONTRACT §9: a recording whose last frame differs from its image in more of its pixels is refused. */
export const MOST_PIXELS_DIFFERING = 0.02;

/**
 * How much of the image a recording's last frame, painted by the replays' painter, gets wrong (0-1),
 * painted and compared in a painter thread (decision 096).
 */
export async function recordingMismatch(recording: StrokeRecording, image: NormalisedImage): Promise<number> {
  const { width, height } = recording;
  if (image.width !== width || image.height !== height) return 1;
  return mismatchOffTheLoop(recording, await rgbaPixels(image.buffer));
}

/** Refuses (400) a recording that does not end on its drawing: the room would see what no admin saw. */
export async function holdRecordingToImage(recording: StrokeRecording, image: NormalisedImage): Promise<void> {
  if ((await recordingMismatch(recording, image)) > MOST_PIXELS_DIFFERING) {
    const message = 'The recording does not match the drawing';
    throw new HttpError(400, message, { errors: [{ path: 'strokes', message }] });
  }
}
