/**
 * One Schneider cubic fit (engine/fit/index.ts fitOneCubic) in AssemblyScript: the chord-length
 * parameters, the least-squares handle lengths along the given end tangents, the largest error,
 * and the policy's Newton steps (engine/fit/newton.ts) each followed by a new fit. Every curve
 * the tracer writes is made here, tried many times over as runs are split; the arithmetic is the
 * TypeScript's, in its order, so the cubics are its cubics to the bit.
 *
 * The caller (engine/wasm/cubic-fit.ts) copies a run's points and their cumulative turning into
 * `xs`, `ys` and `turned` once, then asks for the cubics over any stretch of them: `fitCubics`
 * splits as engine/fit/index.ts fitCubics splits and lists the cubics it accepts, in order, for
 * the caller to hand on; `fitOneCubic` leaves one cubic in `bez`.
 */

import { f64At, setF64 } from './lib/memory';

let xs: usize = 0,
  ys: usize = 0,
  turned: usize = 0,
  us: usize = 0,
  bez: usize = 0,
  emitted: usize = 0;
/** Where the last fit met its largest error (an index into the run's points): where `split` cuts. */
let worstIndex: i32 = 0;
/** Cubics fitCubics has listed, 14 numbers each: first, last, the two tangents, the eight of bez. */
let emittedCount: i32 = 0;
/** Numbers per listed cubic. */
const EMITTED: i32 = 14;

const MAX_DEPTH: i32 = 24;
/** A cubic through more than this much turning (radians) flattens a round shape; 100° keeps circles to 4 arcs. */
const MAX_ARC_TURN: f64 = (100 * Math.PI) / 180;

// the fit in progress (engine/fit/index.ts CubicFitPolicy)
let tolerance: f64 = 0,
  newtonSteps: i32 = 0,
  newtonReach: f64 = 0,
  reachEachStep: bool = false,
  splitWindow: i32 = 0;

/**
 * Lays the arrays out from `base` for up to `capacity` points: xs, ys, turned, us, the cubic's
 * eight numbers, then the list of cubics (at most one a point).
 */
export function layout(base: usize, capacity: i32): void {
  const bytes = <usize>capacity << 3;
  xs = base;
  ys = xs + bytes;
  turned = ys + bytes;
  us = turned + bytes;
  bez = us + bytes;
  emitted = bez + 64;
}

/** The policy and tolerance the next fits use. */
export function setPolicy(fitTolerance: f64, steps: i32, reach: f64, eachStep: bool, window: i32): void {
  tolerance = fitTolerance;
  newtonSteps = steps;
  newtonReach = reach;
  reachEachStep = eachStep;
  splitWindow = window;
}

/**
 * engine/fit/index.ts fitCubics over points first..last: the accepted cubics listed in order.
 * Returns how many.
 */
export function fitCubics(first: i32, last: i32, t1x: f64, t1y: f64, t2x: f64, t2y: f64, depth: i32): i32 {
  emittedCount = 0;
  split(first, last, t1x, t1y, t2x, t2y, depth);
  return emittedCount;
}

function split(first: i32, last: i32, t1x: f64, t1y: f64, t2x: f64, t2y: f64, depth: i32): void {
  let cut: i32;
  const arcTurn = load<f64>(turned + (<usize>last << 3)) - load<f64>(turned + (<usize>first << 3));
  if (arcTurn > MAX_ARC_TURN && last - first >= 4) {
    // one cubic bends a half circle visibly out of round: split where half the turning is done
    const half = load<f64>(turned + (<usize>first << 3)) + arcTurn / 2;
    cut = first + 1;
    while (cut < last - 1 && load<f64>(turned + (<usize>cut << 3)) < half) cut++;
  } else {
    const error = fitOneCubic(first, last, t1x, t1y, t2x, t2y);
    // the points all coincide: nothing to draw
    if (error < 0) return;
    if (error <= tolerance || depth >= MAX_DEPTH) {
      const o = emitted + (<usize>(emittedCount * EMITTED) << 3);
      store<f64>(o, <f64>first);
      store<f64>(o, <f64>last, 8);
      store<f64>(o, t1x, 16);
      store<f64>(o, t1y, 24);
      store<f64>(o, t2x, 32);
      store<f64>(o, t2y, 40);
      memory.copy(o + 48, bez, 64);
      emittedCount++;
      return;
    }
    cut = min(last - 1, max(first + 1, worstIndex));
  }
  const lo = max(first, cut - splitWindow),
    hi = min(last, cut + splitWindow);
  let cx = pointX(lo) - pointX(hi),
    cy = pointY(lo) - pointY(hi);
  if (hypot(cx, cy) < 1e-12) {
    cx = pointX(lo) - pointX(cut);
    cy = pointY(lo) - pointY(cut);
  }
  let cn = hypot(cx, cy);
  if (cn === 0 || isNaN(cn)) cn = 1;
  cx /= cn;
  cy /= cn;
  split(first, cut, t1x, t1y, cx, cy, depth + 1);
  split(cut, last, -cx, -cy, t2x, t2y, depth + 1);
}

