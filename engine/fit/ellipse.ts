/**
 * Circles and ellipses: a closed chain that runs round one ellipse within tolerance is written as
 * that ellipse (two half-ellipse arcs), as an illustrator would draw it, instead of four or more
 * cubics that only come close to round.
 *
 * The conic a·x² + b·xy + c·y² + d·x + e·y + f = 0 is fitted to the chain's staircase middles
 * (or its sub-pixel points: nothing here assumes integer coordinates) by linear least squares
 * under the constraint a + c = 1, which no ellipse violates and which, unlike f = 1, does not
 * depend on where the origin is. Points are centred and scaled first, so the 5×5 normal equations
 * stay well conditioned on large images. Every point must then lie within the tolerance of the
 * ellipse (by its first-order geometric distance) for the fit to count.
 */
import type { FittedPath } from './index.js';
import { hypot } from '../hypot.js';
import { scratchFloat64Buffer, scratchSlots } from '../scratch.js';

export interface Ellipse {
  cx: number;
  cy: number;
  /** Semi-axes: rx along the direction `rotation`, ry across it. */
  rx: number;
  ry: number;
  /** Degrees, from the x axis towards the y axis (clockwise on screen). */
  rotation: number;
}

/** Scratch slot (../scratch.ts) of the normal equations solve5 reduces in place. */
const NORMAL = scratchSlots('ellipse', Float64Array, ['equations']);

/** Smaller rings are a few pixels across: whatever they are, a polygon or a curve says it as well. */
const MIN_POINTS = 16;
const MIN_RADIUS = 2;
/** Flatter than this is a stroke or a sliver, not an ellipse anyone drew. */
const MIN_AXIS_RATIO = 0.08;
/** Axes closer than this (px, and as a share of the radius) make a circle. */
const CIRCLE_AXIS_GAP = 0.3;
const CIRCLE_AXIS_SHARE = 0.03;

/**
 * The ellipse through `points` (x,y pairs of a closed ring, in order) when every point lies within
 * `maxDeviation` of it and their root-mean-square distance is within `maxRms`; else null.
 */
export function fitEllipse(points: Float64Array, maxDeviation: number, maxRms: number): Ellipse | null {
  const n = points.length >> 1;
  if (n < MIN_POINTS) return null;
  let mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    mx += points[2 * i];
    my += points[2 * i + 1];
  }
  mx /= n;
  my /= n;
  let spread = 0;
  for (let i = 0; i < n; i++) spread += (points[2 * i] - mx) ** 2 + (points[2 * i + 1] - my) ** 2;
  const scale = Math.sqrt(spread / n);
  if (!(scale >= MIN_RADIUS * 0.5)) return null;

  // Normal equations of  A(u²−v²) + B·uv + D·u + E·v + F = −v²  (C = 1 − A), the row of terms
  // (w, uv, u, v, 1) with w = u² − v². Summed in locals, the upper triangle only: entry (c, r) is
  // the sum of the same products as (r, c) in the same order, so the same number, and a product
  // with the row's 1 is the term itself (every ring of every trace comes here, most of them no
  // ellipse at all).
  let ww = 0,
    wb = 0,
    wu = 0,
    wv = 0,
    w1 = 0,
    wt = 0,
    bb = 0,
    bu = 0,
    bv = 0,
    b1 = 0,
    bt = 0,
    uu = 0,
    uv = 0,
    u1 = 0,
    ut = 0,
    vv = 0,
    v1 = 0,
    vt = 0,
    t1 = 0;
  for (let i = 0; i < n; i++) {
    const u = (points[2 * i] - mx) / scale,
      v = (points[2 * i + 1] - my) / scale;
    const w = u * u - v * v,
      b = u * v,
      target = -v * v;
    ww += w * w;
    wb += w * b;
    wu += w * u;
    wv += w * v;
    w1 += w;
    wt += w * target;
    bb += b * b;
    bu += b * u;
    bv += b * v;
    b1 += b;
    bt += b * target;
    uu += u * u;
    uv += u * v;
    u1 += u;
    ut += u * target;
    vv += v * v;
    v1 += v;
    vt += v * target;
    t1 += target;
  }
  // 5 rows of 5 coefficients and the right-hand side
  const m = scratchFloat64Buffer(NORMAL.equations, 30);
  m[0] = ww;
  m[1] = m[6] = wb;
  m[2] = m[12] = wu;
  m[3] = m[18] = wv;
  m[4] = m[24] = w1;
  m[5] = wt;
  m[7] = bb;
  m[8] = m[13] = bu;
  m[9] = m[19] = bv;
  m[10] = m[25] = b1;
  m[11] = bt;
  m[14] = uu;
  m[15] = m[20] = uv;
  m[16] = m[26] = u1;
  m[17] = ut;
  m[21] = vv;
  m[22] = m[27] = v1;
  m[23] = vt;
  m[28] = n; // the sum of n ones
  m[29] = t1;
  const solution = solve5(m);
  if (solution === null) return null;
  const [A, B, D, E, F] = solution;
  const C = 1 - A;
  const det = 4 * A * C - B * B;
  if (!(det > 1e-12)) return null; // a parabola or hyperbola: not closed

  // centre: where the gradient vanishes
  const u0 = (B * E - 2 * C * D) / det,
    v0 = (B * D - 2 * A * E) / det;
  const f0 = F + (D * u0 + E * v0) / 2;
  const theta = 0.5 * Math.atan2(B, A - C);
  const cos = Math.cos(theta),
    sin = Math.sin(theta);
  const l1 = A * cos * cos + B * cos * sin + C * sin * sin;
  const l2 = A * sin * sin - B * cos * sin + C * cos * cos;
  if (!(l1 * f0 < 0 && l2 * f0 < 0)) return null; // imaginary ellipse
  let rx = Math.sqrt(-f0 / l1) * scale,
    ry = Math.sqrt(-f0 / l2) * scale;
  const cx = mx + u0 * scale,
    cy = my + v0 * scale;
  let rotation = (theta * 180) / Math.PI;
  if (Math.min(rx, ry) < MIN_RADIUS || Math.min(rx, ry) < MIN_AXIS_RATIO * Math.max(rx, ry)) return null;
  const mean = (rx + ry) / 2;
  if (Math.abs(rx - ry) <= Math.max(CIRCLE_AXIS_GAP, CIRCLE_AXIS_SHARE * mean)) {
    // A circle: its radius is the points' mean distance from the centre, which an algebraic fit
    // would bias towards the flatter side of a digital staircase.
    let sum = 0;
    for (let i = 0; i < n; i++) sum += hypot(points[2 * i] - cx, points[2 * i + 1] - cy);
    rx = ry = sum / n;
    rotation = 0;
  } else if (rotation < 0) rotation += 180;
  const ellipse = { cx, cy, rx, ry, rotation };
  return fitsWithin(points, ellipse, maxDeviation, maxRms) ? ellipse : null;
}

