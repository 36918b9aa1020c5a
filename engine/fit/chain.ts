/**
 * One boundary chain in, its fitted path out: the choice every chain goes through (image frame,
 * guarded fit or plain fit), kept apart from composing so the worker threads that fit chains in
 * parallel (engine/parallel) run exactly the same code as the main thread.
 */
import { chainMidpoints, fitChain, type FitSettings, type FittedPath, type Segment } from './index.js';
import { dotEllipse } from './dot.js';
import { ellipsePath, fitEllipse } from './ellipse.js';
import { scratchFloat64, scratchSlots } from '../scratch.js';
import { segmentDistance2 } from '../geometry.js';
import { hypot } from '../hypot.js';

/** Scratch slots (../scratch.ts) of the guard, apart from fitChain's own. */
const GuardSlot = scratchSlots('fit guard', Float64Array, ['Loop', 'Flat', 'Dense']);

export interface ChainFitSettings {
  fit: FitSettings;
  /** Check each fit against its cracks and fall back to a tighter fit where it strays (drawn shapes, line art). */
  guardChains: boolean;
  guardSlack: number;
  /**
   * True pixel art (hard edges, no anti-aliasing, a tiny image): every chain is written as its exact
   * crack polyline, the only case where pixel steps are what the artist drew. Whoever detects pixel
   * art sets it; absent means false.
   */
  exactCracks?: boolean;
}

/**
 * Along the image border the outline is the frame itself: always the exact straight edge.
 * Elsewhere the fitter, guarded when the preset asks for exactness.
 */
export function fitBoundaryChain(points: Float64Array, closed: boolean, onFrame: boolean, settings: ChainFitSettings): FittedPath {
  if (onFrame || settings.exactCracks) return crackPolyline(points, closed);
  // smoothing=off keeps the polygon: corners and straight runs, nothing rounded, not even circles
  if (closed && settings.fit.smoothing !== 'off') {
    const ellipse = fitEllipse(chainMidpoints(points, true), 0.5 + settings.fit.tolerance / 2, 0.25 + settings.fit.tolerance / 4);
    if (ellipse !== null) return ellipsePath(ellipse, ringArea2(points) > 0);
    // line art: a ring of a few pixels is a dot, not the triangle a curve fit makes of it
    if (settings.guardChains && points.length < 4 * MIN_GUARD_PIECE) {
      const dot = dotEllipse(points, settings.fit.tolerance);
      if (dot !== null) return ellipsePath(dot, ringArea2(points) > 0);
    }
  }
  return settings.guardChains ? guardedFit(points, closed, settings.fit, settings.guardSlack) : fitChain(points, closed, settings.fit);
}

/** Twice the ring's shoelace area: positive when it runs clockwise on screen (y down). */
function ringArea2(points: Float64Array): number {
  const n = points.length >> 1;
  let sum = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) sum += points[2 * j] * points[2 * i + 1] - points[2 * i] * points[2 * j + 1];
  return sum;
}

/** How many polyline segments ahead the walk looks for a point's nearest segment. */
const GUARD_WINDOW = 48;

/**
 * The same fitter with every polygon vertex kept as a corner: the chain's straight runs as lines,
 * no rounding. Each line follows a digital straight run of the boundary, so it stays within about
 * half a pixel of the true edge without copying its pixel steps; the fallback for chains whose
 * smooth fit strays (a 1-px spur folded flat, a glyph's serif cut off).
 */
export function fitPolygon(points: Float64Array, closed: boolean, settings: FitSettings): FittedPath {
  return fitChain(points, closed, { ...settings, smoothing: 'off', cornerAngleDeg: 180 });
}

