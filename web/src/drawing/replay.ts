import { paintStroke } from '../../../contract/paint.ts';
import { strokesDuration, type Stroke, type StrokeRecording } from '../../../contract/strokes.ts';
import { arrowBarbs, distance, dragBox, starPoints, trianglePoints, type Point } from './shapes.ts';

/** A replay never takes longer than this: a slow drawing is sped up to fit. */
export const LONGEST_REPLAY_MS = 12_000;

/** How fast a recording plays so that it lasts at most LONGEST_REPLAY_MS. */
export const replaySpeed = (recording: StrokeRecording) => Math.max(1, strokesDuration(recording) / LONGEST_REPLAY_MS);

const hexAlpha = (hex: string, opacity: number) => {
  const v = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(v >> 16) & 255}, ${(v >> 8) & 255}, ${v & 255}, ${opacity / 100})`;
};

/** A small deterministic generator, so a spray scatters the same dots on every frame. */
function scatter(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** The points of a stroke drawn by `upTo` ms after it began. */
function pointsBy(stroke: Stroke, upTo: number): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < stroke.points.length; i += 3) {
    if (stroke.points[i + 2]! > upTo) break;
    out.push({ x: stroke.points[i]!, y: stroke.points[i + 1]! });
  }
  return out;
}

/**
 * Draws one stroke as it stood `upTo` ms after it began (all of it when omitted) on a 2D context in
 * the recording's pixels, on paper of colour `background`. Brush and eraser strokes grow point by
 * point with the one painter the mural uses (contract/paint.ts: a smooth path through the midpoints,
 * as Fabric's pencil draws it); the spray scatters its dots as Fabric's spray does, and shapes grow
 * from where the drag began, which the mural has none of. A replay approximates Fabric's rendering;
 * it ends on the drawing's own image (StrokeReplay).
 */
export function drawStroke(
  ctx: CanvasRenderingContext2D,
  stroke: Stroke,
  background: string,
  upTo = Number.POSITIVE_INFINITY,
) {
  if (stroke.tool === 'brush' || stroke.tool === 'eraser') {
    paintStroke(ctx, stroke, background, upTo);
    return;
  }
  const points = pointsBy(stroke, upTo);
  if (points.length === 0) return;
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.lineWidth = stroke.size;
  ctx.strokeStyle = hexAlpha(stroke.color, stroke.opacity);
  ctx.fillStyle = stroke.fill ? hexAlpha(stroke.fill, stroke.opacity) : hexAlpha(stroke.color, stroke.opacity);
  const from = points[0]!;
  const end = { x: stroke.points.at(-3)!, y: stroke.points.at(-2)! };
  const total = stroke.points.at(-1)!;
  const share = total <= 0 || upTo >= total ? 1 : Math.max(0, upTo / total);
  const to = { x: from.x + (end.x - from.x) * share, y: from.y + (end.y - from.y) * share };
  const outline = (path: () => void) => {
    ctx.beginPath();
    path();
    ctx.closePath();
    if (stroke.fill) ctx.fill();
    ctx.stroke();
  };
  switch (stroke.tool) {
    case 'spray': {
      const random = scatter(stroke.t + 1);
      const radius = stroke.size / 2;
      for (const p of points) {
        for (let i = 0; i < 20; i++) {
          const angle = random() * Math.PI * 2;
          const r = random() * radius;
          ctx.fillRect(p.x + Math.cos(angle) * r, p.y + Math.sin(angle) * r, 1.5, 1.5);
        }
      }
      break;
    }
    case 'line':
    case 'arrow': {
      ctx.beginPath();
      ctx.moveTo(from.x, from.y);
      ctx.lineTo(to.x, to.y);
      if (stroke.tool === 'arrow' && distance(from, to) > 1) {
        const [left, right] = arrowBarbs(from, to, stroke.size);
        ctx.moveTo(left.x, left.y);
        ctx.lineTo(to.x, to.y);
        ctx.lineTo(right.x, right.y);
      }
      ctx.stroke();
      break;
    }
    case 'rectangle': {
      const box = dragBox(from, to);
      outline(() => ctx.rect(box.left, box.top, box.width, box.height));
      break;
    }
    case 'circle':
      outline(() => ctx.arc(from.x, from.y, distance(from, to), 0, Math.PI * 2));
      break;
    case 'triangle':
    case 'star': {
      const corners = stroke.tool === 'triangle' ? trianglePoints(from, to) : starPoints(from, distance(from, to));
      outline(() => corners.forEach((c, i) => (i === 0 ? ctx.moveTo(c.x, c.y) : ctx.lineTo(c.x, c.y))));
      break;
    }
  }
  ctx.restore();
}

/** The whole recording as it stood `at` ms into it, from a blank page. */
export function drawRecording(ctx: CanvasRenderingContext2D, recording: StrokeRecording, at: number) {
  ctx.save();
  ctx.fillStyle = recording.background;
  ctx.fillRect(0, 0, recording.width, recording.height);
  ctx.restore();
  for (const stroke of recording.strokes) {
    if (stroke.t > at) break;
    drawStroke(ctx, stroke, recording.background, at - stroke.t);
  }
}
