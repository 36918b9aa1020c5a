/**
 * Hidden outline runs (close_seams=true): where a shape's outline runs under neighbours painted on
 * top of it, nobody sees that part of its outline, so it need not follow the shared boundary.
 * compose.ts collects such a run as it would write it (each chain's offset copy, moved
 * `overlapPx` towards the neighbour, with the short joins between them) and this module writes
 * it with as few segments as it can: any stretch of the run may be replaced by one straight line
 * when that line, and everything between it and the stretch it replaces, lies under shapes painted
 * later. An illustrator draws the lower shape the same way, as a simple outline that the shapes on
 * top cut off; in a cloud of stacked puffs that halves the path data.
 *
 * A line may replace a stretch when
 * - every point of it lies at least `clearance` px outside the shape's own fitted outline, so the
 *   shape still runs that far under its neighbour and no seam opens;
 * - the pixels around every point of it (within 0.75 px) belong to the shape or to regions painted
 *   after it, so none of its colour shows past the shapes on top;
 * - every pixel whose centre lies between the line and the stretch belongs to a region painted after
 *   it (no earlier shape, nothing transparent, none of the shape's own pixels, which would mean the
 *   line cuts into the shape).
 * Within `END_ALLOWANCE` of the line's ends, which are points the run passes anyway, the first two
 * tests are waived: the run's ends sit at junctions, beside the shapes painted before.
 * Among the runs that pass, a dynamic programme keeps the fewest segments; the original segments are
 * always allowed, so a run is never written with more segments than before.
 */
import type { FittedChains } from '../fit/chain.js';
import type { ChainRef } from '../boundary/index.js';
import type { PathWriter } from './index.js';
import { segmentDistance2 } from '../geometry.js';
import { hypot } from '../hypot.js';
import { grownFloat64Buffer, scratchFloat64Buffer, scratchInt32, scratchSlots, zeroedUint8 } from '../scratch.js';
import { runEnd } from '../segment/renumber.js';

/** Pen moves an offset chain makes: PathWriter's, or a HiddenRun collecting them. */
export interface Pen {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void;
}

/** Which region each pixel belongs to, and when each region is painted. */
export interface PaintLayers {
  labels: Int32Array;
  width: number;
  height: number;
  /** Paint index per region; -1 for regions never painted (transparent). */
  rank: Int32Array;
  /** Made on first use (blockLeastRanks), a row at a time. */
  blockRanks?: BlockRanks;
}

/** Per row, the least rank of the pixels of each RANK_BLOCK-pixel block, and of windows of them; `made` marks the rows filled in. */
interface BlockRanks {
  least: Int32Array;
  made: Uint8Array;
}

/**
 * Pixels per block of PaintLayers.blockRanks. A shortcut's area test reads every pixel between it
 * and the run it replaces, row by row, and on a large shape those row spans run to hundreds of
 * pixels (calculator: 1.9 million pixel reads a trace, nearly all in spans of 128 or more); a
 * block's least rank answers 16 of them at once.
 */
const RANK_BLOCK_BITS = 4;
const RANK_BLOCK = 1 << RANK_BLOCK_BITS;

/** How far (px) a replacing line must keep outside the shape's own outline: the seam underlap. */
const CLEARANCE = 0.7;
/** Points this close (px) to a line's end are not tested: the end itself is a point of the run. */
const END_ALLOWANCE = 1;
/** Spacing (px) of the points tested along a line. */
const SAMPLE_STEP = 0.5;
/** Pixels around a tested point (px offsets) that must be painted later: its 0.75 px neighbourhood. */
const NEIGHBOURHOOD = 0.75;
/** The points along a line are tested every this many first (then the rest): see shortcutHidden. */
const COARSE_STRIDE = 4;
/** A line replaces at most this many segments: longer tries cost time and rarely pass. */
const MAX_SPAN = 48;
/** Grid cell (px) of the outline index. */
const CELL = 4;

/**
 * A run's pen moves: its points (the pen's position before the first segment, then each segment's
 * end) and its segments, lines or cubics, in absolute coordinates.
 */
export class HiddenRun implements Pen {
  readonly xs: number[] = [];
  readonly ys: number[] = [];
  /** Per segment: null for a line, else its two control points. */
  readonly controls: Array<[number, number, number, number] | null> = [];
  /** Whether the run began with a moveto (a ring that runs under its neighbours all the way round). */
  moved = false;

