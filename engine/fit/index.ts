/**
 * Fit stage: a boundary chain of pixel-corner (crack) points in, a few straight lines and cubic
 * Béziers out. Designers judge this at 400 % zoom, so every step below exists to stop one defect:
 *
 * 1. staircase removal: the chain's unit cracks are replaced by their midpoints, so a 45° staircase
 *    becomes a straight row of points and a shallow one wobbles by at most a third of a pixel;
 * 2. polygon: greedy longest-straight-run cover of those midpoints (the cone test of Sklansky and
 *    Gonzalez), so long axis-aligned and diagonal runs become single edges; each vertex is then moved
 *    to where the least-squares lines of its two edges meet (Potrace's vertex adjustment), which
 *    puts rectangle corners back on the exact pixel corner;
 * 3. corners: Potrace's alpha (how far a vertex sits from the chord of its neighbours, in pixels)
 *    plus the interior angle decide which vertices stay sharp; `smoothing` sets both thresholds;
 * 4. smooth curve: at each other vertex a Bézier joins the two edges tangentially (Potrace), but the
 *    rounding reaches at most a few pixels into a long edge, so the straight part of an edge stays
 *    straight and only the corner rounds;
 * 5. Schneider's least-squares cubic fit with error bound `tolerance` over each run between corners
 *    and long straight parts, with tangent continuity at every split; near-straight cubics become
 *    lines and collinear lines merge, to keep node counts (bytes) low.
 *
 * Everything is typed-array arithmetic; no per-point objects until the (few) output segments.
 */
import type { Smoothing } from '../types.js';
import {
  grownFloat64Buffer,
  scratchFloat64,
  scratchFloat64Buffer,
  scratchInt32,
  scratchSlots,
  scratchUint8,
  zeroedFloat64,
  zeroedUint8,
} from '../scratch.js';
import { hypot } from '../hypot.js';
import { fitToData, turnsSharply, type Corners } from './data-fit.js';
import { fitCubicsInKernel, fitOneCubicInKernel } from '../wasm/cubic-fit.js';
import { crackPolygon } from './optimal-polygon.js';

/** Scratch slots (../scratch.ts): one per call site, none alive twice at once. */
const F64 = scratchSlots('fit', Float64Array, [
  'Mids',
  'SumX',
  'SumY',
  'SumXX',
  'SumXY',
  'SumYY',
  'PolyX',
  'PolyY',
  'LineX',
  'LineY',
  'LineUx',
  'LineUy',
  'MovedX',
  'MovedY',
  'SharpX',
  'SharpY',
  'Alpha',
  'Turn',
  'StartCut',
  'EndCut',
  'EdgeLen',
  'Pieces',
  'SampleX',
  'SampleY',
  'Turned',
  'Run',
]);
const I32 = scratchSlots('fit', Int32Array, ['PolyAt', 'SharpAt', 'SampleCounts']);
const U8 = scratchSlots('fit', Uint8Array, ['Keep', 'Corner', 'PieceKind', 'BreakBefore']);

export interface FitSettings {
  /** A vertex whose interior angle is at most this (degrees) stays a corner: 180 keeps every polygon vertex, 0 none by angle. */
  cornerAngleDeg: number;
  /** Largest distance (px) the fitted cubics may leave the smoothed boundary. */
  tolerance: number;
  /** A cubic whose control points stay within this distance (px) of its chord is written as a line. */
  straightTolerance: number;
  smoothing: Smoothing;
  /**
   * Whether a corner blunted by rasterising (a few short edges) is collapsed back to its sharp
   * point. Line art leaves it off: a small blurred glyph's bowls and stroke ends are such runs, and
   * their points would stick out of the ink as spikes. Absent means on.
   */
  collapseChamfers?: boolean;
  /**
   * Chains of at most `maxSteps` staircase steps (a small glyph, a dash) are covered by polygon
   * edges whose points stay within `corridor` px of their line instead of POLYGON_CORRIDOR. Line
   * art sets it: on a glyph a few pixels tall the wide corridor lets one edge run across a 1–2 px
   * stroke end, and the vertex where two such edges meet is thrown out past the ink as a spike.
   * Absent means POLYGON_CORRIDOR for every chain.
   */
  shortChain?: { maxSteps: number; corridor: number };
  /** A straight part at least this long (px) is written as its own line; absent means MIN_LINE_RUN. */
  minLineRun?: number;
  /**
   * Fit chains with sub-pixel points (anti-aliased edges) to the points themselves between the
   * polygon's corners (./data-fit.ts) instead of to its rounded edges. Absent means off.
   */
  followEdges?: boolean;
  /**
   * How chains still on their pixel cracks (a 1-bit drawing: no anti-aliasing moved them) are
   * fitted; absent means like every other chain. There the true edge is the crack itself, known
   * to half a pixel: the polygon is Potrace's (./optimal-polygon.ts), and the curves keep within
   * `tolerance` of it rounded with `roundingReach` (px a rounded vertex may eat). Each side of a
   * stroke is fitted on its own, so what either side may stray adds up across the stroke: with
   * the presets' 0.7 px a 1-px line pinched to nothing in one place and doubled in the next.
   */
  hardEdge?: { tolerance: number; roundingReach: number };
}

