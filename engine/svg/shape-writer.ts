/**
 * Writing the shapes' path data, shape by shape in paint order (compose.ts plans the order and
 * the fits first, then lays out the items from what this writes).
 *
 * A shape's path is a function of the shape alone, given the paint order, the fitted chains and
 * the labels: its rings walk its chains, and where a chain runs under a neighbour painted later
 * (close_seams) the ring follows an offset copy, with shortcuts through runs hidden under later
 * shapes (./underlap.ts). So any stretch of the paint order can be written on any thread with the
 * same bytes (engine/parallel/shape-writing.ts shares them with a worker). What it reads is kept
 * in flat arrays (ShapeLayout), which a worker can be sent whole.
 */
import type { BoundaryGraph, ChainRef } from '../boundary/index.js';
import type { FittedChains } from '../fit/chain.js';
import type { Ellipse } from '../fit/ellipse.js';
import { scratchFloat64Buffer, scratchSlots, scratchUint8Buffer } from '../scratch.js';
import { fittedEllipse } from './ellipse.js';
import { PathWriter } from './index.js';
import { appendOffsetWalk, type Walk } from './offset.js';
import { HiddenRun, OutlineIndex, shortcutEnds, writeRunEnds, type PaintLayers, type Pen } from './underlap.js';

/** The rings, chains and paint order that writing the shapes reads, in flat arrays. */
export interface ShapeLayout {
  width: number;
  height: number;
  /** Region label per pixel (the segmentation's, in shared memory). */
  labels: Int32Array;
  /** Paint index per region, -1 for regions never painted (transparent). */
  rank: Int32Array;
  transparent: Uint8Array;
  area: Int32Array;
  /** The regions in paint order. */
  order: Int32Array;
  /** Per chain: the regions on its left and right (-1: outside the image), and 1 when it is a closed loop. */
  left: Int32Array;
  right: Int32Array;
  closed: Uint8Array;
  /** Region r's rings are rings ringFirst[r] .. ringFirst[r + 1]). */
  ringFirst: Int32Array;
  /** Ring k's chain refs are refs[refFirst[k] .. refFirst[k + 1]). */
  refFirst: Int32Array;
  refs: Int32Array;
  /** Per ring: its signed area (negative for a hole), and 1 for a hole stackedOrder found to hold only later regions. */
  ringArea: Float64Array;
  stacked: Uint8Array;
}

export interface ShapeOptions {
  closeSeams: boolean;
  /** Holes of stacked shapes are left uncut (compose.ts, stackedOrder). */
  stackHoles: boolean;
  overlapPx: number;
  hiddenShortcuts: boolean;
}

/** One shape as written: its path data (and without shortcuts, when it took one), or an ellipse element; null: nothing to draw. */
export type WrittenShape = { d: string; nodes: number; plain: { d: string; nodes: number } | null } | { ellipse: Ellipse } | null;

/** The layout of a boundary graph's rings and chains for the given paint order (stackedHoles: the holes stackedOrder checked). */
export function layoutShapes(
  graph: BoundaryGraph,
  labels: Int32Array,
  area: Int32Array,
  transparent: Uint8Array,
  order: number[],
  stackedHoles: ReadonlySet<ChainRef[]>,
): ShapeLayout {
  const { chains, outlines } = graph;
  const regionCount = outlines.length;
  const left = new Int32Array(chains.length),
    right = new Int32Array(chains.length),
    closed = new Uint8Array(chains.length);
  for (let c = 0; c < chains.length; c++) {
    left[c] = chains[c].left;
    right[c] = chains[c].right;
    closed[c] = chains[c].closed ? 1 : 0;
  }
  let ringCount = 0,
    refCount = 0;
  for (const outline of outlines) {
    ringCount += outline.rings.length;
    for (const ring of outline.rings) refCount += ring.length;
  }
  const ringFirst = new Int32Array(regionCount + 1),
    refFirst = new Int32Array(ringCount + 1),
    refs = new Int32Array(refCount),
    ringArea = new Float64Array(ringCount),
    stacked = new Uint8Array(ringCount);
  let k = 0,
    at = 0;
  for (let r = 0; r < regionCount; r++) {
    ringFirst[r] = k;
    const outline = outlines[r];
    for (let j = 0; j < outline.rings.length; j++, k++) {
      const ring = outline.rings[j];
      refFirst[k] = at;
      for (let i = 0; i < ring.length; i++) refs[at++] = ring[i];
      ringArea[k] = outline.ringArea[j];
      stacked[k] = stackedHoles.has(ring) ? 1 : 0;
    }
  }
  ringFirst[regionCount] = k;
  refFirst[ringCount] = at;
  const rank = new Int32Array(regionCount).fill(-1);
  order.forEach((r, i) => (rank[r] = i));
  return {
    width: graph.width,
    height: graph.height,
    labels,
    rank,
    transparent,
    area,
    order: Int32Array.from(order),
    left,
    right,
    closed,
    ringFirst,
    refFirst,
    refs,
    ringArea,
    stacked,
  };
}

