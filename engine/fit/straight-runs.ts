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
    while (to + 1 < m && withinChord(xs, ys, from, to + 1)) to++;
    if (to - from >= 2 && hypot(xs[to] - xs[from], ys[to] - ys[from]) >= MIN_RUN_LENGTH) {
      runs.push([from, to]);
      from = to;
    } else from++;
  }
  return runs;
}

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