export type Segment =
  | { kind: 'L'; x: number; y: number }
  | { kind: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  /**
   * Elliptical arc (SVG's): radii, x-axis rotation in degrees, sweep 1 = clockwise on screen; never a large arc of
   * more than half the ellipse.
   */
  | { kind: 'A'; rx: number; ry: number; rotation: number; sweep: number; x: number; y: number };

export interface FittedPath {
  start: { x: number; y: number };
  segments: Segment[];
}

/** Preset FitSettings per smoothing level (the orchestrator's engineSettingsFor() has the final word). */
export const FIT_PRESETS: Readonly<Record<Smoothing, Readonly<FitSettings>>> = Object.freeze({
  off: Object.freeze({ cornerAngleDeg: 165, tolerance: 0.35, straightTolerance: 0.25, smoothing: 'off' as const }),
  light: Object.freeze({ cornerAngleDeg: 120, tolerance: 0.5, straightTolerance: 0.3, smoothing: 'light' as const }),
  strong: Object.freeze({ cornerAngleDeg: 90, tolerance: 0.7, straightTolerance: 0.35, smoothing: 'strong' as const }),
  maximum: Object.freeze({ cornerAngleDeg: 60, tolerance: 1.0, straightTolerance: 0.45, smoothing: 'maximum' as const }),
});

export function fitSettingsFor(smoothing: Smoothing): FitSettings {
  return { ...FIT_PRESETS[smoothing] };
}

/**
 * Shape of the rounding per smoothing level, kept out of FitSettings because it is an internal
 * detail of this fitter. alphaMax: Potrace's corner threshold (0 = every vertex a corner,
 * 4/3 = never by alpha). roundingReach: how far (px, at a right angle) a rounded vertex may eat
 * into its edges; gentler turns reach further, so circles use whole edges (pure Potrace).
 */
const ROUNDING: Record<Smoothing, { alphaMax: number; roundingReach: number }> = {
  off: { alphaMax: 0, roundingReach: 0 },
  light: { alphaMax: 0.92, roundingReach: 1.5 },
  strong: { alphaMax: 1.0, roundingReach: 2.5 },
  maximum: { alphaMax: 4 / 3, roundingReach: 4 },
};

/** Crack middles of a digital straight line stay within half a pixel of its least-squares line. */
const POLYGON_CORRIDOR = 0.6;
/** A vertex moves at most this far (per axis) to where its edges' least-squares lines meet. */
const MAX_VERTEX_SHIFT = 1.0;
/** Angle corners need both edges at least this long: a one-pixel chamfer is not a designed corner. */
const MIN_CORNER_EDGE = 2.5;
/** A blunted corner spans at most this many short edges, and its sharp point lies at most this far (px) from them. */
const MAX_CHAMFER_EDGES = 3;
const MAX_CHAMFER_REACH = 3;
/** Longest end edge (px) dropEndHooks folds into its neighbour. */
const END_HOOK = 5;
/** A straight part at least this long is written as its own line instead of being folded into a curve. */
const MIN_LINE_RUN = 2;

// ----------------------------------------------------------------------------------------------
// public entry points

export function fitChain(points: Float64Array, closed: boolean, settings: FitSettings): FittedPath {
  const crack = dedupe(points, closed);
  const n = crack.length >> 1;
  if (n === 0) return { start: { x: 0, y: 0 }, segments: [] };
  if (n === 1) return { start: { x: crack[0], y: crack[1] }, segments: [] };
  if (closed && n < 3) {
    return {
      start: { x: crack[0], y: crack[1] },
      segments: [
        { kind: 'L', x: crack[2], y: crack[3] },
        { kind: 'L', x: crack[0], y: crack[1] },
      ],
    };
  }
  const mids = staircaseMidpoints(crack, closed);
  const short = settings.shortChain;
  const hard = settings.hardEdge && onHalfPixelGrid(crack, closed) ? settings.hardEdge : null;
  if (hard) settings = { ...settings, tolerance: Math.min(settings.tolerance, hard.tolerance) };
  let poly: Polygon;
  if (hard) poly = crackPolygon(crack, closed);
  else {
    const corridor = short && mids.length >> 1 <= short.maxSteps ? short.corridor : POLYGON_CORRIDOR;
    poly = buildPolygon(mids, closed, corridor);
    adjustVertices(poly, mids, closed, MAX_VERTEX_SHIFT);
  }
  if (!closed) {
    // junctions are shared with other chains: they stay exactly where the caller put them
    poly.vx[0] = crack[0];
    poly.vy[0] = crack[1];
    poly.vx[poly.m - 1] = crack[2 * n - 2];
    poly.vy[poly.m - 1] = crack[2 * n - 1];
    dropEndHooks(poly, settings.tolerance);
  }
  const sharp = settings.collapseChamfers === false ? poly : collapseChamfers(poly, closed, settings);
  const shape = classifyVertices(sharp, closed, settings);
  if (settings.followEdges && settings.smoothing !== 'off' && followsSubpixelEdge(crack))
    return fitToData(mids, closed, cornersOf(sharp, shape, mids.length >> 1, mids, closed), settings);
  const reach = hard?.roundingReach ?? ROUNDING[settings.smoothing].roundingReach;
  const pieces = buildPieces(sharp, shape, closed, reach, settings.minLineRun ?? MIN_LINE_RUN);
  return fitPieces(pieces, closed, settings);
}

/**
 * Whether every point lies on the half-pixel grid: a hard edge. Its cracks sit on pixel corners,
 * except beside a pixel that line art filled in to join two ink pixels touching at a corner: that
 * pixel has paper's coverage, so the sub-pixel stage moves its cracks half a pixel in. Anti-aliased
 * edges move by any fraction. An open chain's ends may lie anywhere (the fit guard cuts a chain in
 * the middle of a step).
 */
function onHalfPixelGrid(points: Float64Array, closed: boolean): boolean {
  const skip = closed ? 0 : 2;
  for (let i = skip; i < points.length - skip; i++) if (!Number.isInteger(2 * points[i])) return false;
  return true;
}

/**
 * Whether most points were moved off the pixel cracks (engine/boundary/subpixel.ts): a crack's
 * point sits on a pixel line (one whole coordinate) unless the anti-aliasing moved it across. A
 * hard or faint edge keeps its staircase, which the polygon smooths.
 */
function followsSubpixelEdge(points: Float64Array): boolean {
  let moved = 0;
  for (let i = 0; i < points.length; i += 2) if (!Number.isInteger(points[i]) && !Number.isInteger(points[i + 1])) moved++;
  return 2 * moved >= points.length >> 1;
}

function cornersOf(poly: Polygon, shape: VertexShape, n: number, points: Float64Array, closed: boolean): Corners {
  const corners: Corners = { at: [], x: [], y: [] };
  for (let k = 0; k < poly.m; k++) {
    if (!shape.corner[k]) continue;
    const end = !closed && (k === 0 || k === poly.m - 1);
    if (!end && !turnsSharply(points, n, poly.at[k] % n, closed)) continue;
    corners.at.push(poly.at[k] % n);
    corners.x.push(poly.vx[k]);
    corners.y.push(poly.vy[k]);
  }
  return corners;
}

export function reversePath(path: FittedPath): FittedPath {
  const segs = path.segments;
  if (segs.length === 0) return { start: { ...path.start }, segments: [] };
  const last = segs[segs.length - 1];
  const out: Segment[] = [];
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i];
    const prev = i > 0 ? segs[i - 1] : path.start;
    if (seg.kind === 'L') out.push({ kind: 'L', x: prev.x, y: prev.y });
    else if (seg.kind === 'A') out.push({ ...seg, sweep: 1 - seg.sweep, x: prev.x, y: prev.y });
    else out.push({ kind: 'C', x1: seg.x2, y1: seg.y2, x2: seg.x1, y2: seg.y1, x: prev.x, y: prev.y });
  }
  return { start: { x: last.x, y: last.y }, segments: out };
}

// ----------------------------------------------------------------------------------------------
// 1. input clean-up and staircase removal

