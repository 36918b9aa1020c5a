/**
 * Polyline → straight segments and cubic Béziers. Corners (sharp turns) split a chain; each piece
 * becomes one straight segment when every point lies within the line tolerance of its chord, else
 * one cubic fitted by least squares with fixed end tangents (Schneider, "An algorithm for
 * automatically fitting digitized curves", Graphics Gems 1990), split at the worst point until it fits.
 */

import { newtonParameter } from '../fit/newton.js';
import { hypot } from '../hypot.js';
import { scratchFloat64, scratchSlots } from '../scratch.js';

type Segment = { kind: 'L'; x: number; y: number } | { kind: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number };

export interface FittedChain {
  startX: number;
  startY: number;
  segments: Segment[];
  closed: boolean;
}

export interface FitTolerance {
  /** Max distance (px) of a point from a straight segment. */
  line: number;
  /** Max distance (px) of a point from a fitted cubic. */
  curve: number;
  /** Turning angle (degrees) above which a point is a corner. */
  cornerDegrees: number;
}

export function fitPolyline(points: Float64Array, closed: boolean, tol: FitTolerance): FittedChain {
  let n = points.length / 2;
  if (n === 1) return { startX: points[0], startY: points[1], segments: [{ kind: 'L', x: points[0], y: points[1] }], closed: false };
  let pts = smooth(points, closed);
  if (closed && n < 3) closed = false;
  const corners = findCorners(pts, closed, tol.cornerDegrees);
  if (closed) {
    // Start a ring at a corner when it has one, so no curve has to bend round the seam.
    const start = corners.length ? corners[0] : 0;
    const rot = new Float64Array(pts.length + 2);
    for (let k = 0; k <= n; k++) {
      const s = ((start + k) % n) * 2;
      rot[k * 2] = pts[s];
      rot[k * 2 + 1] = pts[s + 1];
    }
    pts = rot;
    const shifted = corners.map((c) => (c - start + n) % n).sort((a, b) => a - b);
    corners.length = 0;
    corners.push(...shifted);
    if (corners[0] !== 0) corners.unshift(0);
    n = n + 1;
    corners.push(n - 1);
  } else {
    if (corners[0] !== 0) corners.unshift(0);
    if (corners[corners.length - 1] !== n - 1) corners.push(n - 1);
  }
  const segments: Segment[] = [];
  const ringWithoutCorners = closed && corners.length === 2;
  for (let c = 0; c + 1 < corners.length; c++) {
    const i0 = corners[c],
      i1 = corners[c + 1];
    let t0 = tangentAt(pts, i0, i1, true);
    let t1 = tangentAt(pts, i0, i1, false);
    if (ringWithoutCorners) {
      // Smooth ring: the seam tangent comes from both sides of it.
      const ax = pts[2] - pts[(n - 2) * 2],
        ay = pts[3] - pts[(n - 2) * 2 + 1];
      const l = hypot(ax, ay) || 1;
      t0 = [ax / l, ay / l];
      t1 = [-ax / l, -ay / l];
    }
    fitPiece(pts, i0, i1, t0, t1, tol, segments, 0);
  }
  return { startX: pts[0], startY: pts[1], segments, closed };
}

/**
 * A page fits thousands of chains, and a fresh small typed array each time cost more than the
 * arithmetic in it (engine/scratch.ts). fitPolyline is synchronous and nothing it calls keeps these
 * views; the curve is copied into a segment before fitPiece recurses.
 */
const SLOT = scratchSlots('centerline fit', Float64Array, ['Smoothed', 'CornerCosines', 'ChordParams', 'Curve']);

/** One pass of [1 2 1]/4 to take the pixel staircase out; chain ends stay put. */
function smooth(p: Float64Array, closed: boolean): Float64Array {
  const n = p.length / 2;
  if (n < 3) return p.slice();
  const out = scratchFloat64(SLOT.Smoothed, p.length);
  out.set(p);
  for (let i = 0; i < n; i++) {
    if (!closed && (i === 0 || i === n - 1)) continue;
    const a = ((i - 1 + n) % n) * 2,
      b = ((i + 1) % n) * 2;
    out[i * 2] = 0.25 * p[a] + 0.5 * p[i * 2] + 0.25 * p[b];
    out[i * 2 + 1] = 0.25 * p[a + 1] + 0.5 * p[i * 2 + 1] + 0.25 * p[b + 1];
  }
  return out;
}