  constructor(x?: number, y?: number) {
    if (x !== undefined && y !== undefined) {
      this.xs.push(x);
      this.ys.push(y);
    }
  }

  moveTo(x: number, y: number): void {
    this.moved = true;
    this.xs.push(x);
    this.ys.push(y);
  }

  lineTo(x: number, y: number): void {
    const n = this.xs.length;
    // a ring's first chain may have no segments (nothing to offset): the run then starts here
    if (n === 0) return this.moveTo(x, y);
    if (Math.abs(x - this.xs[n - 1]) < 1e-9 && Math.abs(y - this.ys[n - 1]) < 1e-9) return;
    this.xs.push(x);
    this.ys.push(y);
    this.controls.push(null);
  }

  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.xs.push(x);
    this.ys.push(y);
    this.controls.push([x1, y1, x2, y2]);
  }
}

/** Scratch slots (../scratch.ts) of the outline index: its flat segments, and its grid's cells. */
const OUTLINE = scratchSlots('hidden outline', Float64Array, ['segments']);
const OUTLINE_CELLS = scratchSlots('hidden outline cells', Int32Array, ['start', 'segments']);
/** Which index (by its number) the scratch slots hold: an earlier one asked again builds its own anew. */
let builtFor = 0;
let indexesMade = 0;

/**
 * The outline a shape's ring follows where it is seen, as flat segments in a grid, so the distance
 * from any point to it comes from a few cells. Built on the first question: many rings' hidden runs
 * are too short for a shortcut to test any point against it. Its arrays are scratch (one ring's
 * runs are planned before the next ring's).
 */
export class OutlineIndex {
  /** Flat segments, four numbers each (ax, ay, bx, by): `segmentNumbers` of them. */
  private segments = new Float64Array(0);
  private segmentNumbers = 0;
  /** The grid over the segments' reach: its first cell and size in cells. */
  private cellX0 = 0;
  private cellY0 = 0;
  private columns = 0;
  private rows = 0;
  /** Per cell, where its segments' offsets (into `segments`) start in `cellSegments`; one more at the end. */
  private cellStart = new Int32Array(0);
  private cellSegments = new Int32Array(0);
  private readonly id = ++indexesMade;

  constructor(
    private readonly fitted: FittedChains,
    private readonly ring: ArrayLike<ChainRef>,
  ) {}

  /** Whether (x, y) lies closer than `distance` (at most CLEARANCE) to the outline. */
  near(x: number, y: number, distance: number): boolean {
    if (builtFor !== this.id) this.build();
    const cx = cellOf(x) - this.cellX0,
      cy = cellOf(y) - this.cellY0;
    if (cx < 0 || cy < 0 || cx >= this.columns || cy >= this.rows) return false;
    const cell = cy * this.columns + cx;
    const start = this.cellStart[cell],
      end = this.cellStart[cell + 1];
    const d2 = distance * distance;
    const segments = this.segments,
      cellSegments = this.cellSegments;
    for (let k = start; k < end; k++) {
      const s = cellSegments[k];
      if (segmentDistance2(x, y, segments[s], segments[s + 1], segments[s + 2], segments[s + 3]) < d2) return true;
    }
    return false;
  }

