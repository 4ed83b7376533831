/**
 * The one stroke format (CONTRACT §7 "Stroke replay", §8 the mural; issue 16): how a drawing's strokes
 * are recorded and replayed, and what a mural stroke is. One module for the server, /create, the
 * replay (show and detail page) and the mural, so the format cannot drift: a mural stroke
 * (contract/mural.ts) is a stroke of this format with the mural's two tools, its points sent as [x, y]
 * pairs and turned into this format (`muralToStroke`) to be painted; its colour, size and opacity are
 * checked with the limits below, on the server as in a recording. Both are painted by contract/paint.ts.
 * Plain TypeScript (no zod) so the web can import it without weight.
 *
 * A recording is the ordered list of marks on the canvas, in the canvas's own pixels, each with the
 * time it started (ms after the recording began) and, per point, the ms since the mark began.
 * - brush and eraser: `points` is the pointer's path as the studio's pencil keeps it (Fabric's pencil
 *   drops points closer than 0.4 px, and the one before the last); the eraser paints the paper colour.
 * - spray: `points` are the dots it sprayed, each the top-left corner of a SPRAY_DOT square, with the
 *   ms at which it was sprayed (decision 066: the dots are random, so the recording holds them).
 * - shapes (line, arrow, rectangle, circle, triangle, star): two points, where the drag began and
 *   where it ended; `fill` is the fill colour of a filled closed shape, else null.
 * Undone marks are not in it; a cleared canvas starts a recording afresh.
 */

export const STROKE_TOOLS = [
  'brush',
  'spray',
  'eraser',
  'line',
  'arrow',
  'rectangle',
  'circle',
  'triangle',
  'star',
] as const;
export type StrokeTool = (typeof STROKE_TOOLS)[number];
/** A stroke's width in canvas pixels. */
export const STROKE_SIZE = { min: 1, max: 50 } as const;
/** A stroke's opacity, in percent. */
export const STROKE_OPACITY = { min: 1, max: 100 } as const;
/** The side of a spray's square dot, in canvas pixels. */
export const SPRAY_DOT = 2;
/** A stroke's colour (and a recording's paper): '#rrggbb'. */
export const STROKE_COLOR = /^#[0-9a-fA-F]{6}$/;

export interface Stroke {
  tool: StrokeTool;
  /** '#rrggbb' */
  color: string;
  /** '#rrggbb' for a filled closed shape, else null */
  fill: string | null;
  /** width in canvas pixels, STROKE_SIZE */
  size: number;
  /** percent, STROKE_OPACITY */
  opacity: number;
  /** ms after the recording began */
  t: number;
  /** flat [x, y, dt, x, y, dt, ...]: canvas pixels and ms since the stroke began */
  points: number[];
}

export interface StrokeRecording {
  version: 1;
  width: number;
  height: number;
  /** the paper colour, '#rrggbb' */
  background: string;
  strokes: Stroke[];
}

/**
 * The largest side of a recording, in pixels: the studio sends its drawing at most this large
 * (web/src/routes/-components/create/exportDrawing.ts), so a larger recording could not match it.
 */
export const MAX_STROKES_SIDE = 2400;

/** The most a recording may weigh, as JSON (CONTRACT §7). */
export const MAX_STROKES_BYTES = 512 * 1024;

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * Checks a recording from the outside world: returns it, or the first thing wrong with it.
 * The size limit is the caller's to check on the JSON it received.
 */
export function checkStrokes(value: unknown): { ok: true; value: StrokeRecording } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message });
  if (typeof value !== 'object' || value === null) return bad('Strokes must be an object');
  const r = value as Record<string, unknown>;
  if (r.version !== 1) return bad('Strokes version must be 1');
  const side = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_STROKES_SIDE;
  if (!side(r.width) || !side(r.height)) return bad('Strokes need a width and height');
  if (typeof r.background !== 'string' || !STROKE_COLOR.test(r.background))
    return bad('Strokes need a background colour');
  if (!Array.isArray(r.strokes)) return bad('Strokes must hold a list of strokes');
  let previous = 0;
  for (const [i, s] of (r.strokes as unknown[]).entries()) {
    const where = `Stroke ${i + 1}`;
    if (typeof s !== 'object' || s === null) return bad(`${where} is not a stroke`);
    const k = s as Record<string, unknown>;
    if (!STROKE_TOOLS.includes(k.tool as StrokeTool)) return bad(`${where} has an unknown tool`);
    if (typeof k.color !== 'string' || !STROKE_COLOR.test(k.color)) return bad(`${where} has a bad colour`);
    if (k.fill !== null && (typeof k.fill !== 'string' || !STROKE_COLOR.test(k.fill)))
      return bad(`${where} has a bad fill`);
    if (!finite(k.size) || k.size < STROKE_SIZE.min || k.size > STROKE_SIZE.max) return bad(`${where} has a bad size`);
    if (!finite(k.opacity) || k.opacity < STROKE_OPACITY.min || k.opacity > STROKE_OPACITY.max)
      return bad(`${where} has a bad opacity`);
    if (!finite(k.t) || k.t < previous) return bad(`${where} starts before the one before it`);
    previous = k.t;
    const points = k.points;
    if (!Array.isArray(points) || points.length < 3 || points.length % 3 !== 0 || !points.every(finite))
      return bad(`${where} needs points as [x, y, dt, ...]`);
  }
  return { ok: true, value: value as StrokeRecording };
}

/** How long a recording takes to replay at its own pace, in ms. */
export function strokesDuration(recording: StrokeRecording): number {
  let end = 0;
  for (const s of recording.strokes) end = Math.max(end, s.t + (s.points.at(-1) ?? 0));
  return end;
}
