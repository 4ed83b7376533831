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

/**
 * Records the studio's strokes as they are drawn (contract/strokes.ts), without Fabric: the canvas
 * tells it where the pointer went, and which finished object each stroke made. The recording is the
 * objects on the canvas now, in order, so undone and cleared marks drop out by themselves.
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
        points: [round(point.x), round(point.y), 0],
      },
    };
  }

  /** The pointer moved; a shape keeps only its last point (where the drag ends). */
  move(point: { x: number; y: number }, freehand: boolean) {
    const drawing = this.#drawing;
    if (!drawing) return;
    const dt = Math.round(performance.now() - drawing.began);
    const next = [round(point.x), round(point.y), dt];
    if (freehand || drawing.stroke.points.length === 3) drawing.stroke.points.push(...next);
    else drawing.stroke.points.splice(3, 3, ...next);
  }

  /** The stroke under way made this object. */
  finish(mark: Mark) {
    const drawing = this.#drawing;
    if (!drawing) return;
    this.#drawing = null;
    const now = performance.now();
    this.#clock += now - drawing.began;
    this.#lastEnd = now;
    this.#strokes.set(mark, drawing.stroke);
  }

  /** The recording of these marks (the canvas's objects, in order), thinned to fit 512 KB. */
  recording(marks: readonly Mark[], width: number, height: number, background: string): StrokeRecording {
    const strokes = marks.flatMap((m) => this.#strokes.get(m) ?? []);
    const recording: StrokeRecording = { version: 1, width, height, background, strokes };
    return fit(recording);
  }
}

/** Drops every other point of the longest strokes until the recording fits (the replay stays close). */
export function fit(recording: StrokeRecording): StrokeRecording {
  let current = recording;
  for (let round = 0; round < 8 && JSON.stringify(current).length > MAX_STROKES_BYTES; round++) {
    current = {
      ...current,
      strokes: current.strokes.map((s) => {
        if (s.points.length <= 6) return s;
        const points: number[] = [];
        const last = s.points.length / 3 - 1;
        for (let i = 0; i <= last; i++) if (i % 2 === 0 || i === last) points.push(...s.points.slice(i * 3, i * 3 + 3));
        return { ...s, points };
      }),
    };
  }
  return JSON.stringify(current).length > MAX_STROKES_BYTES ? { ...current, strokes: [] } : current;
}
