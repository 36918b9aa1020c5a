/**
 * Curves fitted to the edge itself. An anti-aliased chain reaches the fitter as sub-pixel points
 * (engine/boundary/subpixel.ts) that lie within a few hundredths of a pixel of the drawn edge, so
 * there is no staircase left to smooth away: between two corners one Schneider fit to those
 * points gives curves that follow the edge closely with few nodes. The polygon and rounding
 * pieces of ./index.ts smooth a pixel staircase well, but on a smooth curve their cubics sit up to
 * a pixel inside it (their edges are chords; measured on an anti-aliased blob: 0.3-0.4 px mean
 * error, towards the centre of curvature, against 0.01 px for the points), which is what an
 * outline looks like zoomed in: every round shape a little thinner on one side.
 *
 * The corners still come from the polygon (Potrace's alpha and the interior angle), and where the
 * points are straight the cubics become lines in the shared clean-up (straighten, mergeLines).
 */
import { hypot } from '../hypot.js';
import { scratchFloat64Buffer, scratchSlots } from '../scratch.js';
import { fitAroundStraightRuns, type EndTangents } from './straight-runs.js';
import {
  fitCubics,
  fitOneCubic,
  mergeLines,
  straighten,
  MAX_ARC_TURN,
  type CubicFit,
  type CubicFitPolicy,
  type FitSettings,
  type FittedPath,
  type Segment,
} from './index.js';

/** The corners a chain's points are fitted between: index into the points (unrolled on a loop) and position. */
export interface Corners {
  at: number[];
  x: number[];
  y: number[];
}

/** Scratch slots (../scratch.ts): the points of the span being fitted, their turning, a tried join's cubic. */
const SPAN = scratchSlots('data fit', Float64Array, ['x', 'y', 'turned', 'joined']);

/**
 * The fit follows the points within this share of the smoothing's tolerance: the points are the
 * edge, so the tolerance only has to absorb their noise (a few hundredths of a pixel on drawn
 * edges, more on soft ones), not a staircase.
 */
const DATA_TOLERANCE_SHARE = 0.5;
/**
 * Points this close (px) to a corner are left out of the fit: anti-aliasing rounds a sharp corner
 * over about a pixel, and the corner itself is where the polygon's edge lines meet.
 */
const CORNER_BLUR = 1.5;
/** The tangent at a corner points at the middle of the points within this distance (px) of it. */
const TANGENT_REACH = 4;
/** Points on each side of a point whose chord gives its direction, for the turning a cubic may span. */
const DIRECTION_WINDOW = 2;

/**
 * Fits `points` (x,y pairs; a loop does not repeat its first point) between `corners`. An open
 * chain's corners include both ends; a loop without corners is fitted round from its first point.
 */
