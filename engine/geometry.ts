/**
 * Plane geometry more than one stage needs, on plain numbers so the compiler inlines it into the
 * callers' loops (each reads its points from its own array layout).
 */

/** Squared distance from (px, py) to the segment from (ax, ay) to (bx, by); a zero-length segment is its point. */
export function segmentDistance2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = px - ax - t * dx,
    ey = py - ay - t * dy;
  return ex * ex + ey * ey;
}