/**
 * Writes stretches of the paint order on one thread: the labels' per-block least ranks that the
 * shortcut tests read (./underlap.ts) are made once, on the first stretch that needs them.
 */
export class PaintOrderWriter {
  private readonly layers: PaintLayers;

  constructor(
    private readonly layout: ShapeLayout,
    private readonly fitted: FittedChains,
    private readonly options: ShapeOptions,
  ) {
    this.layers = { labels: layout.labels, width: layout.width, height: layout.height, rank: layout.rank };
  }

  /**
   * Writes the shapes painted from..to-1 (indices into the paint order) and returns them in that
   * order. For a shape whose hole is left uncut because one region painted later fills it whole,
   * the pair (that region, the shape: the one painted whole beneath it) is pushed onto `beneath`.
   */
  write(from: number, to: number, beneath: number[]): WrittenShape[] {
    return writeShapes(this.layout, this.fitted, this.options, this.layers, from, to, beneath);
  }
}

function writeShapes(
  layout: ShapeLayout,
  fitted: FittedChains,
  options: ShapeOptions,
  layers: PaintLayers,
  from: number,
  to: number,
  beneath: number[],
): WrittenShape[] {
  const written = new Array<WrittenShape>(to - from);
  const { order, area, rank, ringFirst, refFirst, refs, ringArea, stacked } = layout;
  const { closeSeams, stackHoles } = options;
  // the smallest shape painted before `from` (the hole test below needs it for every shape)
  let smallestEarlier = Infinity;
  for (let i = 1; i <= from && i < order.length; i++) smallestEarlier = Math.min(smallestEarlier, area[order[i - 1]]);
  for (let i = from; i < to; i++) {
    const r = order[i];
    if (i > from) smallestEarlier = Math.min(smallestEarlier, area[order[i - 1]]);
    const firstRing = ringFirst[r],
      rings = ringFirst[r + 1] - firstRing;
    // The shape with shortcuts taken in hidden runs, and once one is taken, without any, for the
    // output controls that lift a later shape below it or leave one out (controls.ts). One pass
    // over the rings writes both.
    const shape = new ShapeWriter(layers, r, fitted, options.hiddenShortcuts);
    for (let k = firstRing; k < firstRing + rings; k++) {
      const ring = refs.subarray(refFirst[k], refFirst[k + 1]);
      // A hole stackedOrder checked, or one that only regions at most its size can fill when every
      // shape painted so far is larger (then the rim says whether all of them come later).
      if (stackHoles && ringArea[k] < 0 && (stacked[k] === 1 || -ringArea[k] < smallestEarlier)) {
        let allLater = true;
        for (let j = 0; j < ring.length && allLater; j++) if (!(rank[otherSide(layout, ring[j])] > i)) allLater = false;
        if (allLater) {
          const inside = otherSide(layout, ring[0]);
          let whole = true;
          for (let j = 1; j < ring.length && whole; j++) if (otherSide(layout, ring[j]) !== inside) whole = false;
          if (whole) beneath.push(inside, r);
          continue;
        }
      }
      // Runs of chains under later neighbours are collected and written by writeRunEnds (./underlap.ts);
      // the ring starts on a chain that is seen, so no run wraps round its end.
      const hidden = new Array<boolean>(ring.length);
      for (let j = 0; j < ring.length; j++) hidden[j] = closeSeams && runsUnder(layout, ring[j], i) && !hasArc(fitted, ring[j] >> 1);
      const first = Math.max(0, hidden.indexOf(false));
      shape.startRing(ring);
      for (let s = 0; s < ring.length; s++) {
        const j = (first + s) % ring.length;
        const ref = ring[j];
        const chain = ref >> 1,
          reversed = (ref & 1) === 1;
        if (hidden[j]) {
          shape.run ??= s === 0 ? new HiddenRun() : new HiddenRun(...chainStart(fitted, chain, reversed));
          appendOffsetChain(shape.run, fitted, chain, reversed, s > 0, options.overlapPx, layout.closed[chain] === 1);
          continue;
        }
        // after an offset piece the pen is off the chain's start: a short line joins them
        if (shape.run !== null) shape.endRun(...chainStart(fitted, chain, reversed));
        // Each chain is fitted once, forwards; a ring that walks it backwards reads it backwards
        // (appendChain's reversed walk) instead of keeping a reversed copy.
        shape.fill.appendChain(fitted, chain, reversed, s > 0);
        shape.plain?.appendChain(fitted, chain, reversed, s > 0);
      }
      // a run at the ring's end goes back to where the ring started (its own start when all of it is hidden)
      const closing: HiddenRun | null = shape.run;
      // a ring whose every chain is hidden and has no segments has no point to write
      if (closing !== null && closing.xs.length > 0)
        shape.endRun(
          ...(hidden[first]
            ? ([closing.xs[0], closing.ys[0]] as [number, number])
            : chainStart(fitted, ring[first] >> 1, (ring[first] & 1) === 1)),
        );
      shape.fill.close();
      shape.plain?.close();
    }
    const { fill, plain } = shape;
    if (fill.empty) {
      written[i - from] = null;
      continue;
    }
    // an ellipse element has no offset copy: only a shape that runs under nothing is written as one
    const soleRef = rings === 1 && refFirst[firstRing + 1] - refFirst[firstRing] === 1 ? refs[refFirst[firstRing]] : -1;
    const underNothing = soleRef >= 0 && !(closeSeams && runsUnder(layout, soleRef, i));
    const ellipse = underNothing ? fittedEllipse(fitted, soleRef >> 1) : null;
    written[i - from] =
      ellipse !== null
        ? { ellipse }
        : { d: fill.toString(), nodes: fill.segments, plain: plain === null ? null : { d: plain.toString(), nodes: plain.segments } };
  }
  return written;
}