  private build(): void {
    builtFor = this.id;
    this.segments = scratchFloat64Buffer(OUTLINE.segments, 64);
    this.segmentNumbers = 0;
    for (let i = 0; i < this.ring.length; i++) this.addChain(this.fitted, this.ring[i] >> 1);
    const segments = this.segments,
      used = this.segmentNumbers;
    // each segment goes in every cell its box, grown by CLEARANCE, touches: counted, then placed
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (let s = 0; s < used; s += 4) {
      x0 = Math.min(x0, cellOf(Math.min(segments[s], segments[s + 2]) - CLEARANCE));
      x1 = Math.max(x1, cellOf(Math.max(segments[s], segments[s + 2]) + CLEARANCE));
      y0 = Math.min(y0, cellOf(Math.min(segments[s + 1], segments[s + 3]) - CLEARANCE));
      y1 = Math.max(y1, cellOf(Math.max(segments[s + 1], segments[s + 3]) + CLEARANCE));
    }
    if (used === 0) {
      this.columns = this.rows = 0;
      return;
    }
    this.cellX0 = x0;
    this.cellY0 = y0;
    const columns = (this.columns = x1 - x0 + 1);
    this.rows = y1 - y0 + 1;
    const cells = columns * this.rows;
    const cellStart = scratchInt32(OUTLINE_CELLS.start, cells + 1).fill(0);
    let cellSegments = this.cellSegments;
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < used; s += 4) {
        const ax = segments[s],
          ay = segments[s + 1],
          bx = segments[s + 2],
          by = segments[s + 3];
        const cx0 = cellOf(Math.min(ax, bx) - CLEARANCE) - x0,
          cx1 = cellOf(Math.max(ax, bx) + CLEARANCE) - x0,
          cy0 = cellOf(Math.min(ay, by) - CLEARANCE) - y0,
          cy1 = cellOf(Math.max(ay, by) + CLEARANCE) - y0;
        for (let cy = cy0; cy <= cy1; cy++)
          for (let cx = cx0; cx <= cx1; cx++) {
            const cell = cy * columns + cx;
            if (pass === 0) cellStart[cell + 1]++;
            else cellSegments[cellStart[cell]++] = s;
          }
      }
      if (pass === 0) {
        for (let c = 0; c < cells; c++) cellStart[c + 1] += cellStart[c];
        cellSegments = this.cellSegments = scratchInt32(OUTLINE_CELLS.segments, cellStart[cells]);
      }
    }
    // placing moved each cell's start to the next one's: shift back
    for (let c = cells; c > 0; c--) cellStart[c] = cellStart[c - 1];
    cellStart[0] = 0;
    this.cellStart = cellStart;
  }

  private pushSegment(ax: number, ay: number, bx: number, by: number): void {
    const used = this.segmentNumbers;
    const segments = (this.segments = grownFloat64Buffer(OUTLINE.segments, this.segments, used, used + 4));
    segments[used] = ax;
    segments[used + 1] = ay;
    segments[used + 2] = bx;
    segments[used + 3] = by;
    this.segmentNumbers = used + 4;
  }

  private addChain(fitted: FittedChains, c: number): void {
    const { coords, kinds } = fitted;
    let p = fitted.coordAt[c];
    let x0 = coords[p],
      y0 = coords[p + 1];
    p += 2;
    for (let i = 0, k0 = fitted.kindAt[c]; i < fitted.count[c]; i++) {
      const kind = kinds[k0 + i];
      if (kind === 0) {
        this.pushSegment(x0, y0, coords[p], coords[p + 1]);
        x0 = coords[p];
        y0 = coords[p + 1];
        p += 2;
        continue;
      }
      // a cubic by its flattening; an arc (a half ellipse) by its chord and control-free bulge is
      // never in a hidden run's ring (compose writes arc chains as they are), so its chord will do
      const x3 = coords[p + 4],
        y3 = coords[p + 5];
      if (kind === 1) {
        const steps = flatSteps(x0, y0, coords[p], coords[p + 1], coords[p + 2], coords[p + 3], x3, y3);
        let px = x0,
          py = y0;
        for (let k = 1; k <= steps; k++) {
          const qx = cubicCoordinate(x0, coords[p], coords[p + 2], x3, k / steps),
            qy = cubicCoordinate(y0, coords[p + 1], coords[p + 3], y3, k / steps);
          this.pushSegment(px, py, qx, qy);
          px = qx;
          py = qy;
        }
      } else this.pushSegment(x0, y0, x3, y3);
      x0 = x3;
      y0 = y3;
      p += 6;
    }
  }
}

/**
 * The points of `run` (the pen is at its first point, or it starts with a moveto), last first, that
 * its fewest segments end on whose shortcuts stay hidden under the regions painted after `region`;
 * a point left out is skipped by a straight shortcut.
 */
export function shortcutEnds(run: HiddenRun, layers: PaintLayers, region: number, outline: OutlineIndex): number[] {
  const segments = run.controls.length;
  // Fewest segments to reach point b: the original segment from b - 1, or a straight shortcut from
  // an earlier a. Shortcuts from a are tried further and further out until one fails (a line
  // that meets an earlier shape or the outline rarely clears it again further on).
  const cost = scratchFloat64Buffer(PLAN.cost, segments + 1).fill(segments + 1, 0, segments + 1);
  const from = scratchFloat64Buffer(PLAN.from, segments + 1).fill(-1, 0, segments + 1);
  cost[0] = 0;
  const flat = flatten(run);
  for (let a = 0; a < segments; a++) {
    if (cost[a] + 1 < cost[a + 1]) {
      cost[a + 1] = cost[a] + 1;
      from[a + 1] = a;
    }
    for (let b = a + 2; b <= Math.min(segments, a + MAX_SPAN); b++) {
      if (cost[a] + 1 >= cost[b] && b < segments) continue;
      if (!shortcutHidden(flat, a, b, layers, region, outline)) break;
      if (cost[a] + 1 < cost[b]) {
        cost[b] = cost[a] + 1;
        from[b] = a;
      }
    }
  }
  const ends: number[] = [];
  for (let b = segments; b > 0; b = from[b]) ends.push(b);
  return ends;
}

