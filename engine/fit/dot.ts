/**
 * Dots of line art (an i-dot, a full stop, a counter of a few pixels): a ring too small for the
 * ellipse fit's least squares (./ellipse.ts) and for a curve fit, which turns it into a triangle or
 * a diamond. Round enough, it is drawn as the ellipse with the ring's own area, centre and second
 * moments.
 */
import type { Ellipse } from './ellipse.js';
import { hypot } from '../hypot.js';

/** Flatter than this (minor over major axis) is a dash or a wedge, not a dot. */
const MIN_ROUNDNESS = 0.5;

/** The dot's ellipse when the ring (x,y pairs, closed) is round and stays within `tolerance` of it; else null. */
export function dotEllipse(points: Float64Array, tolerance: number): Ellipse | null {
  const e = momentEllipse(points);
  if (e === null || e.ry < MIN_ROUNDNESS * e.rx) return null;
  return deviation(e, points) <= tolerance ? e : null;
}

/**
 * The ellipse with the polygon's area, centroid and orientation. A solid ellipse with semi-axes
 * a ≥ b has second central moments a²/4 and b²/4 along its axes; both are then scaled so the area
 * matches exactly (a shape that is not an ellipse has other moments for its area).
 */
function momentEllipse(points: Float64Array): Ellipse | null {
  const n = points.length >> 1;
  if (n < 3) return null;
  // moments about the first point, for precision far from the origin
  const ox = points[0],
    oy = points[1];
  let area2 = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const x0 = points[2 * i] - ox,
      y0 = points[2 * i + 1] - oy,
      x1 = points[2 * j] - ox,
      y1 = points[2 * j + 1] - oy;
    const c = x0 * y1 - x1 * y0;
    area2 += c;
    sx += (x0 + x1) * c;
    sy += (y0 + y1) * c;
    sxx += (x0 * x0 + x0 * x1 + x1 * x1) * c;
    syy += (y0 * y0 + y0 * y1 + y1 * y1) * c;
    sxy += (x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * c;
  }
  const area = area2 / 2;
  if (Math.abs(area) < 1e-9) return null;
  const cx = sx / (6 * area),
    cy = sy / (6 * area);
  const mxx = sxx / (12 * area) - cx * cx,
    myy = syy / (12 * area) - cy * cy,
    mxy = sxy / (24 * area) - cx * cy;
  const mean = (mxx + myy) / 2,
    spread = Math.sqrt(((mxx - myy) / 2) ** 2 + mxy * mxy);
  const major = mean + spread,
    minor = mean - spread;
  if (!(minor > 0)) return null;
  const scale = Math.sqrt(Math.abs(area) / (Math.PI * 4 * Math.sqrt(major * minor)));
  const rotation = (0.5 * Math.atan2(2 * mxy, mxx - myy) * 180) / Math.PI;
  return { cx: cx + ox, cy: cy + oy, rx: 2 * Math.sqrt(major) * scale, ry: 2 * Math.sqrt(minor) * scale, rotation };
}

/** Largest distance (px) from a ring point to the ellipse, along the ray from its centre. */
function deviation(e: Ellipse, points: Float64Array): number {
  const t = (e.rotation * Math.PI) / 180,
    cos = Math.cos(t),
    sin = Math.sin(t);
  let worst = 0;
  for (let i = 0; i < points.length; i += 2) {
    const dx = points[i] - e.cx,
      dy = points[i + 1] - e.cy;
    const u = dx * cos + dy * sin,
      v = -dx * sin + dy * cos;
    const r = hypot(u / e.rx, v / e.ry),
      d = hypot(dx, dy);
    if (r > 1e-9) worst = Math.max(worst, Math.abs(d - d / r));
  }
  return worst;
}
