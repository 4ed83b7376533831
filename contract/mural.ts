/**
 * The mural (CONTRACT §8): one canvas everyone draws on at once. What `GET /api/mural` answers and the
 * mural's live messages carry, shared by the server and the web app. A mural stroke is a stroke of
 * the one stroke format (contract/strokes.ts), sent with its points as [x, y] pairs.
 */
import type { Stroke, StrokeTool } from './strokes.ts';

export const MURAL_WIDTH = 1600;
export const MURAL_HEIGHT = 800;
export const MURAL_BACKGROUND = '#ffffff';
export const MURAL_MAX_POINTS = 2000;
/**
 * The mural's budget (CONTRACT §9, decision 069): one visitor adds at most `visitorPoints` in any
 * `visitorWindowMs` (429 past it), and the mural holds at most `muralPoints` (409 `The mural is full`).
 */
export const MURAL_BUDGET = { visitorPoints: 5000, visitorWindowMs: 10_000, muralPoints: 500_000 } as const;
export const MURAL_FULL = 'The mural is full';
export const MURAL_TOOLS = ['brush', 'eraser'] as const satisfies readonly StrokeTool[];
export type MuralTool = (typeof MURAL_TOOLS)[number];
export type MuralState = 'open' | 'locked' | 'frozen';

/** What `POST /api/mural/strokes` takes: a stroke's colour, size and opacity, as in the stroke format. */
export interface MuralStrokeInput extends Pick<Stroke, 'color' | 'size' | 'opacity'> {
  tool: MuralTool;
  /** canvas pixels, inside 0..1600 × 0..800 */
  points: Array<[number, number]>;
}

/** A stroke on the mural, as answered and sent live. */
export interface MuralStroke extends MuralStrokeInput {
  id: number;
  /**
   * the author's public id: the same for all of one browser's strokes, theirs to undo; never the
   * value that identifies the browser, which no one else ever receives (CONTRACT §9)
   */
  authorId: string;
  /** the log position it was drawn at: strokes are painted in this order */
  position: number;
}

export interface MuralSnapshot {
  state: MuralState;
  width: number;
  height: number;
  /** every stroke still on the mural, in the order they were drawn */
  strokes: MuralStroke[];
  /** the log position this answer stands at: live messages after it are what is new */
  position: number;
  /** the asker's own public author id: the strokes that carry it are theirs */
  authorId: string | null;
  /** once frozen, the artwork it became */
  artworkId: number | null;
}

/** A mural stroke in the one stroke format, for painting. */
export function muralToStroke(s: MuralStrokeInput): Stroke {
  const points: number[] = [];
  for (const [x, y] of s.points) points.push(x, y, 0);
  return { tool: s.tool, color: s.color, fill: null, size: s.size, opacity: s.opacity, t: 0, points };
}