/** Writes `run` through the points `ends` lists (shortcutEnds), or through all of them when null. */
export function writeRunEnds(writer: PathWriter, run: HiddenRun, ends: number[] | null): void {
  const { xs, ys, controls } = run;
  if (run.moved) writer.moveTo(xs[0], ys[0]);
  if (ends === null) {
    for (let a = 0; a < controls.length; a++) {
      const c = controls[a];
      if (c) writer.curveTo(c[0], c[1], c[2], c[3], xs[a + 1], ys[a + 1]);
      else writer.lineTo(xs[a + 1], ys[a + 1]);
    }
    return;
  }
  let a = 0;
  for (let i = ends.length - 1; i >= 0; i--) {
    const b = ends[i];
    const c = b === a + 1 ? controls[a] : null;
    if (c) writer.curveTo(c[0], c[1], c[2], c[3], xs[b], ys[b]);
    else writer.lineTo(xs[b], ys[b]);
    a = b;
  }
}

/**
 * A run's segments flattened to points (for the area between a shortcut and what it replaces), in
 * scratch buffers: a run is planned before the next one is flattened.
 */
interface FlatRun {
  px: Float64Array;
  py: Float64Array;
  /** Where run point i is among the flat points. */
  at: Float64Array;
}

/** Scratch slots (../scratch.ts) of the shortcut plan: its cost and back-pointer per point, and the flattened run. */
const PLAN = scratchSlots('hidden shortcuts', Float64Array, ['cost', 'from', 'px', 'py', 'at']);

function flatten(run: HiddenRun): FlatRun {
  const { xs, ys, controls } = run;
  let px = scratchFloat64Buffer(PLAN.px, xs.length),
    py = scratchFloat64Buffer(PLAN.py, xs.length);
  const at = scratchFloat64Buffer(PLAN.at, xs.length);
  px[0] = xs[0];
  py[0] = ys[0];
  at[0] = 0;
  let n = 1;
  for (let s = 0; s < controls.length; s++) {
    const c = controls[s];
    if (c) {
      const steps = flatSteps(xs[s], ys[s], c[0], c[1], c[2], c[3], xs[s + 1], ys[s + 1]);
      px = grownFloat64Buffer(PLAN.px, px, n, n + steps + xs.length);
      py = grownFloat64Buffer(PLAN.py, py, n, n + steps + xs.length);
      for (let k = 1; k < steps; k++) {
        px[n] = cubicCoordinate(xs[s], c[0], c[2], xs[s + 1], k / steps);
        py[n] = cubicCoordinate(ys[s], c[1], c[3], ys[s + 1], k / steps);
        n++;
      }
    }
    at[s + 1] = n;
    px[n] = xs[s + 1];
    py[n] = ys[s + 1];
    n++;
  }
  return { px, py, at };
}