export function fitToData(points: Float64Array, closed: boolean, corners: Corners, settings: FitSettings): FittedPath {
  const n = points.length >> 1;
  const tolerance = settings.tolerance * DATA_TOLERANCE_SHARE;
  const out: Segment[] = [];
  // each span's long straight runs are written as lines (./straight-runs.ts), the rest as curves
  const fitPoints = (xs: Float64Array, ys: Float64Array, ends: EndTangents) =>
    fitAroundStraightRuns(
      xs,
      ys,
      ends,
      (cx, cy, t) => fitSpan(cx, cy, ...t, tolerance, out),
      (x, y) => out.push({ kind: 'L', x, y }),
    );
  const k = corners.at.length;
  if (k === 0) {
    // a smooth loop: round from point 0 back to it, leaving and arriving along its tangent
    const xs = new Float64Array(n + 1),
      ys = new Float64Array(n + 1);
    for (let i = 0; i <= n; i++) {
      xs[i] = points[2 * (i % n)];
      ys[i] = points[2 * (i % n) + 1];
    }
    let tx = points[2 * 1] - points[2 * (n - 1)],
      ty = points[3] - points[2 * (n - 1) + 1];
    for (let w = 2; w <= Math.min(3, n >> 2); w++) {
      tx += points[2 * w] - points[2 * (n - w)];
      ty += points[2 * w + 1] - points[2 * (n - w) + 1];
    }
    const len = hypot(tx, ty) || 1;
    fitPoints(xs, ys, [tx / len, ty / len, -tx / len, -ty / len]);
    const start = { x: xs[0], y: ys[0] };
    return finish(start, out, closed, settings);
  }
  const spans = closed ? k : k - 1;
  for (let s = 0; s < spans; s++) {
    const a = s,
      b = (s + 1) % k;
    const from = corners.at[a];
    let to = corners.at[b];
    if (closed && to <= from) to += n;
    const ax = corners.x[a],
      ay = corners.y[a],
      bx = corners.x[b],
      by = corners.y[b];
    // the points between the corners, away from their blurred tips (in scratch buffers: spans are
    // fitted one after another, and a new array per span cost more than a short span's fit)
    const spanX = scratchFloat64Buffer(SPAN.x, to - from + 1),
      spanY = scratchFloat64Buffer(SPAN.y, to - from + 1);
    spanX[0] = ax;
    spanY[0] = ay;
    let m = 1;
    for (let i = from + 1; i < to; i++) {
      const q = i % n;
      const x = points[2 * q],
        y = points[2 * q + 1];
      if (hypot(x - ax, y - ay) < CORNER_BLUR || hypot(x - bx, y - by) < CORNER_BLUR) continue;
      spanX[m] = x;
      spanY[m++] = y;
    }
    spanX[m] = bx;
    spanY[m++] = by;
    if (m <= 3) {
      out.push({ kind: 'L', x: bx, y: by });
      continue;
    }
    const xs = spanX.subarray(0, m),
      ys = spanY.subarray(0, m);
    const [t1x, t1y] = cornerTangent(xs, ys, 0, 1);
    const [t2x, t2y] = cornerTangent(xs, ys, m - 1, -1);
    fitPoints(xs, ys, [t1x, t1y, t2x, t2y]);
  }
  return finish({ x: corners.x[0], y: corners.y[0] }, out, closed, settings);
}

/** Unit tangent leaving point `end` of the span towards the middle of the points near it. */
function cornerTangent(xs: Float64Array, ys: Float64Array, end: number, step: number): [number, number] {
  const x0 = xs[end],
    y0 = ys[end];
  let sx = 0,
    sy = 0,
    count = 0;
  for (let i = end + step; i >= 0 && i < xs.length; i += step) {
    if (hypot(xs[i] - x0, ys[i] - y0) > TANGENT_REACH && count > 0) break;
    sx += xs[i];
    sy += ys[i];
    count++;
  }
  const dx = sx / count - x0,
    dy = sy / count - y0;
  const len = hypot(dx, dy);
  return len > 1e-9 ? [dx / len, dy / len] : [step, 0];
}

