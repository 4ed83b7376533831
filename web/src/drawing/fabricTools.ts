import {
  Circle,
  Line,
  Path,
  PencilBrush,
  Polygon,
  Rect,
  SprayBrush,
  type BaseBrush,
  type Canvas,
  type FabricObject,
  type Point,
  type SprayBrushPoint,
} from 'fabric';
import { withOpacity } from '../../../contract/paint.ts';
import {
  arrowPath,
  distance,
  dragBox,
  starPoints,
  trianglePoints,
  type Point as XY,
} from '../../../contract/shapes.ts';
import { SPRAY_DOT } from '../../../contract/strokes.ts';
import { isClosedShape, SPRAY_DOTS_PER_MOVE, type DrawingStyle, type FreehandTool, type ShapeTool } from './tools.ts';

/** Paper colour: what the eraser paints and what Clear leaves (see docs/decisions/006). */
export const PAPER = '#ffffff';

/**
 * Fabric's spray scatters over a square; the spec asks for dots within the brush radius. Its dots are
 * all SPRAY_DOT squares on whole pixels, and every one is kept (Fabric's `optimizeOverlapping` drops
 * some by a key that mixes up positions), so the dots it hands out (`takeDots`) are the dots it paints:
 * the recording keeps them, and the replay paints exactly them (decision 066).
 */
export class RoundSprayBrush extends SprayBrush {
  #dots: XY[] = [];

  constructor(canvas: Canvas) {
    super(canvas);
    this.dotWidth = SPRAY_DOT;
    this.dotWidthVariance = 0;
    this.optimizeOverlapping = false;
  }

  override addSprayChunk(pointer: Point) {
    super.addSprayChunk(pointer);
    // The chunk Fabric just made (its field is private in the typings, not at run time).
    const { sprayChunk } = this as unknown as { sprayChunk: SprayBrushPoint[] };
    const radius = this.width / 2;
    for (const dot of sprayChunk) {
      const angle = Math.random() * 2 * Math.PI;
      const r = radius * Math.sqrt(Math.random());
      // Fabric centres each dot one pixel past (x, y): a SPRAY_DOT square from (x, y)
      dot.x = Math.round(pointer.x + r * Math.cos(angle)) - 1;
      dot.y = Math.round(pointer.y + r * Math.sin(angle)) - 1;
      this.#dots.push({ x: dot.x, y: dot.y });
    }
  }

  /** The dots sprayed since the last call: the top-left corners of their squares. */
  takeDots(): XY[] {
    const dots = this.#dots;
    this.#dots = [];
    return dots;
  }
}

/** The brush for a free-hand tool. Brushes carry opacity in their colour so the live stroke matches the result. */
export function makeBrush(canvas: Canvas, tool: FreehandTool, style: DrawingStyle): BaseBrush {
  if (tool === 'spray') {
    const spray = new RoundSprayBrush(canvas);
    spray.width = style.size;
    spray.density = SPRAY_DOTS_PER_MOVE;
    spray.color = withOpacity(style.stroke, style.opacity);
    return spray;
  }
  const pencil = new PencilBrush(canvas);
  pencil.width = style.size;
  pencil.strokeLineCap = 'round';
  pencil.strokeLineJoin = 'round';
  // The eraser paints paper white at full strength, whatever the opacity setting.
  pencil.color = tool === 'eraser' ? PAPER : withOpacity(style.stroke, style.opacity);
  return pencil;
}

/**
 * A shape dragged from `from` to `to`. Lines, arrows, rectangles and triangles span the drag;
 * circles and stars grow from their centre at `from`. Null while the drag is too short to see.
 */
export function makeShape(tool: ShapeTool, from: XY, to: XY, style: DrawingStyle): FabricObject | null {
  if (distance(from, to) < 2) return null;
  const common = {
    stroke: style.stroke,
    strokeWidth: style.size,
    opacity: style.opacity / 100,
    fill: isClosedShape(tool) && style.filled ? style.fill : '',
    strokeLineJoin: 'miter' as const,
    strokeLineCap: 'round' as const,
    // drawn straight onto the canvas, fill then outline at the object's opacity, as the painter does
    objectCaching: false,
    selectable: false,
    evented: false,
  };
  switch (tool) {
    case 'line':
      return new Line([from.x, from.y, to.x, to.y], common);
    case 'arrow':
      return new Path(arrowPath(from, to, style.size), { ...common, strokeLineJoin: 'round' });
    case 'rectangle': {
      const box = dragBox(from, to);
      // Fabric positions by the centre; the stroke straddles the dragged edges.
      return new Rect({
        ...common,
        left: box.left + box.width / 2,
        top: box.top + box.height / 2,
        width: box.width,
        height: box.height,
      });
    }
    case 'circle':
      return new Circle({ ...common, left: from.x, top: from.y, radius: distance(from, to) });
    case 'triangle':
      return new Polygon(trianglePoints(from, to), common);
    case 'star':
      return new Polygon(starPoints(from, distance(from, to)), common);
    default: {
      const unknown: never = tool;
      throw new Error(`Unknown shape ${String(unknown)}`);
    }
  }
}