/** Drops repeated points (and a closing point equal to the first) so every step has a length. */
function dedupe(points: Float64Array, closed: boolean): Float64Array {
  const count = points.length >> 1;
  // Traced chains never repeat a point: hand them back as they are instead of copying every chain.
  let repeats = closed && count > 1 && points[0] === points[2 * count - 2] && points[1] === points[2 * count - 1];
  for (let i = 1; i < count && !repeats; i++) repeats = points[2 * i] === points[2 * i - 2] && points[2 * i + 1] === points[2 * i - 1];
  if (!repeats) return points;
  const out = new Float64Array(points.length);
  let m = 0;
  for (let i = 0; i < count; i++) {
    const x = points[2 * i],
      y = points[2 * i + 1];
    if (m > 0 && out[2 * m - 2] === x && out[2 * m - 1] === y) continue;
    out[2 * m] = x;
    out[2 * m + 1] = y;
    m++;
  }
  if (closed && m > 1 && out[0] === out[2 * m - 2] && out[1] === out[2 * m - 1]) m--;
  return out.subarray(0, 2 * m);
}

/** The chain's staircase middles (step 1 below), for fitters that work on them (./ellipse.ts). */
export function chainMidpoints(points: Float64Array, closed: boolean): Float64Array {
  return staircaseMidpoints(dedupe(points, closed), closed);
}

/**
 * One point per step, at its middle. An open chain's exact end points are put back on the polygon
 * afterwards: a crack corner sits up to a pixel off the line through the middles, so using it here
 * would break a straight diagonal into pieces. Long axis-aligned steps are split into unit steps so
 * the least-squares lines later weigh every pixel of an edge alike.
 */
function staircaseMidpoints(crack: Float64Array, closed: boolean): Float64Array {
  const n = crack.length >> 1;
  const steps = closed ? n : n - 1;
  let total = 0;
  for (let i = 0; i < steps; i++) total += unitCount(crack, i, (i + 1) % n);
  const out = scratchFloat64(F64.Mids, 2 * total);
  let m = 0;
  for (let i = 0; i < steps; i++) {
    const j = (i + 1) % n;
    const k = unitCount(crack, i, j);
    const x0 = crack[2 * i],
      y0 = crack[2 * i + 1];
    const dx = (crack[2 * j] - x0) / k,
      dy = (crack[2 * j + 1] - y0) / k;
    for (let s = 0; s < k; s++) {
      out[2 * m] = x0 + dx * (s + 0.5);
      out[2 * m + 1] = y0 + dy * (s + 0.5);
      m++;
    }
  }
  return out.subarray(0, 2 * m);
}

function unitCount(p: Float64Array, i: number, j: number): number {
  const dx = Math.abs(p[2 * j] - p[2 * i]),
    dy = Math.abs(p[2 * j + 1] - p[2 * i + 1]);
  if ((dx === 0 || dy === 0) && Number.isInteger(dx + dy) && dx + dy > 1) return dx + dy;
  return 1;
}

// ----------------------------------------------------------------------------------------------
// 2. polygon

interface Polygon {
  /** Vertex positions (adjusted in place), m vertices. */
  vx: Float64Array;
  vy: Float64Array;
  /** Index into the midpoint chain of each vertex, unrolled (closed chains may exceed n). */
  at: Int32Array;
  m: number;
}

/**
 * Prefix sums of x, y, x², xy, y² over the chain (unrolled twice for closed chains), so the
 * least-squares line of any run comes in O(1).
 */
interface RunSums {
  sx: Float64Array;
  sy: Float64Array;
  sxx: Float64Array;
  sxy: Float64Array;
  syy: Float64Array;
  /** Origin subtracted before summing, for precision on large images. */
  ox: number;
  oy: number;
}

function runSums(mx: Float64Array, closed: boolean): RunSums {
  const n = mx.length >> 1;
  const len = closed ? 2 * n : n;
  // whole buffers, no views: the sums are read by index only (five views a chain were garbage)
  const sx = scratchFloat64Buffer(F64.SumX, len + 1),
    sy = scratchFloat64Buffer(F64.SumY, len + 1),
    sxx = scratchFloat64Buffer(F64.SumXX, len + 1),
    sxy = scratchFloat64Buffer(F64.SumXY, len + 1),
    syy = scratchFloat64Buffer(F64.SumYY, len + 1);
  sx[0] = sy[0] = sxx[0] = sxy[0] = syy[0] = 0;
  const ox = mx[0],
    oy = mx[1];
  for (let i = 0, q = 0; i < len; i++, q++) {
    if (q === n) q = 0;
    const x = mx[2 * q] - ox,
      y = mx[2 * q + 1] - oy;
    sx[i + 1] = sx[i] + x;
    sy[i + 1] = sy[i] + y;
    sxx[i + 1] = sxx[i] + x * x;
    sxy[i + 1] = sxy[i] + x * y;
    syy[i + 1] = syy[i] + y * y;
  }
  return { sx, sy, sxx, sxy, syy, ox, oy };
}

/**
 * Whether points i..j (unrolled) are straight: all within `corridor` of their least-squares line
 * (a digital straight line's crack middles stay within half a pixel of it), and the run does not
 * turn back on itself.
 */
function isStraight(mx: Float64Array, n: number, sums: RunSums, i: number, j: number, corridor: number): boolean {
  const count = j - i + 1;
  if (count <= 2) return true;
  const x0 = mx[2 * (i % n)],
    y0 = mx[2 * (i % n) + 1],
    x1 = mx[2 * (j % n)],
    y1 = mx[2 * (j % n) + 1];
  // unit-spaced middles advance at least 0.7 px per step along a straight run; a U-turn does not
  if (hypot(x1 - x0, y1 - y0) < 0.6 * (count - 1) - 1) return false;
  const cx = (sums.sx[j + 1] - sums.sx[i]) / count,
    cy = (sums.sy[j + 1] - sums.sy[i]) / count;
  const vxx = (sums.sxx[j + 1] - sums.sxx[i]) / count - cx * cx;
  const vxy = (sums.sxy[j + 1] - sums.sxy[i]) / count - cx * cy;
  const vyy = (sums.syy[j + 1] - sums.syy[i]) / count - cy * cy;
  const angle = 0.5 * Math.atan2(2 * vxy, vxx - vyy);
  const nx = -Math.sin(angle),
    ny = Math.cos(angle);
  const px = cx + sums.ox,
    py = cy + sums.oy;
  // k runs past n only on a closed chain's second lap: wrap by subtraction, not a division per point
  for (let k = i, q = i % n; k <= j; k++, q++) {
    if (q >= n) q -= n;
    if (Math.abs((mx[2 * q] - px) * nx + (mx[2 * q + 1] - py) * ny) > corridor) return false;
  }
  return true;
}