function findCorners(p: Float64Array, closed: boolean, degrees: number): number[] {
  const n = p.length / 2;
  const reach = 3;
  if (n < 2 * reach + 1) return [];
  const limit = Math.cos((degrees * Math.PI) / 180);
  const cosAt = scratchFloat64(SLOT.CornerCosines, n).fill(1);
  for (let i = 0; i < n; i++) {
    let a = i - reach,
      b = i + reach;
    if (!closed && (a < 0 || b >= n)) continue;
    a = (a + n) % n;
    b = b % n;
    const ux = p[i * 2] - p[a * 2],
      uy = p[i * 2 + 1] - p[a * 2 + 1];
    const vx = p[b * 2] - p[i * 2],
      vy = p[b * 2 + 1] - p[i * 2 + 1];
    const lu = hypot(ux, uy),
      lv = hypot(vx, vy);
    if (!lu || !lv) continue;
    cosAt[i] = (ux * vx + uy * vy) / (lu * lv);
  }
  const corners: number[] = [];
  for (let i = 0; i < n; i++) {
    if (cosAt[i] > limit) continue;
    let isMin = true;
    for (let k = -reach; k <= reach && isMin; k++) {
      if (!k) continue;
      let j = i + k;
      if (closed) j = (j + n) % n;
      else if (j < 0 || j >= n) continue;
      if (cosAt[j] < cosAt[i] || (cosAt[j] === cosAt[i] && j < i)) isMin = false;
    }
    if (isMin) corners.push(i);
  }
  return corners;
}

function tangentAt(p: Float64Array, i0: number, i1: number, atStart: boolean): [number, number] {
  const span = Math.max(1, Math.min(3, Math.floor((i1 - i0) / 3)));
  let dx: number, dy: number;
  if (atStart) {
    dx = p[(i0 + span) * 2] - p[i0 * 2];
    dy = p[(i0 + span) * 2 + 1] - p[i0 * 2 + 1];
  } else {
    dx = p[(i1 - span) * 2] - p[i1 * 2];
    dy = p[(i1 - span) * 2 + 1] - p[i1 * 2 + 1];
  }
  const l = hypot(dx, dy) || 1;
  return [dx / l, dy / l];
}

function fitPiece(
  p: Float64Array,
  i0: number,
  i1: number,
  t0: [number, number],
  t1: [number, number],
  tol: FitTolerance,
  out: Segment[],
  depth: number,
): void {
  const x3 = p[i1 * 2],
    y3 = p[i1 * 2 + 1];
  if (i1 - i0 <= 1 || lineError(p, i0, i1) <= tol.line) {
    out.push({ kind: 'L', x: x3, y: y3 });
    return;
  }
  const u = chordParams(p, i0, i1);
  const curve = leastSquaresCubic(p, i0, i1, u, t0, t1, scratchFloat64(SLOT.Curve, 8));
  let err = curveError(p, i0, i1, u, curve);
  // Up to ten Newton reparameterisations before splitting: a near miss usually converges, and one
  // cubic over a glyph's bowl is cheaper than two.
  for (let iter = 0; iter < 10 && err.max > tol.curve && err.max < tol.curve * 4; iter++) {
    reparameterize(p, i0, i1, u, curve);
    leastSquaresCubic(p, i0, i1, u, t0, t1, curve);
    err = curveError(p, i0, i1, u, curve);
  }
  if (err.max <= tol.curve || depth > 24) {
    out.push({ kind: 'C', x1: curve[2], y1: curve[3], x2: curve[4], y2: curve[5], x: x3, y: y3 });
    return;
  }
  let split = err.index;
  if (split <= i0) split = i0 + 1;
  if (split >= i1) split = i1 - 1;
  const tx = p[(split + 1) * 2] - p[(split - 1) * 2],
    ty = p[(split + 1) * 2 + 1] - p[(split - 1) * 2 + 1];
  const tl = hypot(tx, ty) || 1;
  fitPiece(p, i0, split, t0, [-tx / tl, -ty / tl], tol, out, depth + 1);
  fitPiece(p, split, i1, [tx / tl, ty / tl], t1, tol, out, depth + 1);
}

function lineError(p: Float64Array, i0: number, i1: number): number {
  const x0 = p[i0 * 2],
    y0 = p[i0 * 2 + 1],
    dx = p[i1 * 2] - x0,
    dy = p[i1 * 2 + 1] - y0;
  const len2 = dx * dx + dy * dy;
  let worst = 0;
  for (let i = i0 + 1; i < i1; i++) {
    const px = p[i * 2] - x0,
      py = p[i * 2 + 1] - y0;
    let d: number;
    if (!len2) d = hypot(px, py);
    else {
      const t = Math.min(1, Math.max(0, (px * dx + py * dy) / len2));
      d = hypot(px - t * dx, py - t * dy);
    }
    if (d > worst) worst = d;
  }
  return worst;
}