/**
 * fitChain with a guard: on thin parts (1-px text, a 1-px spur off a frame, a chain that leaves and
 * returns to the same junction) a curve fit can cut a bump off, fold a spur flat or swing outside
 * the shape. When any crack point lies further from the fit than the tolerance allows, or any point
 * of the fit further from the cracks, the chain is cut in two where it strays most (a serif's tip, a
 * corner the curve rounded off: the cut makes it a corner) and each piece fitted (and guarded) on
 * its own, so only that corner loses its smooth curve. A piece too short to cut is fitted as its
 * polygon (fitPolygon), and written as its crack polyline only when even that strays (a spur of a
 * pixel or two). Both walks of the check move forward along the two lines together, so a check
 * costs the piece's length times a small window.
 */
function guardedFit(points: Float64Array, closed: boolean, settings: FitSettings, slack: number): FittedPath {
  const limit = settings.tolerance + slack;
  const fit = fitChain(points, closed, settings);
  const stray = strayPoint(fit, points, closed, limit);
  if (stray < 0) return fit;
  const count = points.length >> 1;
  if (!closed) return guardedPiece(points, settings, limit, stray);
  if (count < 2 * MIN_GUARD_PIECE) return closedFallback(points, settings, limit);
  // a loop as two open pieces, cut in the middles of the step where it strays and of the step
  // half-way round from there
  const open = new Float64Array(2 * count + 4);
  open[0] = (points[2 * stray] + points[2 * ((stray + 1) % count)]) / 2;
  open[1] = (points[2 * stray + 1] + points[2 * ((stray + 1) % count) + 1]) / 2;
  for (let k = 1; k <= count; k++) {
    const q = (stray + k) % count;
    open[2 * k] = points[2 * q];
    open[2 * k + 1] = points[2 * q + 1];
  }
  open[2 * count + 2] = open[0];
  open[2 * count + 3] = open[1];
  return joinPieces(open, count >> 1, settings, limit);
}

/** Pieces shorter than this (points) are not cut again: their polygon or cracks are written. */
const MIN_GUARD_PIECE = 12;

/**
 * An open piece of a chain, fitted within `limit` of its cracks; its end points stay exact.
 * `stray`: where an earlier fit of the whole piece strayed, when the caller already knows.
 */
function guardedPiece(points: Float64Array, settings: FitSettings, limit: number, stray = -2): FittedPath {
  let fit: FittedPath | null = null;
  if (stray === -2) {
    fit = fitChain(points, false, settings);
    stray = strayPoint(fit, points, false, limit);
  }
  if (stray < 0) return fit ?? fitChain(points, false, settings);
  const count = points.length >> 1;
  if (count < 2 * MIN_GUARD_PIECE) {
    const polygon = fitPolygon(points, false, settings);
    return strayPoint(polygon, points, false, limit) < 0 ? polygon : crackPolyline(points, false);
  }
  // cut beside the stray point, leaving both pieces long enough to fit
  const step = Math.max(MIN_GUARD_PIECE >> 1, Math.min(count - 2 - (MIN_GUARD_PIECE >> 1), stray));
  return joinPieces(points, step, settings, limit);
}

/**
 * Fits points[..step] and points[step + 1..] as two guarded pieces that meet in the middle of the
 * step between: a crack's middle lies on the smooth edge, where a crack corner can sit up to
 * half a pixel off it, so the two fits join without a hook.
 */
function joinPieces(points: Float64Array, step: number, settings: FitSettings, limit: number): FittedPath {
  const count = points.length >> 1;
  const mx = (points[2 * step] + points[2 * step + 2]) / 2,
    my = (points[2 * step + 1] + points[2 * step + 3]) / 2;
  const head = new Float64Array(2 * step + 4);
  head.set(points.subarray(0, 2 * step + 2));
  head[2 * step + 2] = mx;
  head[2 * step + 3] = my;
  const tail = new Float64Array(2 * (count - step));
  tail[0] = mx;
  tail[1] = my;
  tail.set(points.subarray(2 * step + 2), 2);
  const first = guardedPiece(head, settings, limit);
  const second = guardedPiece(tail, settings, limit);
  return { start: first.start, segments: first.segments.concat(second.segments) };
}