/** The region on the other side of a ring's chain. */
function otherSide(layout: ShapeLayout, ref: ChainRef): number {
  return ref & 1 ? layout.right[ref >> 1] : layout.left[ref >> 1];
}

/**
 * Whether the chain's neighbour is painted on top of the shape painted `i`th: with close_seams
 * the shape runs on under it, so no hairline of the page shows between their anti-aliased edges.
 */
function runsUnder(layout: ShapeLayout, ref: ChainRef, i: number): boolean {
  const other = otherSide(layout, ref);
  return other >= 0 && !layout.transparent[other] && layout.rank[other] > i;
}

/**
 * One shape's path as writeShapes writes it: `fill` with shortcuts taken in its hidden runs, and
 * once one is taken, `plain` without any (a fork of the fill as it stood before that run). A class
 * and not closures made per ring or per shape: V8 threw such closures' optimised code away and
 * compiled them again several times a round of the corpus (`npm run bench:jit`).
 */
class ShapeWriter {
  readonly fill = new PathWriter();
  plain: PathWriter | null = null;
  /** The hidden run being collected, if any. */
  run: HiddenRun | null = null;
  private ring: ArrayLike<ChainRef> = [];
  /** The ring's outline where it is seen: made for the first run that asks (shortcutEnds). */
  private seen: OutlineIndex | null = null;

