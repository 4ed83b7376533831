import { paintRecording, paintStroke, type Paint2D } from '../../../contract/paint.ts';
import {
  MURAL_BACKGROUND,
  MURAL_HEIGHT,
  MURAL_WIDTH,
  muralToStroke,
  type MuralStrokeInput,
} from '../../../contract/mural.ts';

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Where a stroke can have painted, its width included. */
export function boxOf(s: MuralStrokeInput): Box {
  const pad = s.size / 2 + 2;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of s.points) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad };
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** The canvas at the mural's own size (the page scales it with CSS), and its 2D context. */
function muralContext(canvas: HTMLCanvasElement) {
  canvas.width = MURAL_WIDTH;
  canvas.height = MURAL_HEIGHT;
  return canvas.getContext('2d') as CanvasRenderingContext2D & Paint2D;
}

/**
 * Paints the mural with the one painter (contract/paint.ts) on a canvas of the mural's own size; the
 * page scales it with CSS. A new stroke is painted on top, alone; an undone one repaints only the
 * area it covered, from the strokes that touch it; everything is repainted only on a fresh snapshot.
 */
export class MuralSurface {
  readonly #ctx: CanvasRenderingContext2D & Paint2D;

  constructor(canvas: HTMLCanvasElement) {
    this.#ctx = muralContext(canvas);
  }

  all(strokes: Iterable<MuralStrokeInput>) {
    paintRecording(this.#ctx, {
      version: 1,
      width: MURAL_WIDTH,
      height: MURAL_HEIGHT,
      background: MURAL_BACKGROUND,
      strokes: [...strokes].map(muralToStroke),
    });
  }

  add(stroke: MuralStrokeInput) {
    paintStroke(this.#ctx, muralToStroke(stroke), MURAL_BACKGROUND);
  }

  /** Repaints the area `removed` covered from what is left (`strokes`, in order). */
  remove(removed: MuralStrokeInput, strokes: Iterable<MuralStrokeInput>) {
    const box = boxOf(removed);
    const x = Math.max(0, Math.floor(box.x0));
    const y = Math.max(0, Math.floor(box.y0));
    const w = Math.min(MURAL_WIDTH, Math.ceil(box.x1)) - x;
    const h = Math.min(MURAL_HEIGHT, Math.ceil(box.y1)) - y;
    if (w <= 0 || h <= 0) return;
    const ctx = this.#ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, w, h);
    ctx.clip();
    ctx.globalAlpha = 1;
    ctx.fillStyle = MURAL_BACKGROUND;
    ctx.fillRect(x, y, w, h);
    const area = { x0: x, y0: y, x1: x + w, y1: y + h };
    for (const s of strokes) if (overlaps(boxOf(s), area)) paintStroke(ctx, muralToStroke(s), MURAL_BACKGROUND);
    ctx.restore();
  }
}

/** The drawer's own strokes before the mural has them: the one being drawn, and those on their way. */
export class OverlaySurface {
  readonly #ctx: CanvasRenderingContext2D & Paint2D;

  constructor(canvas: HTMLCanvasElement) {
    this.#ctx = muralContext(canvas);
  }

  paint(strokes: Iterable<MuralStrokeInput>) {
    this.#ctx.clearRect(0, 0, MURAL_WIDTH, MURAL_HEIGHT);
    for (const s of strokes) if (s.points.length > 0) paintStroke(this.#ctx, muralToStroke(s), MURAL_BACKGROUND);
  }
}