function closedFallback(points: Float64Array, settings: FitSettings, limit: number): FittedPath {
  const polygon = fitPolygon(points, true, settings);
  return strayPoint(polygon, points, true, limit) < 0 ? polygon : crackPolyline(points, true);
}

/**
 * -1 when a fit and the chain's cracks stay within `limit` of each other, both ways; else the
 * index of the crack point nearest to where they part most (in the first stretch where they part).
 */
function strayPoint(fit: FittedPath, points: Float64Array, closed: boolean, limit: number): number {
  const flat = densify(flatten(fit));
  const count = points.length >> 1;
  let offset = 0;
  let cracks = points;
  if (closed) {
    offset = nearestPoint(points, fit.start.x, fit.start.y);
    cracks = loopFrom(points, offset);
  }
  let at = farthest(cracks, flat, limit, false);
  if (at < 0) at = farthest(flat, cracks, limit, true);
  if (at < 0) return -1;
  return closed ? (at + offset) % count : Math.min(at, count - 1);
}

/**
 * Walks `from` and `to` in order: -1 when every point of `from` lies within `limit` of `to`, else
 * where the first stretch of points past `limit` is furthest: that point's index in `from`, or
 * (byNearest) the index of the `to` segment nearest to it. Stops at the end of that stretch.
 */
function farthest(from: Float64Array, to: Float64Array, limit: number, byNearest: boolean): number {
  const segments = (to.length >> 1) - 1;
  if (segments < 1) return -1;
  const limit2 = limit * limit;
  let at = 0,
    worst2 = limit2,
    worstAt = -1;
  for (let i = 0; i < from.length; i += 2) {
    const px = from[i],
      py = from[i + 1];
    let best = Infinity,
      bestAt = at;
    const stop = Math.min(segments, at + GUARD_WINDOW);
    for (let k = Math.max(0, at - 1); k < stop; k++) {
      const d2 = segmentDistance2(px, py, to[2 * k], to[2 * k + 1], to[2 * k + 2], to[2 * k + 3]);
      if (d2 < best) {
        best = d2;
        bestAt = k;
      }
      // Segments are at most 2 px long, so once the line is 3 px further away it is leaving.
      else if (k > bestAt + 2 && d2 > best + 9 + 6 * Math.sqrt(best)) break;
    }
    at = bestAt;
    if (best > worst2) {
      worst2 = best;
      worstAt = byNearest ? bestAt : i >> 1;
    } else if (worstAt >= 0 && best <= limit2) break;
  }
  return worstAt;
}

function nearestPoint(points: Float64Array, x: number, y: number): number {
  const n = points.length >> 1;
  let start = 0,
    best = Infinity;
  for (let i = 0; i < n; i++) {
    const d = (points[2 * i] - x) ** 2 + (points[2 * i + 1] - y) ** 2;
    if (d < best) {
      best = d;
      start = i;
    }
  }
  return start;
}

/** A closed loop's points as an open line that starts and ends at point `start`. */
function loopFrom(points: Float64Array, start: number): Float64Array {
  const n = points.length >> 1;
  const out = scratchFloat64(GuardSlot.Loop, 2 * n + 2);
  for (let k = 0; k <= n; k++) {
    const i = (start + k) % n;
    out[2 * k] = points[2 * i];
    out[2 * k + 1] = points[2 * i + 1];
  }
  return out;
}

/** Splits long segments into steps of at most 2 px, so both walks advance at a similar pace. */
function densify(line: Float64Array): Float64Array {
  let total = 1;
  for (let i = 2; i < line.length; i += 2) total += Math.max(1, Math.ceil(hypot(line[i] - line[i - 2], line[i + 1] - line[i - 1]) / 2));
  const out = scratchFloat64(GuardSlot.Dense, 2 * total);
  out[0] = line[0];
  out[1] = line[1];
  let m = 2;
  for (let i = 2; i < line.length; i += 2) {
    const x0 = line[i - 2],
      y0 = line[i - 1],
      x1 = line[i],
      y1 = line[i + 1];
    const steps = Math.max(1, Math.ceil(hypot(x1 - x0, y1 - y0) / 2));
    for (let k = 1; k <= steps; k++) {
      out[m++] = x0 + ((x1 - x0) * k) / steps;
      out[m++] = y0 + ((y1 - y0) * k) / steps;
    }
  }
  return out;
}