function fitSpan(
  xs: Float64Array,
  ys: Float64Array,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  tol: number,
  out: Segment[],
): void {
  const m = xs.length;
  // cumulative turning, each point's direction taken over a few points so noise does not add up
  const turned = scratchFloat64Buffer(SPAN.turned, m);
  turned[0] = 0;
  let previous = 0;
  for (let i = 0; i < m; i++) {
    const lo = Math.max(0, i - DIRECTION_WINDOW),
      hi = Math.min(m - 1, i + DIRECTION_WINDOW);
    const angle = Math.atan2(ys[hi] - ys[lo], xs[hi] - xs[lo]);
    if (i > 0) {
      let d = angle - previous;
      if (d > Math.PI) d -= 2 * Math.PI;
      else if (d < -Math.PI) d += 2 * Math.PI;
      turned[i] = turned[i - 1] + Math.abs(d);
    }
    previous = angle;
  }
  const cubics: SpanCubic[] = [];
  const emit = (first: number, last: number, t1x: number, t1y: number, t2x: number, t2y: number, bez: Float64Array) => {
    cubics.push({ first, last, t1x, t1y, t2x, t2y, x1: bez[2], y1: bez[3], x2: bez[4], y2: bez[5] });
  };
  const fit: CubicFit = { px: xs, py: ys, turned, tolerance: tol, policy: DATA_FIT, emit };
  fitCubics(fit, 0, m - 1, t1x, t1y, t2x, t2y, 0);
  // A split is made where one cubic strays most, which is rarely where two are best joined: try
  // each pair of neighbours again as one cubic (Potrace's curve optimisation does the same).
  for (let i = 0; i + 1 < cubics.length;) {
    const a = cubics[i],
      b = cubics[i + 1];
    const bez = scratchFloat64Buffer(SPAN.joined, 8);
    // the joined cubic's error, or -1 (none: too much turning, or the points coincide)
    const joined =
      turned[b.last] - turned[a.first] <= MAX_ARC_TURN ? fitOneCubic(fit, a.first, b.last, a.t1x, a.t1y, b.t2x, b.t2y, bez) : -1;
    if (joined >= 0 && joined <= tol) {
      cubics.splice(i, 2, {
        first: a.first,
        last: b.last,
        t1x: a.t1x,
        t1y: a.t1y,
        t2x: b.t2x,
        t2y: b.t2y,
        x1: bez[2],
        y1: bez[3],
        x2: bez[4],
        y2: bez[5],
      });
      if (i > 0) i--;
    } else i++;
  }
  for (const c of cubics) out.push({ kind: 'C', x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2, x: xs[c.last], y: ys[c.last] });
}

/** A fitted cubic over points first..last, with the end tangents it was fitted to (for joining two). */
interface SpanCubic {
  first: number;
  last: number;
  t1x: number;
  t1y: number;
  t2x: number;
  t2y: number;
  /** Its control points (its ends are points first and last). */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * The points are the edge itself: a near miss gets more Newton steps (each ends when the error
 * leaves the reach), and the tangent at a split is read over a few points so their noise does not
 * tilt it.
 */
const DATA_FIT: CubicFitPolicy = { newtonSteps: 8, newtonReach: 8, newtonReachEachStep: true, splitWindow: 3 };

function finish(start: { x: number; y: number }, out: Segment[], closed: boolean, settings: FitSettings): FittedPath {
  if (closed && out.length > 0) {
    // the last segment ends where the first began: the exact same numbers, so the path closes
    const last = out[out.length - 1];
    last.x = start.x;
    last.y = start.y;
  }
  return { start, segments: mergeLines(start, straighten(start, out, settings.straightTolerance), settings.straightTolerance) };
}

/** A corner turns at least this much (radians) between the edge's directions just before and after it. */
const CORNER_TURN = (50 * Math.PI) / 180;
/** The directions on each side of a corner are read from the points this far (px) from it, past its blur. */
const SIDE_REACH = 3;

/**
 * Whether the points turn sharply at (x, y), point `at` of `n`: the directions of the points
 * between CORNER_BLUR and SIDE_REACH px before and after it differ by at least CORNER_TURN. A curve
 * turns that much over those few pixels only when its radius is under about five pixels.
 */
export function turnsSharply(points: Float64Array, n: number, at: number, closed: boolean): boolean {
  const x = points[2 * at],
    y = points[2 * at + 1];
  const side = (step: number): [number, number] | null => {
    let sx = 0,
      sy = 0,
      count = 0;
    for (let k = 1; k < n; k++) {
      const i = at + step * k;
      if (!closed && (i < 0 || i >= n)) break;
      const q = ((i % n) + n) % n;
      const d = hypot(points[2 * q] - x, points[2 * q + 1] - y);
      if (d > SIDE_REACH) break;
      if (d < CORNER_BLUR * 0.67) continue;
      sx += points[2 * q] - x;
      sy += points[2 * q + 1] - y;
      count++;
    }
    return count > 0 ? [sx / count, sy / count] : null;
  };
  const before = side(-1),
    after = side(1);
  if (before === null || after === null) return true;
  // the turn from arriving along -before to leaving along after
  const ax = -before[0],
    ay = -before[1];
  const turn = Math.abs(Math.atan2(ax * after[1] - ay * after[0], ax * after[0] + ay * after[1]));
  return turn >= CORNER_TURN;
}