@inline
function pointX(k: i32): f64 {
  return load<f64>(xs + (<usize>k << 3));
}

@inline
function pointY(k: i32): f64 {
  return load<f64>(ys + (<usize>k << 3));
}

/**
 * The cubic over points first..last leaving along (t1x, t1y) and arriving back along (t2x, t2y),
 * in `bez`: its largest error, or -1 when the points coincide. Newton steps run while the error is
 * over the tolerance and under tolerance·newtonReach (checked before every step when
 * `reachEachStep`), at most `newtonSteps` of them.
 */
export function fitOneCubic(first: i32, last: i32, t1x: f64, t1y: f64, t2x: f64, t2y: f64): f64 {
  const count = last - first + 1;
  const px = xs + (<usize>first << 3),
    py = ys + (<usize>first << 3);
  setF64(us, 0, 0);
  for (let i = 1; i < count; i++) setF64(us, i, f64At(us, i - 1) + hypot(f64At(px, i) - f64At(px, i - 1), f64At(py, i) - f64At(py, i - 1)));
  const arc = f64At(us, count - 1);
  // two points always give a cubic (chord/3 handles), more in one spot none
  if (arc <= 1e-12) {
    if (count > 2) return -1;
  } else for (let i = 1; i < count; i++) setF64(us, i, f64At(us, i) / arc);
  let worst = generateAndMeasure(px, py, count, first, t1x, t1y, t2x, t2y);
  if (worst > tolerance && worst < tolerance * newtonReach) {
    for (let step = 0; step < newtonSteps && worst > tolerance && (!reachEachStep || worst < tolerance * newtonReach); step++) {
      reparameterize(px, py, count);
      worst = generateAndMeasure(px, py, count, first, t1x, t1y, t2x, t2y);
    }
  }
  return worst;
}

/** The points' cubic for their parameters in `us` (`px`, `py`: the run from its first point). */
function generateAndMeasure(px: usize, py: usize, count: i32, first: i32, t1x: f64, t1y: f64, t2x: f64, t2y: f64): f64 {
  const last = count - 1;
  const x0 = f64At(px, 0),
    y0 = f64At(py, 0),
    x3 = f64At(px, last),
    y3 = f64At(py, last);
  let c00: f64 = 0,
    c01: f64 = 0,
    c11: f64 = 0,
    r0: f64 = 0,
    r1: f64 = 0;
  for (let i = 0; i <= last; i++) {
    const t = f64At(us, i),
      s = 1 - t;
    const b0 = s * s * s,
      b1 = 3 * s * s * t,
      b2 = 3 * s * t * t,
      b3 = t * t * t;
    const a1x = t1x * b1,
      a1y = t1y * b1,
      a2x = t2x * b2,
      a2y = t2y * b2;
    c00 += a1x * a1x + a1y * a1y;
    c01 += a1x * a2x + a1y * a2y;
    c11 += a2x * a2x + a2y * a2y;
    const tx = f64At(px, i) - (x0 * (b0 + b1) + x3 * (b2 + b3));
    const ty = f64At(py, i) - (y0 * (b0 + b1) + y3 * (b2 + b3));
    r0 += a1x * tx + a1y * ty;
    r1 += a2x * tx + a2y * ty;
  }
  const det = c00 * c11 - c01 * c01;
  const chord = hypot(x3 - x0, y3 - y0);
  let al: f64 = 0,
    ar: f64 = 0;
  if (Math.abs(det) > 1e-12) {
    al = (r0 * c11 - r1 * c01) / det;
    ar = (c00 * r1 - c01 * r0) / det;
  }
  // Schneider's fallback: a degenerate or backwards solution becomes the chord/3 heuristic
  const eps = 1e-6 * chord;
  if (!(al > eps) || !(ar > eps) || al > 3 * chord + 1 || ar > 3 * chord + 1) {
    al = chord / 3;
    ar = chord / 3;
  }
  const b1x = x0 + t1x * al,
    b1y = y0 + t1y * al,
    b2x = x3 + t2x * ar,
    b2y = y3 + t2y * ar;
  setF64(bez, 0, x0);
  setF64(bez, 1, y0);
  setF64(bez, 2, b1x);
  setF64(bez, 3, b1y);
  setF64(bez, 4, b2x);
  setF64(bez, 5, b2y);
  setF64(bez, 6, x3);
  setF64(bez, 7, y3);
  let error: f64 = 0;
  let index = (first + first + last) >> 1;
  for (let i = 1; i < last; i++) {
    const t = f64At(us, i),
      s = 1 - t;
    const b0 = s * s * s,
      b1 = 3 * s * s * t,
      b2 = 3 * s * t * t,
      b3 = t * t * t;
    const dx = b0 * x0 + b1 * b1x + b2 * b2x + b3 * x3 - f64At(px, i);
    const dy = b0 * y0 + b1 * b1y + b2 * b2y + b3 * y3 - f64At(py, i);
    const d = dx * dx + dy * dy;
    if (d > error) {
      error = d;
      index = first + i;
    }
  }
  worstIndex = index;
  return Math.sqrt(error);
}

