/**
 * Paints recorded strokes (contract/strokes.ts) on a 2D canvas context. The one painter of freehand
 * strokes for the browser (the mural, the audit console's mural, and the brush and eraser strokes of a
 * drawing's replay, web/src/drawing/replay.ts) and the server (freezing the mural into an image with
 * @napi-rs/canvas), so what is frozen is what everyone saw. The replay draws the studio's spray and
 * shapes itself: the mural has neither. Plain TypeScript over the standard CanvasRenderingContext2D
 * calls, with no DOM, so both sides can run it.
 */
import type { Stroke, StrokeRecording } from './strokes.ts';

/** The part of CanvasRenderingContext2D the painter uses (the browser's and @napi-rs/canvas's both fit). */
export interface Paint2D {
  globalAlpha: number;
  globalCompositeOperation: string;
  strokeStyle: unknown;
  fillStyle: unknown;
  lineWidth: number;
  lineCap: string;
  lineJoin: string;
  save(): void;
  restore(): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  quadraticCurveTo(cpx: number, cpy: number, x: number, y: number): void;
  arc(x: number, y: number, radius: number, startAngle: number, endAngle: number): void;
  stroke(): void;
  fill(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
}

/** How many of a stroke's points are drawn by `upToMs` after it began (all without it). */
function pointsUpTo(points: readonly number[], upToMs?: number): number {
  const n = points.length / 3;
  if (upToMs === undefined) return n;
  let count = 0;
  while (count < n && points[count * 3 + 2]! <= upToMs) count++;
  return count;
}

/**
 * Paints one freehand stroke (brush, eraser, spray): a brush is one round path through the
 * midpoints of its points, so a fast scribble stays smooth and a tap is a dot; the eraser paints the
 * paper colour at full strength; a spray's points are its dots. Other tools are not painted here.
 */
export function paintStroke(ctx: Paint2D, stroke: Stroke, background: string, upToMs?: number): void {
  const { points } = stroke;
  const n = pointsUpTo(points, upToMs);
  if (n === 0) return;
  const x = (i: number) => points[i * 3]!;
  const y = (i: number) => points[i * 3 + 1]!;
  ctx.save();
  const eraser = stroke.tool === 'eraser';
  const colour = eraser ? background : stroke.color;
  ctx.globalAlpha = eraser ? 1 : Math.min(1, Math.max(0, stroke.opacity / 100));
  ctx.globalCompositeOperation = 'source-over';
  if (stroke.tool === 'spray') {
    ctx.fillStyle = colour;
    const r = Math.max(1, stroke.size / 10) / 2;
    for (let i = 0; i < n; i++) {
      ctx.beginPath();
      ctx.arc(x(i), y(i), r, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.restore();
    return;
  }
  if (stroke.tool !== 'brush' && !eraser) {
    ctx.restore();
    return;
  }
  if (n === 1) {
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x(0), y(0), stroke.size / 2, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
    return;
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = stroke.size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(x(0), y(0));
  for (let i = 1; i < n - 1; i++) {
    ctx.quadraticCurveTo(x(i), y(i), (x(i) + x(i + 1)) / 2, (y(i) + y(i + 1)) / 2);
  }
  ctx.lineTo(x(n - 1), y(n - 1));
  ctx.stroke();
  ctx.restore();
}

/** Paints a whole recording from blank paper: the paper colour, then each stroke in order. */
export function paintRecording(ctx: Paint2D, recording: StrokeRecording): void {
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  ctx.fillStyle = recording.background;
  ctx.fillRect(0, 0, recording.width, recording.height);
  ctx.restore();
  for (const stroke of recording.strokes) paintStroke(ctx, stroke, recording.background);
}
