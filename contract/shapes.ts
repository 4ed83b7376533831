/**
 * Geometry of the studio's shapes, in canvas pixels: the studio builds its Fabric shapes from it and the
 * painter (contract/paint.ts) paints recorded shapes with it, so both draw the same corners.
 */

export interface Point {
  x: number;
  y: number;
}

const HEAD_ANGLE = Math.PI / 6;

/** The head grows with the stroke so a thick arrow still reads as an arrow, but never outgrows the shaft. */
export function arrowHeadLength(from: Point, to: Point, size: number): number {
  return Math.min(Math.max(12, size * 3), Math.hypot(to.x - from.x, to.y - from.y));
}

/** The two ends of the arrow head's barbs; the head's tip is `to`. */
export function arrowBarbs(from: Point, to: Point, size: number): [Point, Point] {
  const angle = Math.atan2(to.y - from.y, to.x - from.x);
  const length = arrowHeadLength(from, to, size);
  const barb = (side: number) => ({
    x: to.x - length * Math.cos(angle + side * HEAD_ANGLE),
    y: to.y - length * Math.sin(angle + side * HEAD_ANGLE),
  });
  return [barb(-1), barb(1)];
}

/** The arrow's corners as its path holds them (to 0.01 px): where it starts, its tip and its two barbs. */
export function arrowPoints(
  from: Point,
  to: Point,
  size: number,
): { from: Point; to: Point; left: Point; right: Point } {
  const [left, right] = arrowBarbs(from, to, size);
  const r = (p: Point) => ({ x: round(p.x), y: round(p.y) });
  return { from: r(from), to: r(to), left: r(left), right: r(right) };
}

/** An arrow as one open SVG path: the shaft, then the head drawn through the tip. */
export function arrowPath(from: Point, to: Point, size: number): string {
  const a = arrowPoints(from, to, size);
  const xy = (p: Point) => `${p.x} ${p.y}`;
  return `M ${xy(a.from)} L ${xy(a.to)} M ${xy(a.left)} L ${xy(a.to)} L ${xy(a.right)}`;
}

/** A star with its first spike pointing straight up. */
export function starPoints(centre: Point, outerRadius: number, spikes = 5, innerRatio = 0.5): Point[] {
  return Array.from({ length: spikes * 2 }, (_, i) => {
    const radius = i % 2 === 0 ? outerRadius : outerRadius * innerRatio;
    const angle = -Math.PI / 2 + (i * Math.PI) / spikes;
    return { x: round(centre.x + radius * Math.cos(angle)), y: round(centre.y + radius * Math.sin(angle)) };
  });
}

/** The box dragged out between two corners, whichever way the drag went. */
export function dragBox(from: Point, to: Point) {
  return {
    left: Math.min(from.x, to.x),
    top: Math.min(from.y, to.y),
    width: Math.abs(to.x - from.x),
    height: Math.abs(to.y - from.y),
  };
}

/** An upright isosceles triangle filling the dragged box. */
export function trianglePoints(from: Point, to: Point): Point[] {
  const { left, top, width, height } = dragBox(from, to);
  return [
    { x: left + width / 2, y: top },
    { x: left + width, y: top + height },
    { x: left, y: top + height },
  ];
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