/** Whether every point lies within `maxDeviation` of the ellipse, and all within `maxRms` on average. */
function fitsWithin(points: Float64Array, e: Ellipse, maxDeviation: number, maxRms: number): boolean {
  const n = points.length >> 1;
  const t = (e.rotation * Math.PI) / 180,
    cos = Math.cos(t),
    sin = Math.sin(t);
  const ia = 1 / (e.rx * e.rx),
    ib = 1 / (e.ry * e.ry);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const dx = points[2 * i] - e.cx,
      dy = points[2 * i + 1] - e.cy;
    const p = dx * cos + dy * sin,
      q = -dx * sin + dy * cos;
    // first-order (Sampson) distance: the implicit value over its gradient's length, refined by
    // the exact radial distance when the ellipse is a circle
    let d: number;
    if (e.rx === e.ry) d = Math.abs(hypot(p, q) - e.rx);
    else {
      const g = p * p * ia + q * q * ib - 1;
      const gx = 2 * p * ia,
        gy = 2 * q * ib;
      d = Math.abs(g) / (hypot(gx, gy) || 1);
    }
    if (d > maxDeviation) return false;
    sum += d * d;
  }
  return Math.sqrt(sum / n) <= maxRms;
}

/** Gaussian elimination with partial pivoting on a 5×6 augmented matrix (row-major, 6 per row). */
function solve5(m: Float64Array): number[] | null {
  for (let col = 0; col < 5; col++) {
    let pivot = col;
    for (let r = col + 1; r < 5; r++) if (Math.abs(m[r * 6 + col]) > Math.abs(m[pivot * 6 + col])) pivot = r;
    if (Math.abs(m[pivot * 6 + col]) < 1e-12) return null;
    if (pivot !== col)
      for (let c = 0; c < 6; c++) {
        const tmp = m[col * 6 + c];
        m[col * 6 + c] = m[pivot * 6 + c];
        m[pivot * 6 + c] = tmp;
      }
    for (let r = col + 1; r < 5; r++) {
      const f = m[r * 6 + col] / m[col * 6 + col];
      for (let c = col; c < 6; c++) m[r * 6 + c] -= f * m[col * 6 + c];
    }
  }
  const x = [0, 0, 0, 0, 0];
  for (let r = 4; r >= 0; r--) {
    let s = m[r * 6 + 5];
    for (let c = r + 1; c < 5; c++) s -= m[r * 6 + c] * x[c];
    x[r] = s / m[r * 6 + r];
  }
  return x;
}

/**
 * The ellipse as a closed path of two half-ellipse arcs, from the end of its rx axis round to the
 * other end and back, turning the way the chain turned (clockwise on screen when `clockwise`).
 */
export function ellipsePath(e: Ellipse, clockwise: boolean): FittedPath {
  const t = (e.rotation * Math.PI) / 180;
  const ax = e.rx * Math.cos(t),
    ay = e.rx * Math.sin(t);
  const arc = (x: number, y: number) => ({ kind: 'A' as const, rx: e.rx, ry: e.ry, rotation: e.rotation, sweep: clockwise ? 1 : 0, x, y });
  return { start: { x: e.cx + ax, y: e.cy + ay }, segments: [arc(e.cx - ax, e.cy - ay), arc(e.cx + ax, e.cy + ay)] };
}

/**
 * The ellipse a closed path of two half-ellipse arcs (ellipsePath's form) draws, or null for any
 * other path: its centre is the middle of the two arcs' ends.
 */
export function ellipseOfPath(path: FittedPath): Ellipse | null {
  const [a, b] = path.segments;
  if (path.segments.length !== 2 || a.kind !== 'A' || b.kind !== 'A') return null;
  return { cx: (path.start.x + a.x) / 2, cy: (path.start.y + a.y) / 2, rx: a.rx, ry: a.ry, rotation: a.rotation };
}