function shortcutHidden(flat: FlatRun, a: number, b: number, layers: PaintLayers, region: number, outline: OutlineIndex): boolean {
  const { px, py, at } = flat;
  const i = at[a],
    j = at[b];
  const ax = px[i],
    ay = py[i],
    bx = px[j],
    by = py[j];
  const length = hypot(bx - ax, by - ay);
  if (length < 1e-6) return false;
  const { labels, width, height, rank } = layers;
  const mine = rank[region];
  const samples = Math.ceil(length / SAMPLE_STEP);
  // Every COARSE_STRIDE-th point first, then each offset between them in turn: the same points are
  // tested, but a line that fails mostly fails over a stretch of points around its middle (where a
  // chord strays furthest from a curved run), which the first sweep reaches in a quarter of the steps.
  for (let offset = 0; offset < COARSE_STRIDE; offset++)
    for (let k = offset === 0 ? COARSE_STRIDE : offset; k < samples; k += COARSE_STRIDE) {
      const along = (k / samples) * length;
      if (along < END_ALLOWANCE || length - along < END_ALLOWANCE) continue;
      const x = ax + ((bx - ax) * k) / samples,
        y = ay + ((by - ay) * k) / samples;
      // the pixels under the point and NEIGHBOURHOOD px to each side, in both directions: the shape's
      // own or painted later (the pixel tests first: fixed work, where the outline's cell may hold many segments)
      const left = Math.floor(x - NEIGHBOURHOOD),
        centreX = Math.floor(x),
        right = Math.floor(x + NEIGHBOURHOOD);
      const top = Math.floor(y - NEIGHBOURHOOD),
        centreY = Math.floor(y),
        bottom = Math.floor(y + NEIGHBOURHOOD);
      if (left < 0 || top < 0 || right >= width || bottom >= height) return false;
      for (let dy = -1; dy <= 1; dy++) {
        const base = (dy < 0 ? top : dy > 0 ? bottom : centreY) * width;
        // each pixel the shape's own or painted later (written out: a closure here was made per call)
        let label = labels[base + left];
        if (!(rank[label] > mine || label === region)) return false;
        label = labels[base + centreX];
        if (!(rank[label] > mine || label === region)) return false;
        label = labels[base + right];
        if (!(rank[label] > mine || label === region)) return false;
      }
      if (outline.near(x, y, CLEARANCE)) return false;
    }
  return areaBetweenHidden(px, py, i, j, layers, mine);
}

/**
 * Crossings of the pixel rows' centre lines with the polygon's edges, and each one's winding
 * direction, grouped by row; reused by every areaBetweenHidden call.
 */
const CROSSINGS = scratchSlots('hidden area crossings', Float64Array, ['row', 'x', 'dir', 'rowX', 'rowDir', 'rowStart']);

/**
 * Whether every pixel whose centre lies inside the polygon of flat points i..j closed by the
 * shortcut (nonzero winding: an offset run may loop) is painted later. Scanline over pixel rows:
 * each edge is met only on the few rows it spans (a long stretch crosses hundreds of rows, and
 * testing every edge against every row made this the costliest test of a shortcut).
 */
function areaBetweenHidden(px: Float64Array, py: Float64Array, i: number, j: number, layers: PaintLayers, mine: number): boolean {
  const { width, height } = layers;
  let top = Infinity,
    bottom = -Infinity;
  for (let k = i; k <= j; k++) {
    if (py[k] < top) top = py[k];
    if (py[k] > bottom) bottom = py[k];
  }
  const firstRow = Math.ceil(top - 0.5);
  let lastRow = Math.floor(bottom - 0.5);
  // the rows whose centre line y = row + 0.5 lies at or above the bottom, as the comparison says
  while (lastRow + 0.5 > bottom) lastRow--;
  while (lastRow + 1.5 <= bottom) lastRow++;
  if (lastRow < firstRow) return true;
  const rows = lastRow - firstRow + 1;
  // Each edge's crossings, edge by edge; an edge k→k+1 (and, last, the shortcut j→i) crosses the
  // row where exactly one of its ends lies at or above the row's centre line. The row range from
  // its ends' rounding is widened by one each way and every row in it tested the same way.
  const rowStart = scratchFloat64Buffer(CROSSINGS.rowStart, rows + 1);
  rowStart.fill(0, 0, rows + 1);
  const capacity = crossingBound(py, i, j, firstRow, lastRow);
  const crossingRow = scratchFloat64Buffer(CROSSINGS.row, capacity),
    crossingX = scratchFloat64Buffer(CROSSINGS.x, capacity),
    crossingDir = scratchFloat64Buffer(CROSSINGS.dir, capacity);
  let count = 0;
  for (let k = i; k <= j; k++) {
    const n = k === j ? i : k + 1;
    const y0 = py[k],
      y1 = py[n];
    if (y0 === y1) continue;
    const low = y0 < y1 ? y0 : y1,
      high = y0 < y1 ? y1 : y0;
    const from = Math.max(firstRow, Math.ceil(low - 0.5) - 1),
      to = Math.min(lastRow, Math.floor(high - 0.5) + 1);
    for (let row = from; row <= to; row++) {
      const y = row + 0.5;
      if (y0 <= y === y1 <= y) continue;
      crossingRow[count] = row - firstRow;
      crossingX[count] = px[k] + ((y - y0) * (px[n] - px[k])) / (y1 - y0);
      crossingDir[count] = y1 > y0 ? 1 : -1;
      count++;
      rowStart[row - firstRow + 1]++;
    }
  }
  for (let r = 0; r < rows; r++) rowStart[r + 1] += rowStart[r];
  // grouped by row, edge order kept within a row (a counting sort is stable)
  const rowX = scratchFloat64Buffer(CROSSINGS.rowX, count),
    rowDir = scratchFloat64Buffer(CROSSINGS.rowDir, count);
  for (let c = 0; c < count; c++) {
    const at = rowStart[crossingRow[c]]++;
    rowX[at] = crossingX[c];
    rowDir[at] = crossingDir[c];
  }
  // rowStart[r] is now where row r + 1 starts
  for (let r = 0; r < rows; r++) {
    const start = r === 0 ? 0 : rowStart[r - 1],
      end = rowStart[r];
    // by x, ties in edge order (insertion sort: a row has a few crossings)
    for (let c = start + 1; c < end; c++) {
      const x = rowX[c],
        dir = rowDir[c];
      let d = c - 1;
      for (; d >= start && rowX[d] > x; d--) {
        rowX[d + 1] = rowX[d];
        rowDir[d + 1] = rowDir[d];
      }
      rowX[d + 1] = x;
      rowDir[d + 1] = dir;
    }
    const row = firstRow + r;
    let winding = 0;
    for (let c = start; c < end - 1; c++) {
      winding += rowDir[c];
      if (winding === 0) continue;
      // pixels x whose centre x + 0.5 lies between the two crossings; all must exist and be painted later
      const x = Math.ceil(rowX[c] - 0.5),
        to = rowX[c + 1];
      if (!(x + 0.5 < to)) continue;
      if (row < 0 || row >= height || x < 0) return false;
      // the pixels x, x + 1, … while their centre is left of `to`: up to `end`, all within the row
      let end = Math.max(x + 1, Math.ceil(to - 0.5));
      while (end > x + 1 && !(end - 0.5 < to)) end--;
      while (end + 0.5 < to) end++;
      if (end > width || !laterThroughout(layers, row, x, end, mine)) return false;
    }
  }
  return true;
}

