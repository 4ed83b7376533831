import type { MuralStroke } from '../../../contract/mural.ts';

/** How far (canvas px) a point lies from the segment a–b. */
function toSegment([px, py]: [number, number], [ax, ay]: [number, number], [bx, by]: [number, number]) {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/**
 * The stroke a moderator means by tapping `at`: the topmost brush stroke whose ink passes within
 * `slack` canvas px of it, or undefined. Eraser strokes are passed over: they are paper-coloured, so a
 * tap on an erased spot means the ink around it, and taking the eraser away would bring ink back.
 */
export function strokeAt(strokes: Iterable<MuralStroke>, at: [number, number], slack: number) {
  let hit: MuralStroke | undefined;
  for (const stroke of strokes) {
    if (stroke.tool === 'eraser') continue;
    const reach = stroke.size / 2 + slack;
    const { points } = stroke;
    const near =
      points.length === 1
        ? toSegment(at, points[0]!, points[0]!) <= reach
        : points.some((p, i) => i > 0 && toSegment(at, points[i - 1]!, p) <= reach);
    if (near) hit = stroke; // later strokes lie on top
  }
  return hit;
}