function flatten(path: FittedPath): Float64Array {
  let count = 1;
  for (const s of path.segments) count += s.kind === 'C' ? 8 : 1;
  const out = scratchFloat64(GuardSlot.Flat, 2 * count);
  out[0] = path.start.x;
  out[1] = path.start.y;
  let m = 2;
  let x0 = path.start.x,
    y0 = path.start.y;
  for (const s of path.segments) {
    if (s.kind === 'C') {
      for (let k = 1; k < 8; k++) {
        const t = k / 8,
          u = 1 - t;
        out[m++] = u * u * u * x0 + 3 * u * u * t * s.x1 + 3 * u * t * t * s.x2 + t * t * t * s.x;
        out[m++] = u * u * u * y0 + 3 * u * u * t * s.y1 + 3 * u * t * t * s.y2 + t * t * t * s.y;
      }
    }
    out[m++] = s.x;
    out[m++] = s.y;
    x0 = s.x;
    y0 = s.y;
  }
  return out;
}

/**
 * The chain's points as a polyline with only the vertices it needs to stay within `tolerance` of
 * every point (Douglas and Peucker): on sub-pixel points (a thin line whose fit folds flat) a few
 * straight lines, no pixel stairs. A closed loop is split at its first point and the point
 * furthest from it.
 */