/** Scratch slots (../scratch.ts) of PaintLayers.blockRanks. */
const RANKS = {
  ...scratchSlots('hidden area ranks', Int32Array, ['blockLeast']),
  ...scratchSlots('hidden area ranks', Uint8Array, ['made']),
};
/**
 * PaintLayers.blockRanks holds the least ranks of windows of 1, 2, 4 and 8 blocks (level by level,
 * each level a row after row of every block's window): any run of whole blocks is then answered by
 * two look-ups, or one per 128 pixels beyond that. Calculator's background (over half its
 * shapes' writing) tests spans of 200–400 pixels on hundreds of rows per shortcut.
 */
const RANK_LEVELS = 4;
const WIDEST_WINDOW = 1 << (RANK_LEVELS - 1);

/**
 * Whether every pixel of `row` from `from` up to `to` (within the row) belongs to a region painted
 * after rank `mine`. A block only partly in the span is read pixel by pixel unless its least rank
 * already says so; the whole blocks between by windows.
 */
function laterThroughout(layers: PaintLayers, row: number, from: number, to: number, mine: number): boolean {
  const { labels, width, height, rank } = layers;
  const ranks = (layers.blockRanks ??= blockLeastRanks(layers));
  if (ranks.made[row] === 0) blockLeastRow(layers, ranks, row);
  const least = ranks.least;
  const blocks = (width + RANK_BLOCK - 1) >> RANK_BLOCK_BITS;
  const rowBlock = row * blocks;
  const base = row * width;
  let x = from;
  if ((x & (RANK_BLOCK - 1)) !== 0) {
    const blockEnd = Math.min(to, ((x >> RANK_BLOCK_BITS) + 1) << RANK_BLOCK_BITS);
    if (!(least[rowBlock + (x >> RANK_BLOCK_BITS)] > mine))
      for (let p = x; p < blockEnd; p++) if (!(rank[labels[base + p]] > mine)) return false;
    x = blockEnd;
  }
  if (x >= to) return true;
  // x is now a block's start, so the block `to` cuts into starts at or after it
  const tailStart = to & ~(RANK_BLOCK - 1);
  if (tailStart < to && !(least[rowBlock + (tailStart >> RANK_BLOCK_BITS)] > mine))
    for (let p = tailStart; p < to; p++) if (!(rank[labels[base + p]] > mine)) return false;
  // the whole blocks first .. last between
  const first = x >> RANK_BLOCK_BITS,
    last = (tailStart >> RANK_BLOCK_BITS) - 1;
  if (last < first) return true;
  const count = last - first + 1;
  if (count <= WIDEST_WINDOW) {
    const level = 31 - Math.clz32(count);
    const at = level * blocks * height + rowBlock;
    return least[at + first] > mine && least[at + last - (1 << level) + 1] > mine;
  }
  const at = (RANK_LEVELS - 1) * blocks * height + rowBlock;
  for (let b = first; b + WIDEST_WINDOW - 1 <= last; b += WIDEST_WINDOW) if (!(least[at + b] > mine)) return false;
  return least[at + last - WIDEST_WINDOW + 1] > mine;
}

