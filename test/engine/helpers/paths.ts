/**
 * Test helpers for fitted paths: points along lines, cubics and the fitter's half-ellipse arcs.
 */
import type { FittedPath, Segment } from '../../../engine/fit/index.js';

export type Point = { x: number; y: number };

/** Points along every segment of a path, `perSegment` samples each. */
export function samplePath(path: FittedPath, perSegment = 24): Point[] {
  const out: Point[] = [{ ...path.start }];
  let p = path.start;
  for (const seg of path.segments) {
    for (let i = 1; i <= perSegment; i++) {
      const t = i / perSegment,
        u = 1 - t;
      if (seg.kind === 'L') out.push({ x: p.x + (seg.x - p.x) * t, y: p.y + (seg.y - p.y) * t });
      else if (seg.kind === 'A') out.push(halfArcPoint(p, seg, t));
      else
        out.push({
          x: u * u * u * p.x + 3 * u * u * t * seg.x1 + 3 * u * t * t * seg.x2 + t * t * t * seg.x,
          y: u * u * u * p.y + 3 * u * u * t * seg.y1 + 3 * u * t * t * seg.y2 + t * t * t * seg.y,
        });
    }
    p = { x: seg.x, y: seg.y };
  }
  return out;
}

/** The point at share t along a half-ellipse arc (the only arcs the fitter writes) that starts at p. */
export function halfArcPoint(p: Point, seg: Extract<Segment, { kind: 'A' }>, t: number): Point {
  const cx = (p.x + seg.x) / 2,
    cy = (p.y + seg.y) / 2;
  const rot = (seg.rotation * Math.PI) / 180,
    cos = Math.cos(rot),
    sin = Math.sin(rot);
  const lx = (p.x - cx) * cos + (p.y - cy) * sin,
    ly = -(p.x - cx) * sin + (p.y - cy) * cos;
  const angle = Math.atan2(ly / seg.ry, lx / seg.rx) + (seg.sweep ? 1 : -1) * Math.PI * t;
  const ex = seg.rx * Math.cos(angle),
    ey = seg.ry * Math.sin(angle);
  return { x: cx + ex * cos - ey * sin, y: cy + ex * sin + ey * cos };
}

/** Distance from (x, y) to the polyline through `line`'s points. */
export function distanceToPolyline(x: number, y: number, line: Point[]): number {
  let best = Infinity;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1],
      b = line[i],
      dx = b.x - a.x,
      dy = b.y - a.y,
      len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / len2)) : 0;
    best = Math.min(best, Math.hypot(x - a.x - t * dx, y - a.y - t * dy));
  }
  return best;
}
