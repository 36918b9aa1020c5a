/**
 * Straight runs inside a curved span. A rounded rectangle has no corner (its arcs turn too slowly
 * for one), so its sides are fitted with its arcs: the cubic that carries an arc on into a long
 * side bows off the side by up to a quarter pixel and stays a curve (clean.cjs, calculator: its
 * outer left side a cubic bulging 0.2 px over 360 px, about a tenth of the 4x error). Where the
 * sub-pixel points lie on one line for a long way, that stretch is written as that line and the
 * curves on either side meet it along its direction, so the join stays smooth.
 */
import { hypot } from '../hypot.js';

/**
 * Points stray at most this far (px) from a straight run's chord. Sub-pixel points of a drawn edge
 * sit within a few hundredths of a pixel of it; an arc this long bows further unless its radius
 * is above about MIN_RUN_LENGTH² / (8 · RUN_TOLERANCE) = 640 px, flat at any zoom.
 */
const RUN_TOLERANCE = 0.05;
/** A straight run is at least this long (px): shorter stretches of a curve are flat to that tolerance. */
const MIN_RUN_LENGTH = 16;

/** The straight runs of points first..last as [from, to] index pairs, in order, not overlapping. */
export function straightRuns(xs: ArrayLike<number>, ys: ArrayLike<number>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  const m = xs.length;
  let from = 0;
  while (from < m - 2) {
    let to = from + 1;
    // grow while the chord from..to+1 still holds every point between within the tolerance
    while (to + 1 < m && chordHolds(xs, ys, from, to + 1)) to++;
    if (to - from >= 2 && hypot(xs[to] - xs[from], ys[to] - ys[from]) >= MIN_RUN_LENGTH) {
      runs.push([from, to]);
      from = to;
    } else from++;
  }
  return runs;
}

/**
 * Whether the chord from..to holds every point between within RUN_TOLERANCE: withinChord's answer.
 * Testing every point again for every longer chord made straightRuns quadratic in a run's length
 * (calculator: 940 000 point tests a trace for 13 500 points). Past SLEEVE_FROM points a run keeps
 * a sleeve instead, the directions its chord may take with every point so far within the tolerance,
 * and a chord well inside it needs no point tested.
 */
function chordHolds(xs: ArrayLike<number>, ys: ArrayLike<number>, from: number, to: number): boolean {
  const inside = to - from - 1;
  if (inside < SLEEVE_FROM) return withinChord(xs, ys, from, to);
  if (inside === SLEEVE_FROM) startSleeve(xs, ys, from, to);
  else narrowSleeve(xs, ys, to - 1);
  const dx = xs[to] - xs[from],
    dy = ys[to] - ys[from];
  if (sleeve.tested === 0 && hypot(dx, dy) >= 1e-9) {
    const t = halfTurn(Math.atan2(dy, dx) - sleeve.reference);
    if (t >= sleeve.low + SLEEVE_MARGIN && t <= sleeve.high - SLEEVE_MARGIN) return true;
  }
  return withinChord(xs, ys, from, to);
}

/**
 * Points of a sleeved run this close (px) to its first point, or this far (radians) from its
 * reference direction, are tested point by point (sleeve.tested > 0 then): the interval they allow
 * is wide or wraps, and it is not worth the care.
 */
const SLEEVE_NEAR = 2 * RUN_TOLERANCE;
const SLEEVE_WIDE = Math.PI / 4;
/** A run is sleeved once it holds this many points between its ends (shorter ones are tested point by point). */
const SLEEVE_FROM = 16;
/**
 * A chord this far (radians) inside the sleeve holds every point with room to spare: the angles
 * are exact to about 1e-15, and at the nearest sleeved point (SLEEVE_NEAR) this margin is still a
 * thousand times the rounding of withinChord's own products, so both tests agree.
 */
const SLEEVE_MARGIN = 1e-9;

/** The sleeve of the run being grown (one per thread; the runs are grown one at a time). */
const sleeve = { from: -1, reference: 0, low: -Infinity, high: Infinity, tested: 0 };

