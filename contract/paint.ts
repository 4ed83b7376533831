/**
 * Paints recorded strokes (contract/strokes.ts) on a 2D canvas context: the one painter of every
 * stroke, in the browser (the mural, the audit console's mural, a drawing's replay on the detail page,
 * the show and the admin queue) and on the server (freezing the mural into an image, and checking that
 * a drawing's recording ends on its image, both with @napi-rs/canvas). So what is frozen is what
 * everyone saw, and what a replay shows is what the admin approved (CONTRACT §9, decision 066).
 *
 * It paints each tool as the studio's Fabric objects paint themselves (Fabric 7: web/src/drawing/
 * fabricTools.ts), so a recording's last frame is the drawing: the pencil's smooth path, the spray's
 * square dots, and the shapes' outlines and fills at the object's opacity. Plain TypeScript over the
 * standard CanvasRenderingContext2D calls, with no DOM, so both sides can run it.
 */
import { arrowPoints, distance, dragBox, starPoints, trianglePoints, type Point } from './shapes.ts';
import { SPRAY_DOT, type Stroke, type StrokeRecording } from './strokes.ts';

/** The part of CanvasRenderingContext2D the painter uses (the browser's and @napi-rs/canvas's both fit). */
export interface Paint2D {
  globalAlpha: number;
  globalCompositeOperation: string;
  strokeStyle: unknown;
  fillStyle: unknown;
  lineWidth: number;
  lineCap: string;
  lineJoin: string;
  miterLimit: number;
  save(): void;
  restore(): void;
  beginPath(): void;
  closePath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  quadraticCurveTo(cpx: number, cpy: number, x: number, y: number): void;
  arc(x: number, y: number, radius: number, startAngle: number, endAngle: number): void;
  stroke(): void;
  fill(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
}

/** Fabric's default `strokeMiterLimit`: a sharper corner of a shape's outline is bevelled. */
const MITER_LIMIT = 4;

/** '#rrggbb' at an opacity in percent, as a CSS colour: how the studio's brushes carry their opacity. */
export function withOpacity(hex: string, opacity: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${opacity / 100})`;
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
 * A brush or eraser stroke, as Fabric's pencil draws its path (getSmoothPathFromPoints): from the
 * first point, a quadratic curve to each midpoint with the point before it as control, then a straight
 * line to the last point; round caps and joins. One point is a dot.
 */
function paintPencil(ctx: Paint2D, stroke: Stroke, colour: string, n: number) {
  const { points } = stroke;
  const x = (i: number) => points[i * 3]!;
  const y = (i: number) => points[i * 3 + 1]!;
  if (n === 1) {
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x(0), y(0), stroke.size / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = stroke.size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(x(0), y(0));
  for (let i = 1; i < n; i++) {
    if (x(i - 1) === x(i) && y(i - 1) === y(i)) continue;
    ctx.quadraticCurveTo(x(i - 1), y(i - 1), (x(i - 1) + x(i)) / 2, (y(i - 1) + y(i)) / 2);
  }
  ctx.lineTo(x(n - 1), y(n - 1));
  ctx.stroke();
}

/** A spray's dots: SPRAY_DOT squares, each in the spray's colour, so overlapping dots darken. */
function paintSpray(ctx: Paint2D, stroke: Stroke, colour: string, n: number) {
  ctx.fillStyle = colour;
  for (let i = 0; i < n; i++) ctx.fillRect(stroke.points[i * 3]!, stroke.points[i * 3 + 1]!, SPRAY_DOT, SPRAY_DOT);
}

/**
 * A shape dragged from its first point to its last, grown to `share` of the drag: its fill, then its
 * outline over it, both at the shape's opacity (a Fabric object's opacity, drawn without a cache).
 */
function paintShape(ctx: Paint2D, stroke: Stroke, share: number) {
  const { points } = stroke;
  const from: Point = { x: points[0]!, y: points[1]! };
  const end: Point = { x: points.at(-3)!, y: points.at(-2)! };
  const to: Point = { x: from.x + (end.x - from.x) * share, y: from.y + (end.y - from.y) * share };
  ctx.globalAlpha = stroke.opacity / 100;
  ctx.strokeStyle = stroke.color;
  ctx.lineWidth = stroke.size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'miter';
  ctx.miterLimit = MITER_LIMIT;
  ctx.beginPath();
  const through = (corners: readonly Point[]) => {
    ctx.moveTo(corners[0]!.x, corners[0]!.y);
    for (const c of corners) ctx.lineTo(c.x, c.y);
    ctx.closePath();
  };
  switch (stroke.tool) {
    case 'line':
      ctx.moveTo(from.x, from.y);
      ctx.lineTo(to.x, to.y);
      break;
    case 'arrow': {
      const a = arrowPoints(from, to, stroke.size);
      ctx.lineJoin = 'round';
      ctx.moveTo(a.from.x, a.from.y);
      ctx.lineTo(a.to.x, a.to.y);
      ctx.moveTo(a.left.x, a.left.y);
      ctx.lineTo(a.to.x, a.to.y);
      ctx.lineTo(a.right.x, a.right.y);
      break;
    }
    case 'rectangle': {
      const { left, top, width, height } = dragBox(from, to);
      through([
        { x: left, y: top },
        { x: left + width, y: top },
        { x: left + width, y: top + height },
        { x: left, y: top + height },
      ]);
      break;
    }
    case 'circle':
      ctx.arc(from.x, from.y, distance(from, to), 0, Math.PI * 2);
      break;
    case 'triangle':
      through(trianglePoints(from, to));
      break;
    case 'star':
      through(starPoints(from, distance(from, to)));
      break;
    default:
      return;
  }
  if (stroke.fill) {
    ctx.fillStyle = stroke.fill;
    ctx.fill();
  }
  ctx.stroke();
}

/**
 * Paints one stroke as it stood `upToMs` after it began (all of it without), on paper of colour
 * `background`: a brush, eraser or spray up to the points drawn by then; a shape grown from where its
 * drag began in proportion to the time.
 */
export function paintStroke(ctx: Paint2D, stroke: Stroke, background: string, upToMs?: number): void {
  const n = pointsUpTo(stroke.points, upToMs);
  if (n === 0) return;
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  switch (stroke.tool) {
    case 'brush':
      paintPencil(ctx, stroke, withOpacity(stroke.color, stroke.opacity), n);
      break;
    case 'eraser':
      paintPencil(ctx, stroke, background, n);
      break;
    case 'spray':
      paintSpray(ctx, stroke, withOpacity(stroke.color, stroke.opacity), n);
      break;
    default: {
      const total = stroke.points.at(-1)!;
      const share = upToMs === undefined || total <= 0 || upToMs >= total ? 1 : Math.max(0, upToMs / total);
      paintShape(ctx, stroke, share);
    }
  }
  ctx.restore();
}

/** Paints a whole recording from blank paper, as it stood `atMs` into it (all of it without). */
export function paintRecording(ctx: Paint2D, recording: StrokeRecording, atMs?: number): void {
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  ctx.fillStyle = recording.background;
  ctx.fillRect(0, 0, recording.width, recording.height);
  ctx.restore();
  for (const stroke of recording.strokes) {
    if (atMs !== undefined && stroke.t > atMs) break;
    paintStroke(ctx, stroke, recording.background, atMs === undefined ? undefined : atMs - stroke.t);
  }
}