/**
 * PaintLayers.blockRanks, no row made yet (blockLeastRow makes each on its first use). A shape's
 * shortcuts test the rows around its hidden runs only: on calculator and storm a pass over all
 * the labels took about a millisecond a thread, as long as the area tests themselves.
 */
function blockLeastRanks(layers: PaintLayers): BlockRanks {
  const { width, height } = layers;
  const blocks = (width + RANK_BLOCK - 1) >> RANK_BLOCK_BITS;
  return { least: scratchInt32(RANKS.blockLeast, RANK_LEVELS * blocks * height), made: zeroedUint8(RANKS.made, height) };
}

/**
 * Row `y` of PaintLayers.blockRanks: the least rank of each RANK_BLOCK-pixel block's pixels (a
 * row's last block may be short), and of each window of 2, 4 and 8 blocks from it (cut short at
 * the row's end). The blocks run by run along the row: a label repeats, so its rank is looked up
 * once a run and lowers only the blocks the run covers (one pixel at a time, it cost ~5 ns a
 * pixel).
 */
function blockLeastRow(layers: PaintLayers, ranks: BlockRanks, y: number): void {
  const { labels, width, height, rank } = layers;
  const least = ranks.least;
  const blocks = (width + RANK_BLOCK - 1) >> RANK_BLOCK_BITS;
  const size = blocks * height;
  const base = y * width,
    rowBlock = y * blocks;
  least.fill(0x7fffffff, rowBlock, rowBlock + blocks);
  for (let x = 0; x < width;) {
    const end = runEnd(labels, base + x, base + width) - base;
    const r = rank[labels[base + x]];
    const last = rowBlock + ((end - 1) >> RANK_BLOCK_BITS);
    for (let b = rowBlock + (x >> RANK_BLOCK_BITS); b <= last; b++) if (r < least[b]) least[b] = r;
    x = end;
  }
  for (let level = 1; level < RANK_LEVELS; level++) {
    const half = 1 << (level - 1),
      below = (level - 1) * size + rowBlock,
      here = level * size + rowBlock;
    for (let b = 0; b < blocks; b++) {
      const low = least[below + b];
      const high = b + half < blocks ? least[below + b + half] : low;
      least[here + b] = low < high ? low : high;
    }
  }
  ranks.made[y] = 1;
}

/** How many row crossings areaBetweenHidden may find at most: the rows each edge's range holds. */
function crossingBound(py: Float64Array, i: number, j: number, firstRow: number, lastRow: number): number {
  let bound = 0;
  for (let k = i; k <= j; k++) {
    const y0 = py[k],
      y1 = py[k === j ? i : k + 1];
    if (y0 === y1) continue;
    const from = Math.max(firstRow, Math.ceil(Math.min(y0, y1) - 0.5) - 1),
      to = Math.min(lastRow, Math.floor(Math.max(y0, y1) - 0.5) + 1);
    if (to >= from) bound += to - from + 1;
  }
  return bound;
}

/** One coordinate of cubicPoint (./path-data.ts), the same arithmetic, without a pair to collect. */
function cubicCoordinate(v0: number, v1: number, v2: number, v3: number, t: number): number {
  const u = 1 - t;
  const b0 = u * u * u,
    b1 = 3 * u * u * t,
    b2 = 3 * u * t * t,
    b3 = t * t * t;
  return b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3;
}

function flatSteps(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): number {
  const hull = hypot(x1 - x0, y1 - y0) + hypot(x2 - x1, y2 - y1) + hypot(x3 - x2, y3 - y2);
  return Math.max(2, Math.ceil(hull));
}

function cellOf(v: number): number {
  return Math.floor(v / CELL);
}