/**
 * Chord-length parameters of points i0..i1 in [0, 1]: a view of the shared scratch, valid until the next call
 * (fitPiece is done with it before it recurses).
 */
function chordParams(p: Float64Array, i0: number, i1: number): Float64Array {
  const m = i1 - i0 + 1;
  const u = scratchFloat64(SLOT.ChordParams, m);
  u[0] = 0;
  for (let i = i0 + 1; i <= i1; i++) u[i - i0] = u[i - i0 - 1] + hypot(p[i * 2] - p[i * 2 - 2], p[i * 2 + 1] - p[i * 2 - 1]);
  const total = u[m - 1] || 1;
  for (let k = 0; k < m; k++) u[k] /= total;
  return u;
}

function leastSquaresCubic(
  p: Float64Array,
  i0: number,
  i1: number,
  u: Float64Array,
  t0: [number, number],
  t1: [number, number],
  out: Float64Array,
): Float64Array {
  const x0 = p[i0 * 2],
    y0 = p[i0 * 2 + 1],
    x3 = p[i1 * 2],
    y3 = p[i1 * 2 + 1];
  let c00 = 0,
    c01 = 0,
    c11 = 0,
    r0 = 0,
    r1 = 0;
  for (let k = 0; k < u.length; k++) {
    const t = u[k],
      s = 1 - t;
    const b0 = s * s * s,
      b1 = 3 * t * s * s,
      b2 = 3 * t * t * s,
      b3 = t * t * t;
    const a1x = t0[0] * b1,
      a1y = t0[1] * b1,
      a2x = t1[0] * b2,
      a2y = t1[1] * b2;
    c00 += a1x * a1x + a1y * a1y;
    c01 += a1x * a2x + a1y * a2y;
    c11 += a2x * a2x + a2y * a2y;
    const i = (i0 + k) * 2;
    const rx = p[i] - (x0 * (b0 + b1) + x3 * (b2 + b3));
    const ry = p[i + 1] - (y0 * (b0 + b1) + y3 * (b2 + b3));
    r0 += a1x * rx + a1y * ry;
    r1 += a2x * rx + a2y * ry;
  }
  const det = c00 * c11 - c01 * c01;
  const chord = hypot(x3 - x0, y3 - y0);
  let alpha0 = 0,
    alpha1 = 0;
  if (Math.abs(det) > 1e-12) {
    alpha0 = (r0 * c11 - r1 * c01) / det;
    alpha1 = (c00 * r1 - c01 * r0) / det;
  }
  const eps = 1e-6 * chord;
  if (!(alpha0 > eps) || !(alpha1 > eps) || alpha0 > 2 * chord || alpha1 > 2 * chord) alpha0 = alpha1 = chord / 3;
  out[0] = x0;
  out[1] = y0;
  out[2] = x0 + t0[0] * alpha0;
  out[3] = y0 + t0[1] * alpha0;
  out[4] = x3 + t1[0] * alpha1;
  out[5] = y3 + t1[1] * alpha1;
  out[6] = x3;
  out[7] = y3;
  return out;
}

function bezier(c: Float64Array, t: number): [number, number] {
  const s = 1 - t,
    b0 = s * s * s,
    b1 = 3 * t * s * s,
    b2 = 3 * t * t * s,
    b3 = t * t * t;
  return [b0 * c[0] + b1 * c[2] + b2 * c[4] + b3 * c[6], b0 * c[1] + b1 * c[3] + b2 * c[5] + b3 * c[7]];
}

function curveError(p: Float64Array, i0: number, i1: number, u: Float64Array, c: Float64Array): { max: number; index: number } {
  let max = 0,
    index = (i0 + i1) >> 1;
  for (let k = 1; k < u.length - 1; k++) {
    const [bx, by] = bezier(c, u[k]);
    const d = hypot(bx - p[(i0 + k) * 2], by - p[(i0 + k) * 2 + 1]);
    if (d > max) {
      max = d;
      index = i0 + k;
    }
  }
  return { max, index };
}

/** One Newton step per point towards the parameter of its nearest curve point. */
function reparameterize(p: Float64Array, i0: number, i1: number, u: Float64Array, c: Float64Array): void {
  for (let k = 1; k < u.length - 1; k++) {
    const [bx, by] = bezier(c, u[k]);
    u[k] = newtonParameter(c, u[k], bx - p[(i0 + k) * 2], by - p[(i0 + k) * 2 + 1]);
  }
}