function startSleeve(xs: ArrayLike<number>, ys: ArrayLike<number>, from: number, to: number): void {
  sleeve.from = from;
  sleeve.reference = Math.atan2(ys[to] - ys[from], xs[to] - xs[from]);
  sleeve.low = -Infinity;
  sleeve.high = Infinity;
  sleeve.tested = 0;
  for (let i = from + 1; i < to; i++) narrowSleeve(xs, ys, i);
}

/** Narrows the sleeve to the chord directions that keep point i within RUN_TOLERANCE. */
function narrowSleeve(xs: ArrayLike<number>, ys: ArrayLike<number>, i: number): void {
  const a = xs[i] - xs[sleeve.from],
    b = ys[i] - ys[sleeve.from];
  const r = hypot(a, b);
  const along = r < SLEEVE_NEAR ? 0 : halfTurn(Math.atan2(b, a) - sleeve.reference);
  if (r < SLEEVE_NEAR || Math.abs(along) > SLEEVE_WIDE) {
    sleeve.tested++;
    return;
  }
  // the point lies r·|sin(θ − φ)| from a chord in direction θ: within the tolerance while θ stays
  // within asin(tolerance / r) of the point's own direction φ (or φ + π)
  const spread = Math.asin(RUN_TOLERANCE / r);
  if (along - spread > sleeve.low) sleeve.low = along - spread;
  if (along + spread < sleeve.high) sleeve.high = along + spread;
}

/** Whether every point strictly between from and to lies within RUN_TOLERANCE of the chord from..to. */
function withinChord(xs: ArrayLike<number>, ys: ArrayLike<number>, from: number, to: number): boolean {
  const dx = xs[to] - xs[from],
    dy = ys[to] - ys[from];
  const len = hypot(dx, dy);
  if (len < 1e-9) return false;
  const limit = RUN_TOLERANCE * len;
  for (let i = from + 1; i < to; i++) {
    if (Math.abs((xs[i] - xs[from]) * dy - (ys[i] - ys[from]) * dx) > limit) return false;
  }
  return true;
}

/** An angle as the same direction of a line in (−π/2, π/2]. */
function halfTurn(angle: number): number {
  let a = angle % Math.PI;
  if (a > Math.PI / 2) a -= Math.PI;
  else if (a <= -Math.PI / 2) a += Math.PI;
  return a;
}

/** Unit tangents at a span's ends, each pointing into the span: [t1x, t1y, t2x, t2y]. */
export type EndTangents = [number, number, number, number];
/** Fits a span's curve between given end tangents, appending its segments. */
export type CurveFit = (xs: Float64Array, ys: Float64Array, ends: EndTangents) => void;

/**
 * Fits points xs/ys (the span's ends included) with `fitCurve`, except that each straight run becomes
 * one line and the curves beside it leave and arrive along it. `line` appends a line to (x, y).
 */
export function fitAroundStraightRuns(
  xs: Float64Array,
  ys: Float64Array,
  ends: EndTangents,
  fitCurve: CurveFit,
  line: (x: number, y: number) => void,
): void {
  const m = xs.length;
  const runs = straightRuns(xs, ys);
  let at = 0,
    tx = ends[0],
    ty = ends[1];
  const curveTo = (end: number, ex: number, ey: number) => {
    if (end <= at) return;
    if (end - at < 3) line(xs[end], ys[end]);
    else fitCurve(xs.subarray(at, end + 1), ys.subarray(at, end + 1), [tx, ty, ex, ey]);
  };
  for (const [from, to] of runs) {
    const dx = xs[to] - xs[from],
      dy = ys[to] - ys[from];
    const len = hypot(dx, dy);
    curveTo(from, -dx / len, -dy / len);
    line(xs[to], ys[to]);
    at = to;
    tx = dx / len;
    ty = dy / len;
  }
  if (at === 0) fitCurve(xs, ys, ends);
  else curveTo(m - 1, ends[2], ends[3]);
}
