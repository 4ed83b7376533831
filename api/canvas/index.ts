import { createCanvas } from '@napi-rs/canvas';
import { paintRecording, type Paint2D } from '#contract/paint.ts';
import type { StrokeRecording } from '#contract/strokes.ts';

/**
 * The one place @napi-rs/canvas (skia, as in Chromium) is used: a recording painted on the server by
 * the painter every browser uses (contract/paint.ts), at the recording's own size.
 */
function painted(recording: StrokeRecording) {
  const canvas = createCanvas(recording.width, recording.height);
  const ctx = canvas.getContext('2d');
  paintRecording(ctx as unknown as Paint2D, recording);
  return { canvas, ctx };
}

/** The recording's last frame as a PNG. */
export function paintPng(recording: StrokeRecording): Buffer {
  return painted(recording).canvas.toBuffer('image/png');
}

/** The recording's last frame as RGBA bytes, row by row (its paper is opaque). */
export function paintRgba(recording: StrokeRecording): Uint8ClampedArray {
  return painted(recording).ctx.getImageData(0, 0, recording.width, recording.height).data;
}
