/**
 * Schneider's cubic fit as it was written in TypeScript (engine/fit/index.ts fitCubics and
 * fitOneCubic before they moved into WebAssembly, engine/wasm/assembly/cubic-fit.ts): the
 * reference the kernel is held to, number for number (test/engine/wasm/cubic-fit.test.ts).
 */
import { MAX_ARC_TURN, type CubicFit } from '../../../engine/fit/index.js';
import { newtonParameter } from '../../../engine/fit/newton.js';
import { hypot } from '../../../engine/hypot.js';

const MAX_DEPTH = 24;

/**
 * Schneider (Graphics Gems, 1990): fit one cubic to points [first, last] with fixed unit end
 * tangents (t1 leaving the first point, t2 leaving the last point backwards); split at the worst
 * point with a shared tangent when the error bound is not met.
 */
export function referenceFitCubics(
  fit: CubicFit,
  first: number,
  last: number,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  depth: number,
): void {
  const { px, py, turned } = fit;
  let split: number;
  const arcTurn = turned[last] - turned[first];
  if (arcTurn > MAX_ARC_TURN && last - first >= 4) {
    // one cubic bends a half circle visibly out of round: split where half the turning is done
    const half = turned[first] + arcTurn / 2;
    split = first + 1;
    while (split < last - 1 && turned[split] < half) split++;
  } else {
    const bez = new Float64Array(8);
    const error = referenceFitOneCubic(fit, first, last, t1x, t1y, t2x, t2y, bez);
    // the points all coincide: nothing to draw
    if (error < 0) return;
    if (error <= fit.tolerance || depth >= MAX_DEPTH) {
      fit.emit(first, last, t1x, t1y, t2x, t2y, bez);
      return;
    }
    split = Math.min(last - 1, Math.max(first + 1, worstIndex));
  }
  const lo = Math.max(first, split - fit.policy.splitWindow),
    hi = Math.min(last, split + fit.policy.splitWindow);
  let cx = px[lo] - px[hi],
    cy = py[lo] - py[hi];
  if (hypot(cx, cy) < 1e-12) {
    cx = px[lo] - px[split];
    cy = py[lo] - py[split];
  }
  const cn = hypot(cx, cy) || 1;
  cx /= cn;
  cy /= cn;
  referenceFitCubics(fit, first, split, t1x, t1y, cx, cy, depth + 1);
  referenceFitCubics(fit, split, last, -cx, -cy, t2x, t2y, depth + 1);
}

/**
 * Where the last generateAndMeasure (so the last fitOneCubic) met its largest error: a number
 * beside the returned error instead of a pair object per fit (these run for every cubic tried).
 */
let worstIndex = 0;

/**
 * The least-squares cubic over points first..last with the given end tangents, written to `bez`,
 * after the policy's Newton steps; its largest error (where: worstIndex), or -1 when the points coincide.
 */
export function referenceFitOneCubic(
  fit: CubicFit,
  first: number,
  last: number,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  bez: Float64Array,
): number {
  const { px, py, tolerance: tol, policy } = fit;
  const count = last - first + 1;
  const u = new Float64Array(count);
  u[0] = 0;
  for (let i = 1; i < count; i++) u[i] = u[i - 1] + hypot(px[first + i] - px[first + i - 1], py[first + i] - py[first + i - 1]);
  const arc = u[count - 1];
  // Two points always give a cubic (both ends, chord/3 handles: generateAndMeasure's fallback), so
  // no end point of the path goes missing; more points than that, all in one spot, give none.
  if (arc <= 1e-12) {
    if (count > 2) return -1;
  } else for (let i = 1; i < count; i++) u[i] /= arc;
  let worst = generateAndMeasure(px, py, first, last, u, t1x, t1y, t2x, t2y, bez);
  if (worst > tol && worst < tol * policy.newtonReach) {
    for (
      let step = 0;
      step < policy.newtonSteps && worst > tol && (!policy.newtonReachEachStep || worst < tol * policy.newtonReach);
      step++
    ) {
      reparameterize(px, py, first, u, bez);
      worst = generateAndMeasure(px, py, first, last, u, t1x, t1y, t2x, t2y, bez);
    }
  }
  return worst;
}

function generateAndMeasure(
  px: Float64Array,
  py: Float64Array,
  first: number,
  last: number,
  u: Float64Array,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  bez: Float64Array,
): number {
  const x0 = px[first],
    y0 = py[first],
    x3 = px[last],
    y3 = py[last];
  let c00 = 0,
    c01 = 0,
    c11 = 0,
    r0 = 0,
    r1 = 0;
  for (let i = 0; i <= last - first; i++) {
    const t = u[i],
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
    const tx = px[first + i] - (x0 * (b0 + b1) + x3 * (b2 + b3));
    const ty = py[first + i] - (y0 * (b0 + b1) + y3 * (b2 + b3));
    r0 += a1x * tx + a1y * ty;
    r1 += a2x * tx + a2y * ty;
  }
  const det = c00 * c11 - c01 * c01;
  const chord = hypot(x3 - x0, y3 - y0);
  let al = 0,
    ar = 0;
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
  bez[0] = x0;
  bez[1] = y0;
  bez[2] = x0 + t1x * al;
  bez[3] = y0 + t1y * al;
  bez[4] = x3 + t2x * ar;
  bez[5] = y3 + t2y * ar;
  bez[6] = x3;
  bez[7] = y3;
  let error = 0,
    index = (first + last) >> 1;
  for (let i = 1; i < last - first; i++) {
    const t = u[i],
      s = 1 - t;
    const b0 = s * s * s,
      b1 = 3 * s * s * t,
      b2 = 3 * s * t * t,
      b3 = t * t * t;
    const dx = b0 * bez[0] + b1 * bez[2] + b2 * bez[4] + b3 * bez[6] - px[first + i];
    const dy = b0 * bez[1] + b1 * bez[3] + b2 * bez[5] + b3 * bez[7] - py[first + i];
    const d = dx * dx + dy * dy;
    if (d > error) {
      error = d;
      index = first + i;
    }
  }
  worstIndex = index;
  return Math.sqrt(error);
}

/** One Newton step per point towards the parameter of its nearest point on the cubic. */
function reparameterize(px: Float64Array, py: Float64Array, first: number, u: Float64Array, b: Float64Array): void {
  for (let i = 1; i < u.length - 1; i++) {
    const t = u[i],
      s = 1 - t;
    const qx = s * s * s * b[0] + 3 * s * s * t * b[2] + 3 * s * t * t * b[4] + t * t * t * b[6];
    const qy = s * s * s * b[1] + 3 * s * s * t * b[3] + 3 * s * t * t * b[5] + t * t * t * b[7];
    u[i] = newtonParameter(b, t, qx - px[first + i], qy - py[first + i]);
  }
}
