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
import { arrowPath, distance, dragBox, starPoints, trianglePoints, type Point as XY } from './shapes.ts';
import {
  isClosedShape,
  SPRAY_DOTS_PER_MOVE,
  withOpacity,
  type DrawingStyle,
  type FreehandTool,
  type ShapeTool,
} from './tools.ts';

/** Paper colour: what the eraser paints and what Clear leaves (see docs/decisions/006). */
export const PAPER = '#ffffff';

/** Fabric's spray scatters over a square; the spec asks for dots within the brush radius. */
class RoundSprayBrush extends SprayBrush {
  override addSprayChunk(pointer: Point) {
    super.addSprayChunk(pointer);
    // The chunk Fabric just made (its field is private in the typings, not at run time).
    const { sprayChunk } = this as unknown as { sprayChunk: SprayBrushPoint[] };
    const radius = this.width / 2;
    for (const dot of sprayChunk) {
      const angle = Math.random() * 2 * Math.PI;
      const r = radius * Math.sqrt(Math.random());
      dot.x = Math.round(pointer.x + r * Math.cos(angle));
      dot.y = Math.round(pointer.y + r * Math.sin(angle));
    }
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
