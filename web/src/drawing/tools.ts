/** The drawing studio's tools and limits (spec §2 Drawing studio, §9). */
import { STROKE_SIZE, STROKE_TOOLS, type StrokeTool } from '../../../contract/strokes.ts';

export type Tool = StrokeTool;
export type FreehandTool = Extract<Tool, 'brush' | 'spray' | 'eraser'>;
export type ShapeTool = Exclude<Tool, FreehandTool>;

/** On desktop the panel offers every tool a recording knows, in the contract's order. */
export const DESKTOP_TOOLS: readonly Tool[] = STROKE_TOOLS;
/** Below the mobile breakpoint the panel offers only Draw (the brush) and Erase. */
export const MOBILE_TOOLS: readonly Tool[] = ['brush', 'eraser'];
export const MOBILE_QUERY = '(max-width: 767px)';

export function isFreehand(tool: Tool): tool is FreehandTool {
  return tool === 'brush' || tool === 'spray' || tool === 'eraser';
}

/** Shapes that enclose an area, and so take the fill colour. */
export function isClosedShape(tool: Tool): boolean {
  return tool === 'rectangle' || tool === 'circle' || tool === 'triangle' || tool === 'star';
}

export const CANVAS_WIDTH = 800;
export const CANVAS_HEIGHT = 400;
export const SIZE = { ...STROKE_SIZE, step: 1, initial: 5 } as const;
/** Opacity in percent. */
export const OPACITY = { min: 10, max: 100, step: 10, initial: 100 } as const;
export const SPRAY_DOTS_PER_MOVE = 20;

export const PALETTE = [
  { name: 'Black', hex: '#1c1917' },
  { name: 'Red', hex: '#dc2626' },
  { name: 'Orange', hex: '#f97316' },
  { name: 'Yellow', hex: '#facc15' },
  { name: 'Green', hex: '#16a34a' },
  { name: 'Teal', hex: '#0d9488' },
  { name: 'Blue', hex: '#2563eb' },
  { name: 'Purple', hex: '#7c3aed' },
  { name: 'Pink', hex: '#ec4899' },
  { name: 'Brown', hex: '#92400e' },
  { name: 'Grey', hex: '#78716c' },
  { name: 'Sky', hex: '#38bdf8' },
] as const;
export const DESKTOP_PALETTE_SIZE = 12;
export const MOBILE_PALETTE_SIZE = 10;

export interface DrawingStyle {
  /** Stroke width in canvas pixels; for the spray, the diameter it scatters over. */
  size: number;
  stroke: string;
  /** Fill colour for closed shapes, used when `filled`; otherwise shapes are outlines. */
  fill: string;
  filled: boolean;
  /** Percent, 10-100. */
  opacity: number;
}

export const INITIAL_STYLE: DrawingStyle = {
  size: SIZE.initial,
  stroke: PALETTE[0].hex,
  fill: '#fbbf24',
  filled: false,
  opacity: OPACITY.initial,
};

/** One conversion for the studio's brushes and the painter that replays them. */
export { withOpacity } from '../../../contract/paint.ts';