/** One Newton step per inner point towards the parameter of its nearest point on the cubic. */
function reparameterize(px: usize, py: usize, count: i32): void {
  const b0x = f64At(bez, 0),
    b0y = f64At(bez, 1),
    b1x = f64At(bez, 2),
    b1y = f64At(bez, 3),
    b2x = f64At(bez, 4),
    b2y = f64At(bez, 5),
    b3x = f64At(bez, 6),
    b3y = f64At(bez, 7);
  for (let i = 1; i < count - 1; i++) {
    const t = f64At(us, i),
      s = 1 - t;
    const qx = s * s * s * b0x + 3 * s * s * t * b1x + 3 * s * t * t * b2x + t * t * t * b3x;
    const qy = s * s * s * b0y + 3 * s * s * t * b1y + 3 * s * t * t * b2y + t * t * t * b3y;
    setF64(us, i, newtonParameter(t, qx - f64At(px, i), qy - f64At(py, i), b0x, b0y, b1x, b1y, b2x, b2y, b3x, b3y));
  }
}

/** engine/fit/newton.ts newtonParameter, the same steps. */
@inline
function newtonParameter(t: f64, ex: f64, ey: f64, b0x: f64, b0y: f64, b1x: f64, b1y: f64, b2x: f64, b2y: f64, b3x: f64, b3y: f64): f64 {
  const s = 1 - t;
  const d1x = 3 * (s * s * (b1x - b0x) + 2 * s * t * (b2x - b1x) + t * t * (b3x - b2x));
  const d1y = 3 * (s * s * (b1y - b0y) + 2 * s * t * (b2y - b1y) + t * t * (b3y - b2y));
  const d2x = 6 * (s * (b2x - 2 * b1x + b0x) + t * (b3x - 2 * b2x + b1x));
  const d2y = 6 * (s * (b2y - 2 * b1y + b0y) + t * (b3y - 2 * b2y + b1y));
  const num = ex * d1x + ey * d1y;
  const den = d1x * d1x + d1y * d1y + ex * d2x + ey * d2y;
  if (!(Math.abs(den) > 1e-12)) return t;
  const next = t - num / den;
  return next < 0 ? 0 : next > 1 ? 1 : next;
}

/** engine/hypot.ts hypot, the same steps (V8's Math.hypot's). */
function hypot(x: f64, y: f64): f64 {
  const ax = Math.abs(x),
    ay = Math.abs(y);
  if (ax === Infinity || ay === Infinity) return ax === Infinity ? ax : ay;
  if (isNaN(ax) || isNaN(ay)) return ax + ay;
  const max = ax < ay ? ay : ax;
  if (max === 0) return max;
  const nx = ax / max,
    ny = ay / max;
  return Math.sqrt(nx * nx + ny * ny) * max;
}