/**
 * Largest j ≤ limit with i..j straight, given that i..known is: doubling, then bisection
 * (O(L log L) for a run of L).
 */
function longestStraight(mx: Float64Array, n: number, sums: RunSums, i: number, limit: number, corridor: number, known = i + 1): number {
  let good = known,
    step = 1;
  if (good >= limit) return limit;
  let bad: number;
  // from known = i + 1 the probes are i + 2, i + 4, i + 8…
  while (true) {
    const j = Math.min(limit, good + step);
    if (!isStraight(mx, n, sums, i, j, corridor)) {
      bad = j;
      break;
    }
    good = j;
    if (j === limit) return limit;
    step *= 2;
  }
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (isStraight(mx, n, sums, i, mid, corridor)) good = mid;
    else bad = mid;
  }
  return good;
}

function greedyCover(mx: Float64Array, n: number, sums: RunSums, closed: boolean, start: number, corridor: number): number[] {
  const limit = closed ? start + n : n - 1;
  const at = [start];
  let i = start;
  while (i < limit) {
    let j = longestStraight(mx, n, sums, i, limit, corridor);
    if (j <= i) j = i + 1;
    if (j < limit) at.push(j);
    i = j;
  }
  return at;
}

/** The middle with the sharpest turn between the points `reach` steps before and after it, near `around`. */
function sharpestNear(mx: Float64Array, n: number, around: number, reach: number): number {
  let best = around,
    bestTurn = -1;
  for (let d = -reach; d <= reach; d++) {
    const b = (((around + d) % n) + n) % n,
      a = (b - reach + n) % n,
      c = (b + reach) % n;
    const turn = Math.abs(turnAngle(mx[2 * a], mx[2 * a + 1], mx[2 * b], mx[2 * b + 1], mx[2 * c], mx[2 * c + 1]));
    if (turn > bestTurn + 1e-9) {
      bestTurn = turn;
      best = b;
    }
  }
  return best;
}

function buildPolygon(mx: Float64Array, closed: boolean, corridor: number): Polygon {
  const n = mx.length >> 1;
  const sums = runSums(mx, closed);
  let at = greedyCover(mx, n, sums, closed, 0, corridor);
  if (closed && at.length > 2) {
    // a greedy cover is best when it starts on a true corner: restart at the sharpest vertex found
    let best = 0,
      bestTurn = -1;
    for (let k = 0; k < at.length; k++) {
      const a = at[(k + at.length - 1) % at.length] % n,
        b = at[k] % n,
        c = at[(k + 1) % at.length] % n;
      const turn = Math.abs(turnAngle(mx[2 * a], mx[2 * a + 1], mx[2 * b], mx[2 * b + 1], mx[2 * c], mx[2 * c + 1]));
      if (turn > bestTurn) {
        bestTurn = turn;
        best = k;
      }
    }
    // the greedy vertex lies past the corner it found: start the real cover on the corner itself
    const start = n > 12 ? sharpestNear(mx, n, at[best] % n, 3) : at[best] % n;
    at = greedyCover(mx, n, sums, closed, start, corridor);
  }
  if (!closed) at.push(n - 1);
  const m = at.length;
  const vx = scratchFloat64(F64.PolyX, m),
    vy = scratchFloat64(F64.PolyY, m),
    idx = scratchInt32(I32.PolyAt, m);
  for (let k = 0; k < m; k++) {
    const q = at[k] % n;
    vx[k] = mx[2 * q];
    vy[k] = mx[2 * q + 1];
    idx[k] = at[k];
  }
  return { vx, vy, at: idx, m };
}

/** Signed turn (radians) from direction a→b to direction b→c. */
function turnAngle(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const ux = bx - ax,
    uy = by - ay,
    wx = cx - bx,
    wy = cy - by;
  return Math.atan2(ux * wy - uy * wx, ux * wx + uy * wy);
}

/**
 * Moves every free vertex to the meeting point of the least-squares lines through its two edges'
 * points, at most MAX_VERTEX_SHIFT per axis (Potrace clamps to the vertex's pixel square the same way).
 */
