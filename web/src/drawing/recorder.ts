import { MAX_STROKES_BYTES, type Stroke, type StrokeRecording, type StrokeTool } from '../../../contract/strokes.ts';

/** A pause longer than this between two strokes is shortened to it: a replay does not wait while someone thinks. */
const LONGEST_PAUSE_MS = 800;

interface Style {
  size: number;
  stroke: string;
  fill: string;
  filled: boolean;
  opacity: number;
}

const CLOSED = new Set<StrokeTool>(['rectangle', 'circle', 'triangle', 'star']);
const round = (n: number) => Math.round(n * 10) / 10;

/** Fabric's pencil (`PencilBrush.decimate`): a point closer than this to the last one kept is dropped. */
const PENCIL_DECIMATE = 0.4;

/**
 * The points Fabric's pencil makes its path from (PencilBrush `_addPoint` and `decimatePoints`, at
 * zoom 1): repeated points dropped, then every point closer than 0.4 px to the last one kept, and the
 * one before the last (Fabric's loop stops one short), the first and last always kept.
 */
export function pencilPoints(recorded: readonly number[]): number[] {
  const points: number[] = [];
  for (let i = 0; i < recorded.length; i += 3) {
    const [x, y] = [recorded[i]!, recorded[i + 1]!];
    if (i > 0 && x === points.at(-3) && y === points.at(-2)) continue;
    points.push(x, y, recorded[i + 2]!);
  }
  const n = points.length / 3;
  if (n <= 2) return points;
  const at = (i: number) => points.slice(i * 3, i * 3 + 3);
  const kept = at(0);
  let lastX = points[0]!;
  let lastY = points[1]!;
  for (let i = 1; i < n - 2; i++) {
    const x = points[i * 3]!;
    const y = points[i * 3 + 1]!;
    if ((lastX - x) ** 2 + (lastY - y) ** 2 >= PENCIL_DECIMATE ** 2) {
      kept.push(...at(i));
      lastX = x;
      lastY = y;
    }
  }
  kept.push(...at(n - 1));
  return kept;
}

/**
 * Records the studio's strokes as they are drawn (contract/strokes.ts), without Fabric: the canvas
 * tells it where the pointer went, which dots a spray made, and which finished object each stroke
 * made. The recording is the objects on the canvas now, in order, so undone and cleared marks drop
 * out by themselves. Each stroke holds what the painter needs to paint it exactly as the studio did.
 */
export class StrokeRecorder<Mark extends object> {
  readonly #strokes = new WeakMap<Mark, Stroke>();
  #drawing: { stroke: Stroke; began: number } | null = null;
  #clock = 0;
  #lastEnd: number | null = null;

  begin(tool: StrokeTool, style: Style, point: { x: number; y: number }) {
    const now = performance.now();
    // the recording's clock runs only while drawing, with pauses shortened
    if (this.#lastEnd !== null) this.#clock += Math.min(now - this.#lastEnd, LONGEST_PAUSE_MS);
    const eraser = tool === 'eraser';
    this.#drawing = {
      began: now,
      stroke: {
        tool,
        color: eraser ? '#ffffff' : style.stroke,
        fill: CLOSED.has(tool) && style.filled ? style.fill : null,
        size: style.size,
        opacity: eraser ? 100 : style.opacity,
        t: Math.round(this.#clock),
        // a spray's points are its dots (`dots`), not the pointer's path
        points: tool === 'spray' ? [] : [point.x, point.y, 0],
      },
    };
  }

  #since(drawing: { began: number }) {
    return Math.round(performance.now() - drawing.began);
  }

  /** The pointer moved; a shape keeps only its last point (where the drag is now). */
  move(point: { x: number; y: number }, freehand: boolean) {
    const drawing = this.#drawing;
    if (!drawing || drawing.stroke.tool === 'spray') return;
    const next = [point.x, point.y, this.#since(drawing)];
    if (freehand || drawing.stroke.points.length === 3) drawing.stroke.points.push(...next);
    else drawing.stroke.points.splice(3, 3, ...next);
  }

  /** The spray under way made these dots (the top-left corners of their squares). */
  dots(dots: ReadonlyArray<{ x: number; y: number }>) {
    const drawing = this.#drawing;
    if (!drawing || drawing.stroke.tool !== 'spray') return;
    const dt = this.#since(drawing);
    for (const dot of dots) drawing.stroke.points.push(dot.x, dot.y, dt);
  }

  /** The stroke under way made this object. */
  finish(mark: Mark) {
    const drawing = this.#drawing;
    if (!drawing) return;
    this.#drawing = null;
    const now = performance.now();
    this.#clock += now - drawing.began;
    this.#lastEnd = now;
    const { stroke } = drawing;
    const path = stroke.tool === 'brush' || stroke.tool === 'eraser' ? pencilPoints(stroke.points) : stroke.points;
    this.#strokes.set(mark, { ...stroke, points: path.map((v, i) => (i % 3 === 2 ? v : round(v))) });
  }

  /**
   * The recording of these marks (the canvas's objects, in order), thinned to fit 512 KB; null when it
   * would not end on the drawing (a mark it did not see being made, or too big to fit even thinned):
   * the drawing is then sent without one, since the server refuses a recording that does not match.
   */
  recording(marks: readonly Mark[], width: number, height: number, background: string): StrokeRecording | null {
    const strokes: Stroke[] = [];
    for (const mark of marks) {
      const stroke = this.#strokes.get(mark);
      if (!stroke) return null;
      strokes.push(stroke);
    }
    return fit({ version: 1, width, height, background, strokes });
  }
}

/**
 * Drops every other point of the longest pencil strokes until the recording fits (the replay stays
 * close); a spray's dots are never dropped, as its replay would miss them. Null if it cannot fit.
 */
export function fit(recording: StrokeRecording): StrokeRecording | null {
  let current = recording;
  for (let round = 0; round < 8 && JSON.stringify(current).length > MAX_STROKES_BYTES; round++) {
    current = {
      ...current,
      strokes: current.strokes.map((s) => {
        if (s.points.length <= 6 || (s.tool !== 'brush' && s.tool !== 'eraser')) return s;
        const points: number[] = [];
        const last = s.points.length / 3 - 1;
        for (let i = 0; i <= last; i++) if (i % 2 === 0 || i === last) points.push(...s.points.slice(i * 3, i * 3 + 3));
        return { ...s, points };
      }),
    };
  }
  return JSON.stringify(current).length > MAX_STROKES_BYTES ? null : current;
}