export function simplifiedPolyline(points: Float64Array, closed: boolean, tolerance: number): FittedPath {
  const count = points.length >> 1;
  const keep = new Uint8Array(count);
  keep[0] = 1;
  keep[count - 1] = 1;
  const split = (first: number, last: number): void => {
    const ax = points[2 * first],
      ay = points[2 * first + 1];
    const dx = points[2 * last] - ax,
      dy = points[2 * last + 1] - ay,
      len = hypot(dx, dy);
    let worst = -1,
      at = -1;
    for (let i = first + 1; i < last; i++) {
      const px = points[2 * i] - ax,
        py = points[2 * i + 1] - ay;
      const d = len > 1e-9 ? Math.abs(px * dy - py * dx) / len : hypot(px, py);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    if (at < 0 || worst <= tolerance) return;
    keep[at] = 1;
    split(first, at);
    split(at, last);
  };
  if (closed) {
    let far = 0,
      best = -1;
    for (let i = 1; i < count; i++) {
      const d = (points[2 * i] - points[0]) ** 2 + (points[2 * i + 1] - points[1]) ** 2;
      if (d > best) {
        best = d;
        far = i;
      }
    }
    keep[far] = 1;
    split(0, far);
    const wrapped = new Float64Array(2 * (count - far + 1));
    wrapped.set(points.subarray(2 * far));
    wrapped[wrapped.length - 2] = points[0];
    wrapped[wrapped.length - 1] = points[1];
    const rest = simplifiedPolyline(wrapped, false, tolerance);
    const segments: Segment[] = [];
    for (let i = 1; i <= far; i++) if (keep[i]) segments.push({ kind: 'L', x: points[2 * i], y: points[2 * i + 1] });
    return { start: { x: points[0], y: points[1] }, segments: segments.concat(rest.segments) };
  }
  split(0, count - 1);
  const segments: Segment[] = [];
  for (let i = 1; i < count; i++) if (keep[i]) segments.push({ kind: 'L', x: points[2 * i], y: points[2 * i + 1] });
  return { start: { x: points[0], y: points[1] }, segments };
}

/** The chain's exact crack polyline, collinear runs joined. */
export function crackPolyline(points: Float64Array, closed: boolean): FittedPath {
  const count = points.length >> 1;
  const segments: Segment[] = [];
  const turnsAt = (i: number): boolean => {
    if (!closed && (i === 0 || i === count - 1)) return true;
    const p = (i + count - 1) % count,
      q = (i + 1) % count;
    const ax = points[2 * i] - points[2 * p],
      ay = points[2 * i + 1] - points[2 * p + 1];
    const bx = points[2 * q] - points[2 * i],
      by = points[2 * q + 1] - points[2 * i + 1];
    return ax * by - ay * bx !== 0;
  };
  // A closed loop starts on a corner and leaves its last side to the ring's close.
  let first = 0;
  if (closed) while (first < count - 1 && !turnsAt(first)) first++;
  for (let k = 1; k < count; k++) {
    const i = (first + k) % count;
    if (turnsAt(i)) segments.push({ kind: 'L', x: points[2 * i], y: points[2 * i + 1] });
  }
  return { start: { x: points[2 * first], y: points[2 * first + 1] }, segments };
}

/** FittedChains' arrays, exactly filled (FittedChains.packed()). */
export interface PackedFits {
  coords: Float64Array;
  kinds: Uint8Array;
  coordAt: Int32Array;
  kindAt: Int32Array;
  count: Int32Array;
}

/**
 * Fitted chains packed into two growing typed arrays, one slice per chain: a composed image holds
 * tens of thousands of segments until it is written, and as objects they would all be copied by
 * every young-generation collection on the way (a tenth of a trace went to that). Chain c's
 * coordinates are coords[coordAt[c]..]: its start x, y, then x, y per line, x1, y1, x2, y2, x, y
 * per curve or rx, ry, rotation, sweep, x, y per arc, whose kinds are kinds[kindAt[c]..] (0 line,
 * 1 curve, 2 arc), count[c] of them. A segment's
 * previous end point (the start, for the first) is always the two numbers just before its own.
 */
export class FittedChains {
  coords: Float64Array;
  kinds: Uint8Array;
  readonly coordAt: Int32Array;
  readonly kindAt: Int32Array;
  readonly count: Int32Array;
  private coordsUsed = 0;
  private kindsUsed = 0;

  /** Room for `chains` chains, or the fits packed() gave (a worker's copy; storing more grows it as usual). */
  constructor(chains: number | PackedFits, expectedSegments = 1024) {
    if (typeof chains !== 'number') {
      this.coords = chains.coords;
      this.kinds = chains.kinds;
      this.coordAt = chains.coordAt;
      this.kindAt = chains.kindAt;
      this.count = chains.count;
      this.coordsUsed = chains.coords.length;
      this.kindsUsed = chains.kinds.length;
      return;
    }
    this.coords = new Float64Array(Math.max(64, 6 * expectedSegments));
    this.kinds = new Uint8Array(Math.max(16, expectedSegments));
    this.coordAt = new Int32Array(chains).fill(-1);
    this.kindAt = new Int32Array(chains);
    this.count = new Int32Array(chains);
  }

  /**
   * The fits as arrays to send to a worker (a message copies them): the growing coordinates and
   * kinds cut to their used parts, so the copy holds nothing else.
   */
  packed(): PackedFits {
    return {
      coords: this.coords.slice(0, this.coordsUsed),
      kinds: this.kinds.slice(0, this.kindsUsed),
      coordAt: this.coordAt,
      kindAt: this.kindAt,
      count: this.count,
    };
  }

  has(c: number): boolean {
    return this.coordAt[c] >= 0;
  }

  /** Stores (or replaces) chain c's fit. */
  set(c: number, path: FittedPath): void {
    const segs = path.segments;
    let coordsNeeded = 2;
    for (const s of segs) coordsNeeded += s.kind === 'L' ? 2 : 6;
    this.reserve(coordsNeeded, segs.length);
    const coords = this.coords,
      kinds = this.kinds;
    let p = this.coordsUsed,
      k = this.kindsUsed;
    this.coordAt[c] = p;
    this.kindAt[c] = k;
    this.count[c] = segs.length;
    coords[p++] = path.start.x;
    coords[p++] = path.start.y;
    for (const s of segs) {
      if (s.kind === 'L') {
        kinds[k++] = 0;
        coords[p++] = s.x;
        coords[p++] = s.y;
      } else if (s.kind === 'A') {
        kinds[k++] = 2;
        coords[p++] = s.rx;
        coords[p++] = s.ry;
        coords[p++] = s.rotation;
        coords[p++] = s.sweep;
        coords[p++] = s.x;
        coords[p++] = s.y;
      } else {
        kinds[k++] = 1;
        coords[p++] = s.x1;
        coords[p++] = s.y1;
        coords[p++] = s.x2;
        coords[p++] = s.y2;
        coords[p++] = s.x;
        coords[p++] = s.y;
      }
    }
    this.coordsUsed = p;
    this.kindsUsed = k;
  }

  /**
   * Stores chain c's fit from packed arrays (a worker's reply): `segments` kinds at kinds[kindFrom..], coordinates
   * at coords[coordFrom..].
   */
  setPacked(c: number, segments: number, kinds: Uint8Array, kindFrom: number, coords: Float64Array, coordFrom: number): number {
    let coordsNeeded = 2;
    for (let i = 0; i < segments; i++) coordsNeeded += kinds[kindFrom + i] === 0 ? 2 : 6;
    this.reserve(coordsNeeded, segments);
    this.coordAt[c] = this.coordsUsed;
    this.kindAt[c] = this.kindsUsed;
    this.count[c] = segments;
    this.coords.set(coords.subarray(coordFrom, coordFrom + coordsNeeded), this.coordsUsed);
    this.kinds.set(kinds.subarray(kindFrom, kindFrom + segments), this.kindsUsed);
    this.coordsUsed += coordsNeeded;
    this.kindsUsed += segments;
    return coordsNeeded;
  }

  /** Chain c's fit as objects (tests, debugging). */
  path(c: number): FittedPath | undefined {
    if (!this.has(c)) return undefined;
    const coords = this.coords;
    let p = this.coordAt[c];
    const start = { x: coords[p], y: coords[p + 1] };
    p += 2;
    const segments: Segment[] = [];
    for (let i = 0; i < this.count[c]; i++) {
      const kind = this.kinds[this.kindAt[c] + i];
      if (kind === 0) {
        segments.push({ kind: 'L', x: coords[p], y: coords[p + 1] });
        p += 2;
      } else if (kind === 2) {
        segments.push({
          kind: 'A',
          rx: coords[p],
          ry: coords[p + 1],
          rotation: coords[p + 2],
          sweep: coords[p + 3],
          x: coords[p + 4],
          y: coords[p + 5],
        });
        p += 6;
      } else {
        segments.push({
          kind: 'C',
          x1: coords[p],
          y1: coords[p + 1],
          x2: coords[p + 2],
          y2: coords[p + 3],
          x: coords[p + 4],
          y: coords[p + 5],
        });
        p += 6;
      }
    }
    return { start, segments };
  }

  private reserve(coords: number, kinds: number): void {
    if (this.coordsUsed + coords > this.coords.length) {
      const bigger = new Float64Array(Math.max(2 * this.coords.length, this.coordsUsed + coords));
      bigger.set(this.coords.subarray(0, this.coordsUsed));
      this.coords = bigger;
    }
    if (this.kindsUsed + kinds > this.kinds.length) {
      const bigger = new Uint8Array(Math.max(2 * this.kinds.length, this.kindsUsed + kinds));
      bigger.set(this.kinds.subarray(0, this.kindsUsed));
      this.kinds = bigger;
    }
  }
}