function adjustVertices(poly: Polygon, mx: Float64Array, closed: boolean, maxShift: number): void {
  const { m, at } = poly;
  const n = mx.length >> 1;
  const edges = closed ? m : m - 1;
  if (edges < 2) return;
  const cx = scratchFloat64Buffer(F64.LineX, edges),
    cy = scratchFloat64Buffer(F64.LineY, edges),
    ux = scratchFloat64Buffer(F64.LineUx, edges),
    uy = scratchFloat64Buffer(F64.LineUy, edges);
  for (let e = 0; e < edges; e++) {
    let from = at[e];
    let to = e + 1 < m ? at[e + 1] : at[0] + n;
    // the greedy cover puts a vertex on the last point that still fits, often already round the
    // corner: leave the two end points out of the line fit when the edge has enough without them
    if (to - from >= 4) {
      from++;
      to--;
    }
    let sx = 0,
      sy = 0,
      count = 0;
    for (let i = from; i <= to; i++) {
      const q = i % n;
      sx += mx[2 * q];
      sy += mx[2 * q + 1];
      count++;
    }
    const mxc = sx / count,
      myc = sy / count;
    let sxx = 0,
      sxy = 0,
      syy = 0;
    for (let i = from; i <= to; i++) {
      const q = i % n;
      const dx = mx[2 * q] - mxc,
        dy = mx[2 * q + 1] - myc;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
    // principal axis of the points: the direction of the best-fitting line
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    const dirX = Math.cos(angle),
      dirY = Math.sin(angle);
    // On a curve the least-squares line is a secant lying a third of the bulge inside the boundary,
    // and the smooth curve touches each edge at its middle, so shapes would shrink. Sliding the line
    // onto the middle third of its points makes it a tangent instead; on a straight run that third
    // averages to the line itself.
    const third = Math.floor(count / 3);
    let shift = 0;
    if (third >= 2) {
      let sum = 0;
      for (let i = from + third; i < to + 1 - third; i++) {
        const q = i % n;
        sum += (mx[2 * q + 1] - myc) * dirX - (mx[2 * q] - mxc) * dirY;
      }
      shift = sum / (count - 2 * third);
    }
    cx[e] = mxc - shift * dirY;
    cy[e] = myc + shift * dirX;
    ux[e] = dirX;
    uy[e] = dirY;
  }
  const first = closed ? 0 : 1,
    last = closed ? m - 1 : m - 2;
  const nx = scratchFloat64(F64.MovedX, m),
    ny = scratchFloat64(F64.MovedY, m);
  nx.set(poly.vx);
  ny.set(poly.vy);
  for (let v = first; v <= last; v++) {
    const a = (v + edges - 1) % edges,
      b = v % edges;
    const cross = ux[a] * uy[b] - uy[a] * ux[b];
    if (Math.abs(cross) < 0.05) continue; // nearly parallel: the meeting point is ill-defined
    const t = ((cx[b] - cx[a]) * uy[b] - (cy[b] - cy[a]) * ux[b]) / cross;
    const px = cx[a] + t * ux[a],
      py = cy[a] + t * uy[a];
    nx[v] = poly.vx[v] + clamp(px - poly.vx[v], -maxShift, maxShift);
    ny[v] = poly.vy[v] + clamp(py - poly.vy[v], -maxShift, maxShift);
  }
  poly.vx.set(nx);
  poly.vy.set(ny);
}

/**
 * Rasterising blunts a sharp corner into one or a few short edges whose ends all turn the same way.
 * When those turns together make a corner at this smoothing level and the long edges around them
 * meet close by, the short edges are replaced by that meeting point, so the corner comes back sharp.
 */
function collapseChamfers(poly: Polygon, closed: boolean, settings: FitSettings): Polygon {
  const { m, vx, vy } = poly;
  if (m < 4) return poly;
  const maxInterior = settings.cornerAngleDeg * (Math.PI / 180) + 1e-3;
  const keep = scratchUint8(U8.Keep, m).fill(1);
  const nx = scratchFloat64(F64.MovedX, m),
    ny = scratchFloat64(F64.MovedY, m);
  nx.set(vx);
  ny.set(vy);
  const edges = closed ? m : m - 1;
  const edgeLen = (e: number) => hypot(vx[(e + 1) % m] - vx[e], vy[(e + 1) % m] - vy[e]);
  for (let e = 0; e < edges; e++) {
    // e is a long edge ending at vertex a; walk the short edges after it up to the next long one
    if (edgeLen(e) < MIN_CORNER_EDGE) continue;
    const a = (e + 1) % m;
    if (!closed && a === m - 1) continue;
    let b = a,
      shortRun = 0,
      total = 0,
      sign = 0,
      ok = true;
    while (shortRun <= MAX_CHAMFER_EDGES) {
      const prev = (b + m - 1) % m,
        next = (b + 1) % m;
      const t = turnAngle(vx[prev], vy[prev], vx[b], vy[b], vx[next], vy[next]);
      if (sign === 0) sign = Math.sign(t);
      if (Math.sign(t) !== sign) {
        ok = false;
        break;
      }
      total += t;
      if (!closed && next === m - 1) {
        ok = false;
        break;
      }
      if (edgeLen(b % edges) >= MIN_CORNER_EDGE) break;
      b = next;
      shortRun++;
    }
    if (!ok || shortRun === 0 || shortRun > MAX_CHAMFER_EDGES || b === (e + m) % m) continue;
    if (Math.PI - Math.abs(total) > maxInterior) continue;
    let skip = false;
    for (let v = a, k = 0; k <= shortRun; k++, v = (v + 1) % m) if (!keep[v]) skip = true;
    if (skip) continue;
    const p = e,
      q = (b + 1) % m;
    const lenIn = edgeLen(e),
      lenOut = edgeLen(b % edges);
    const ux = (vx[a] - vx[p]) / lenIn,
      uy = (vy[a] - vy[p]) / lenIn,
      wx = (vx[q] - vx[b]) / lenOut,
      wy = (vy[q] - vy[b]) / lenOut;
    const cross = ux * wy - uy * wx;
    if (Math.abs(cross) < 1e-6) continue;
    const t = ((vx[b] - vx[a]) * wy - (vy[b] - vy[a]) * wx) / cross;
    const ix = vx[a] + t * ux,
      iy = vy[a] + t * uy;
    let near = true;
    for (let v = a, k = 0; k <= shortRun; k++, v = (v + 1) % m) if (hypot(ix - vx[v], iy - vy[v]) > MAX_CHAMFER_REACH) near = false;
    if (!near) continue;
    nx[a] = ix;
    ny[a] = iy;
    for (let v = (a + 1) % m, k = 0; k < shortRun; k++, v = (v + 1) % m) keep[v] = 0;
  }
  let count = 0;
  for (let v = 0; v < m; v++) count += keep[v];
  if (count === m) return poly;
  const out: Polygon = {
    vx: scratchFloat64(F64.SharpX, count),
    vy: scratchFloat64(F64.SharpY, count),
    at: scratchInt32(I32.SharpAt, count),
    m: count,
  };
  let k = 0;
  for (let v = 0; v < m; v++) {
    if (!keep[v]) continue;
    out.vx[k] = nx[v];
    out.vy[k] = ny[v];
    out.at[k] = poly.at[v];
    k++;
  }
  return out;
}

/**
 * An open chain's end is a junction, where the staircase breaks its rhythm and the exact crack
 * corner sits up to a pixel off the edge's line: the polygon then ends in a short hook of its own
 * direction, which the curve fit would bend into. A short end edge (at most END_HOOK px) whose far
 * end lies within `tol` of the next edge's line is folded into that edge.
 */
function dropEndHooks(poly: Polygon, tol: number): void {
  const hook = (end: number, near: number, far: number): boolean => {
    const ex = poly.vx[end],
      ey = poly.vy[end],
      nx = poly.vx[near],
      ny = poly.vy[near];
    if (hypot(ex - nx, ey - ny) > END_HOOK) return false;
    const dx = nx - poly.vx[far],
      dy = ny - poly.vy[far],
      len = hypot(dx, dy);
    return len > 2 * END_HOOK && Math.abs((ex - nx) * dy - (ey - ny) * dx) / len <= tol;
  };
  const remove = (v: number): void => {
    poly.vx.copyWithin(v, v + 1, poly.m);
    poly.vy.copyWithin(v, v + 1, poly.m);
    poly.at.copyWithin(v, v + 1, poly.m);
    poly.m--;
    // the later steps read the arrays' lengths as the vertex count
    poly.vx = poly.vx.subarray(0, poly.m);
    poly.vy = poly.vy.subarray(0, poly.m);
    poly.at = poly.at.subarray(0, poly.m);
  };
  if (poly.m >= 3 && hook(0, 1, 2)) remove(1);
  if (poly.m >= 3 && hook(poly.m - 1, poly.m - 2, poly.m - 3)) remove(poly.m - 2);
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

// ----------------------------------------------------------------------------------------------
// 3. corners

interface VertexShape {
  corner: Uint8Array;
  /** Potrace's alpha clamped to [0.55, 1]: where the rounding's control points sit along the edges. */
  alpha: Float64Array;
  /** Turn at the vertex (radians, absolute). */
  turn: Float64Array;
}

function classifyVertices(poly: Polygon, closed: boolean, settings: FitSettings): VertexShape {
  const { m, vx, vy } = poly;
  const corner = zeroedUint8(U8.Corner, m),
    alpha = zeroedFloat64(F64.Alpha, m),
    turn = zeroedFloat64(F64.Turn, m);
  const { alphaMax } = ROUNDING[settings.smoothing];
  const minInterior = settings.cornerAngleDeg * (Math.PI / 180) + 1e-3;
  for (let j = 0; j < m; j++) {
    if (!closed && (j === 0 || j === m - 1)) {
      corner[j] = 1;
      continue;
    }
    const i = (j + m - 1) % m,
      k = (j + 1) % m;
    turn[j] = Math.abs(turnAngle(vx[i], vy[i], vx[j], vy[j], vx[k], vy[k]));
    // Potrace: distance of the vertex from the chord between the middles of its two edges, in
    // the L1 metric's units. Middles, not the neighbouring vertices: a long straight edge meeting a
    // short one would otherwise put the chord far out and turn every rounded corner sharp.
    const ax = (vx[i] + vx[j]) / 2,
      ay = (vy[i] + vy[j]) / 2,
      bx = (vx[k] + vx[j]) / 2,
      by = (vy[k] + vy[j]) / 2;
    const denom = Math.abs(bx - ax) + Math.abs(by - ay);
    let a = 4 / 3;
    if (denom > 1e-9) {
      const dd = Math.abs((vx[j] - ax) * (by - ay) - (bx - ax) * (vy[j] - ay)) / denom;
      a = (dd > 1 ? 1 - 1 / dd : 0) / 0.75;
    }
    const interior = Math.PI - turn[j];
    const shortEdge = Math.min(hypot(vx[j] - vx[i], vy[j] - vy[i]), hypot(vx[k] - vx[j], vy[k] - vy[j]));
    const angular = interior <= minInterior && shortEdge >= MIN_CORNER_EDGE;
    corner[j] = a >= alphaMax || angular ? 1 : 0;
    alpha[j] = clamp(a, 0.55, 1);
  }
  return { corner, alpha, turn };
}

// ----------------------------------------------------------------------------------------------
// 4. smooth curve as pieces

/**
 * A piece is a line (x0,y0)→(x3,y3) or a rounding cubic. `lineRun` marks lines long enough to be
 * written as their own segment; `breakBefore` marks a sharp corner at the piece's start.
 */
interface Pieces {
  kind: Uint8Array; // 0 line, 1 cubic
  c: Float64Array; // 8 numbers per piece: x0 y0 x1 y1 x2 y2 x3 y3
  breakBefore: Uint8Array;
  count: number;
}

function buildPieces(poly: Polygon, shape: VertexShape, closed: boolean, roundingReach: number, minLineRun: number): Pieces {
  const { m, vx, vy } = poly;
  const edges = closed ? m : m - 1;
  // gentle turns reach further (reach / sin(turn/2)), so a circle's rounding spans whole edges
  const reachBase = (v: number): number => {
    const half = Math.sin(shape.turn[v] / 2);
    return half < 1e-6 ? Infinity : roundingReach / half;
  };
  // where each edge's straight part starts and ends (distance from its start / end vertex)
  const startCut = scratchFloat64(F64.StartCut, edges),
    endCut = scratchFloat64(F64.EndCut, edges),
    len = scratchFloat64(F64.EdgeLen, edges);
  for (let e = 0; e < edges; e++) {
    const a = e,
      b = (e + 1) % m;
    len[e] = hypot(vx[b] - vx[a], vy[b] - vy[a]);
  }
  for (let e = 0; e < edges; e++) {
    const a = e,
      b = (e + 1) % m;
    startCut[e] = shape.corner[a] ? 0 : Math.min(len[e] / 2, reachBase(a));
    endCut[e] = shape.corner[b] ? 0 : Math.min(len[e] / 2, reachBase(b));
  }
  // closed: start right after a corner when there is one, else at the longest straight part
  let first = 0;
  if (closed) {
    let found = -1;
    for (let v = 0; v < m; v++)
      if (shape.corner[v]) {
        found = v;
        break;
      }
    if (found >= 0) first = found;
    else {
      let bestRun = -1;
      for (let e = 0; e < edges; e++) {
        const run = len[e] - startCut[e] - endCut[e];
        if (run > bestRun) {
          bestRun = run;
          first = e;
        }
      }
    }
  }
  const cap = 2 * edges;
  const kind = scratchUint8(U8.PieceKind, cap),
    c = scratchFloat64(F64.Pieces, cap * 8),
    breakBefore = scratchUint8(U8.BreakBefore, cap);
  let count = 0;
  // eight named numbers, not a rest array: this runs for every piece of every chain
  const push = (
    k: number,
    brk: boolean,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    x3: number,
    y3: number,
  ) => {
    kind[count] = k;
    breakBefore[count] = brk ? 1 : 0;
    const o = count * 8;
    c[o] = x0;
    c[o + 1] = y0;
    c[o + 2] = x1;
    c[o + 3] = y1;
    c[o + 4] = x2;
    c[o + 5] = y2;
    c[o + 6] = x3;
    c[o + 7] = y3;
    count++;
  };
  let pendingBreak = true;
  for (let s = 0; s < edges; s++) {
    const e = (first + s) % edges;
    const a = e,
      b = (e + 1) % m;
    const ux = len[e] > 0 ? (vx[b] - vx[a]) / len[e] : 0,
      uy = len[e] > 0 ? (vy[b] - vy[a]) / len[e] : 0;
    const sx = vx[a] + ux * startCut[e],
      sy = vy[a] + uy * startCut[e];
    const ex = vx[b] - ux * endCut[e],
      ey = vy[b] - uy * endCut[e];
    const run = len[e] - startCut[e] - endCut[e];
    if (run > 1e-9 || (shape.corner[a] && shape.corner[b])) {
      push(
        0,
        pendingBreak || run >= minLineRun,
        sx,
        sy,
        (2 * sx + ex) / 3,
        (2 * sy + ey) / 3,
        (sx + 2 * ex) / 3,
        (sy + 2 * ey) / 3,
        ex,
        ey,
      );
      pendingBreak = run >= minLineRun;
    }
    if (!closed && b === m - 1) break;
    if (shape.corner[b]) {
      pendingBreak = true;
      continue;
    }
    // rounding at b: from the end of this edge's straight part to the start of the next one's
    const f = b % edges;
    const nb = (b + 1) % m;
    const nlen = len[f];
    const nux = nlen > 0 ? (vx[nb] - vx[b]) / nlen : 0,
      nuy = nlen > 0 ? (vy[nb] - vy[b]) / nlen : 0;
    const tx = vx[b] + nux * startCut[f],
      ty = vy[b] + nuy * startCut[f];
    const al = shape.alpha[b];
    push(1, pendingBreak, ex, ey, ex + al * (vx[b] - ex), ey + al * (vy[b] - ey), tx + al * (vx[b] - tx), ty + al * (vy[b] - ty), tx, ty);
    pendingBreak = false;
  }
  return { kind, c, breakBefore, count };
}

// ----------------------------------------------------------------------------------------------
// 5. fitting

function fitPieces(pieces: Pieces, closed: boolean, settings: FitSettings): FittedPath {
  const { count, c, kind, breakBefore } = pieces;
  const out: Segment[] = [];
  if (count === 0) return { start: { x: 0, y: 0 }, segments: out };
  const start = { x: c[0], y: c[1] };
  let s = 0;
  while (s < count) {
    let e = s + 1;
    while (e < count && !breakBefore[e]) e++;
    if (e - s === 1 && kind[s] === 0) {
      out.push({ kind: 'L', x: c[s * 8 + 6], y: c[s * 8 + 7] });
    } else {
      fitRun(c, s, e, settings, out);
    }
    s = e;
  }
  if (closed) {
    // the last piece ends where the first began: write the exact same numbers so the path closes
    const last = out[out.length - 1];
    last.x = start.x;
    last.y = start.y;
  }
  return { start, segments: mergeLines(start, straighten(start, out, settings.straightTolerance), settings.straightTolerance) };
}

/** Samples pieces [s, e) about once per pixel and fits cubics with Schneider's method. */
function fitRun(c: Float64Array, s: number, e: number, settings: FitSettings, out: Segment[]): void {
  let total = 1;
  const counts = scratchInt32(I32.SampleCounts, e - s);
  for (let p = s; p < e; p++) {
    const o = p * 8;
    const approx =
      hypot(c[o + 2] - c[o], c[o + 3] - c[o + 1]) +
      hypot(c[o + 4] - c[o + 2], c[o + 5] - c[o + 3]) +
      hypot(c[o + 6] - c[o + 4], c[o + 7] - c[o + 5]);
    counts[p - s] = Math.max(2, Math.ceil(approx));
    total += counts[p - s];
  }
  const px = scratchFloat64(F64.SampleX, total),
    py = scratchFloat64(F64.SampleY, total);
  px[0] = c[s * 8];
  py[0] = c[s * 8 + 1];
  let k = 1;
  for (let p = s; p < e; p++) {
    const o = p * 8,
      steps = counts[p - s];
    for (let i = 1; i <= steps; i++) {
      const t = i / steps,
        u = 1 - t;
      const b0 = u * u * u,
        b1 = 3 * u * u * t,
        b2 = 3 * u * t * t,
        b3 = t * t * t;
      px[k] = b0 * c[o] + b1 * c[o + 2] + b2 * c[o + 4] + b3 * c[o + 6];
      py[k] = b0 * c[o + 1] + b1 * c[o + 3] + b2 * c[o + 5] + b3 * c[o + 7];
      k++;
    }
  }
  const so = s * 8,
    eo = (e - 1) * 8;
  const [t1x, t1y] = tangentOf(c[so], c[so + 1], c[so + 2], c[so + 3], c[so + 4], c[so + 5], c[so + 6], c[so + 7]);
  const [t2x, t2y] = tangentOf(c[eo + 6], c[eo + 7], c[eo + 4], c[eo + 5], c[eo + 2], c[eo + 3], c[eo], c[eo + 1]);
  // cumulative turning along the samples: a cubic spans at most MAX_ARC_TURN of it
  const turned = scratchFloat64(F64.Turned, total);
  turned[0] = 0;
  for (let i = 1; i < total - 1; i++) {
    turned[i] = turned[i - 1] + Math.abs(turnAngle(px[i - 1], py[i - 1], px[i], py[i], px[i + 1], py[i + 1]));
  }
  turned[total - 1] = turned[total - 2 < 0 ? 0 : total - 2];
  const emit = (first: number, last: number, t1x: number, t1y: number, t2x: number, t2y: number, bez: Float64Array) => {
    out.push({ kind: 'C', x1: bez[2], y1: bez[3], x2: bez[4], y2: bez[5], x: px[last], y: py[last] });
  };
  fitCubics({ px, py, turned, tolerance: settings.tolerance, policy: SAMPLE_FIT, emit }, 0, total - 1, t1x, t1y, t2x, t2y, 0);
}

/** Unit tangent leaving (x0,y0) towards the first control point that differs from it. */
function tangentOf(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): [number, number] {
  let d = hypot(x1 - x0, y1 - y0);
  if (d > 1e-9) return [(x1 - x0) / d, (y1 - y0) / d];
  d = hypot(x2 - x0, y2 - y0);
  if (d > 1e-9) return [(x2 - x0) / d, (y2 - y0) / d];
  d = hypot(x3 - x0, y3 - y0);
  if (d > 1e-9) return [(x3 - x0) / d, (y3 - y0) / d];
  return [1, 0];
}

/** A cubic through more than this much turning (radians) flattens a round shape; 100° keeps circles to 4 arcs. */
export const MAX_ARC_TURN = (100 * Math.PI) / 180;

/**
 * What the two Schneider fits of this stage do differently: fitRun fits samples of the smoothed
 * pieces, ./data-fit.ts the sub-pixel points of the edge. Each keeps the policy its output was
 * tuned (and its golden SVGs made) with.
 */
export interface CubicFitPolicy {
  /** Newton steps at most before a cubic's error is judged. */
  newtonSteps: number;
  /** Newton steps start only when the error is under this many tolerances: further off, a split serves better. */
  newtonReach: number;
  /** Whether a step that leaves the error past the reach ends the steps (else they run on while it is over the tolerance). */
  newtonReachEachStep: boolean;
  /** Points on each side of a split whose chord gives the tangent the two halves share there. */
  splitWindow: number;
}

/** The samples of fitRun lie on smooth pieces: a near miss gets a few steps, and the split tangent is local. */
const SAMPLE_FIT: CubicFitPolicy = { newtonSteps: 4, newtonReach: 4, newtonReachEachStep: false, splitWindow: 1 };

/** One Schneider fit: the points, their cumulative turning, and where the accepted cubics go. */
export interface CubicFit {
  px: Float64Array;
  py: Float64Array;
  /** Cumulative turning along the points (radians): a cubic spans at most MAX_ARC_TURN of it. */
  turned: Float64Array;
  tolerance: number;
  policy: CubicFitPolicy;
  /**
   * Takes a cubic over points first..last, its control points in bez[2..5]; `bez` is a scratch
   * view, overwritten by the next fit.
   */
  emit(first: number, last: number, t1x: number, t1y: number, t2x: number, t2y: number, bez: Float64Array): void;
}

/**
 * Schneider (Graphics Gems, 1990): fit one cubic to points [first, last] with fixed unit end
 * tangents (t1 leaving the first point, t2 leaving the last point backwards); split at the worst
 * point with a shared tangent when the error bound is not met; a run turning more than
 * MAX_ARC_TURN splits where half the turning is done first. In WebAssembly
 * (engine/wasm/assembly/cubic-fit.ts), the accepted cubics handed to fit.emit in order.
 */
export function fitCubics(
  fit: CubicFit,
  first: number,
  last: number,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  depth: number,
): void {
  fitCubicsInKernel(fit, first, last, t1x, t1y, t2x, t2y, depth);
}

/**
 * The least-squares cubic over points first..last with the given end tangents, written to `bez`,
 * after the policy's Newton steps: its largest error, or -1 when the points coincide. Made in
 * WebAssembly (engine/wasm/assembly/cubic-fit.ts: Schneider's fit with the chord-length
 * parameters, the fallback to chord/3 handles, and the Newton steps of ./newton.ts).
 */
export function fitOneCubic(
  fit: CubicFit,
  first: number,
  last: number,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  bez: Float64Array,
): number {
  return fitOneCubicInKernel(fit, first, last, t1x, t1y, t2x, t2y, bez);
}

// ----------------------------------------------------------------------------------------------
// 6. clean-up: straight cubics become lines, collinear lines merge

export function straighten(start: { x: number; y: number }, segs: Segment[], tol: number): Segment[] {
  let px = start.x,
    py = start.y;
  const out: Segment[] = [];
  for (const seg of segs) {
    if (seg.kind === 'C') {
      const dx = seg.x - px,
        dy = seg.y - py,
        len = hypot(dx, dy);
      if (len > 1e-9) {
        const d1 = Math.abs((seg.x1 - px) * dy - (seg.y1 - py) * dx) / len;
        const d2 = Math.abs((seg.x2 - px) * dy - (seg.y2 - py) * dx) / len;
        const p1 = ((seg.x1 - px) * dx + (seg.y1 - py) * dy) / (len * len);
        const p2 = ((seg.x2 - px) * dx + (seg.y2 - py) * dy) / (len * len);
        // a cubic strays at most 3/4 of its control points' distance from the chord
        if (0.75 * Math.max(d1, d2) <= tol && p1 >= -0.05 && p1 <= 1.05 && p2 >= -0.05 && p2 <= 1.05) {
          out.push({ kind: 'L', x: seg.x, y: seg.y });
          px = seg.x;
          py = seg.y;
          continue;
        }
      }
    }
    out.push(seg);
    px = seg.x;
    py = seg.y;
  }
  return out;
}

/**
 * Joins runs of segments that lie along one straight line into that line: collinear lines, and a
 * barely bent cubic next to a line (an open chain's last pixels, where the staircase breaks its
 * rhythm at a junction, otherwise leave a hook). Every point a run passes (a cubic's control
 * hull included) must stay within `tol` of the joined chord.
 */
export function mergeLines(start: { x: number; y: number }, segs: Segment[], tol: number): Segment[] {
  const out: Segment[] = [];
  // the points the open run passes, to check every one against the longer chord (a scratch buffer:
  // this runs for every segment of every chain)
  let run = scratchFloat64Buffer(F64.Run, 64);
  let runLength = 0; // numbers in `run`, two per point
  let px = start.x,
    py = start.y;
  for (const seg of segs) {
    const prev = out[out.length - 1];
    if (seg.kind !== 'A' && prev !== undefined && runLength > 0 && (seg.kind === 'L' || prev.kind === 'L')) {
      const ax = run[0],
        ay = run[1];
      const dx = seg.x - ax,
        dy = seg.y - ay,
        len = hypot(dx, dy);
      let ok = len > 1e-9;
      for (let i = 2; ok && i < runLength; i += 2) ok = withinChord(run[i], run[i + 1], ax, ay, dx, dy, len, tol);
      if (ok && seg.kind === 'C')
        ok = withinChord(seg.x1, seg.y1, ax, ay, dx, dy, len, tol) && withinChord(seg.x2, seg.y2, ax, ay, dx, dy, len, tol);
      if (ok) {
        out[out.length - 1] = { kind: 'L', x: seg.x, y: seg.y };
        run = grownFloat64Buffer(F64.Run, run, runLength, runLength + 6);
        runLength = addRunPoints(run, runLength, seg);
        px = seg.x;
        py = seg.y;
        continue;
      }
    }
    runLength = 0;
    if (seg.kind !== 'A') {
      run[0] = px;
      run[1] = py;
      runLength = addRunPoints(run, 2, seg);
    }
    out.push(
      seg.kind === 'L'
        ? { kind: 'L', x: seg.x, y: seg.y }
        : seg.kind === 'C'
          ? { kind: 'C', x1: seg.x1, y1: seg.y1, x2: seg.x2, y2: seg.y2, x: seg.x, y: seg.y }
          : { ...seg },
    );
    px = seg.x;
    py = seg.y;
  }
  return out;
}

/** Appends what a line or cubic passes after its start (a cubic's control points, then its end) to mergeLines's run; its new length. */
function addRunPoints(run: Float64Array, length: number, seg: Segment): number {
  if (seg.kind === 'C') {
    run[length] = seg.x1;
    run[length + 1] = seg.y1;
    run[length + 2] = seg.x2;
    run[length + 3] = seg.y2;
    length += 4;
  }
  run[length] = seg.x;
  run[length + 1] = seg.y;
  return length + 2;
}

/** Whether (x, y) lies within `tol` of the chord from (ax, ay) along (dx, dy) of length `len`, between its ends. */
function withinChord(x: number, y: number, ax: number, ay: number, dx: number, dy: number, len: number, tol: number): boolean {
  const t = ((x - ax) * dx + (y - ay) * dy) / (len * len);
  return Math.abs((x - ax) * dy - (y - ay) * dx) / len <= tol && t >= 0 && t <= 1;
}