  constructor(
    private readonly layers: PaintLayers,
    private readonly region: number,
    private readonly fitted: FittedChains,
    private readonly shortcuts: boolean,
  ) {}

  startRing(ring: ArrayLike<ChainRef>): void {
    this.ring = ring;
    this.run = null;
    this.seen = null;
  }

  /** Ends the hidden run at (x, y) and writes it, with the fewest segments that stay hidden. */
  endRun(x: number, y: number): void {
    const run = this.run!;
    run.lineTo(x, y);
    const ends = this.shortcuts
      ? shortcutEnds(run, this.layers, this.region, (this.seen ??= new OutlineIndex(this.fitted, this.ring)))
      : null;
    // fewer ends than segments: a shortcut was taken
    if (ends !== null && ends.length < run.controls.length) this.plain ??= this.fill.fork();
    writeRunEnds(this.fill, run, ends);
    if (this.plain !== null) writeRunEnds(this.plain, run, null);
    this.run = null;
  }
}

/** Where chain c's walk starts (its last point when walked backwards). */
function chainStart(fitted: FittedChains, c: number, reversed: boolean): [number, number] {
  const { coords, kinds } = fitted;
  let p = fitted.coordAt[c];
  if (reversed) {
    p += 2;
    for (let i = 0, k0 = fitted.kindAt[c]; i < fitted.count[c]; i++) p += kinds[k0 + i] === 0 ? 2 : 6;
    p -= 2;
  }
  return [coords[p], coords[p + 1]];
}

/** Chain c's fit (walked backwards when `reversed`) moved `distance` px to the left of the walk (offset.ts). */
function appendOffsetChain(
  writer: Pen,
  fitted: FittedChains,
  c: number,
  reversed: boolean,
  continuing: boolean,
  distance: number,
  closed: boolean,
): void {
  appendOffsetWalk(writer, chainWalk(fitted, c, reversed), continuing, distance, closed);
}

/** chainWalk's arrays and the walk itself, reused: appendOffsetWalk is done with them before the next chain. */
const WALK = scratchSlots('chain walk', Float64Array, ['xs', 'ys']);
const WALK_KINDS = scratchSlots('chain walk kinds', Uint8Array, ['curve']);
const walk: Walk = { xs: [], ys: [], curve: [], segments: 0 };

/** Chain c's control points in walking order (start, then 1 per line or 3 per curve) and which segments are curves. */
function chainWalk(fitted: FittedChains, c: number, reversed: boolean): Walk {
  const { coords, kinds } = fitted;
  const k0 = fitted.kindAt[c],
    n = fitted.count[c];
  let total = 1;
  for (let i = 0; i < n; i++) total += kinds[k0 + i] === 0 ? 1 : 3;
  const xs = scratchFloat64Buffer(WALK.xs, total),
    ys = scratchFloat64Buffer(WALK.ys, total),
    curve = scratchUint8Buffer(WALK_KINDS.curve, n);
  const base = fitted.coordAt[c];
  for (let q = 0; q < total; q++) {
    const at = reversed ? total - 1 - q : q;
    xs[q] = coords[base + 2 * at];
    ys[q] = coords[base + 2 * at + 1];
  }
  for (let i = 0; i < n; i++) curve[reversed ? n - 1 - i : i] = kinds[k0 + i];
  walk.xs = xs;
  walk.ys = ys;
  walk.curve = curve;
  walk.segments = n;
  return walk;
}

/** Offset copies are made of lines and cubics only: a chain fitted as half-ellipse arcs is shared as it is. */
function hasArc(fitted: FittedChains, c: number): boolean {
  for (let i = 0, k0 = fitted.kindAt[c]; i < fitted.count[c]; i++) if (fitted.kinds[k0 + i] === 2) return true;
  return false;
}
