/**
 * Segment stage: colour regions that partition the image exactly (one label per pixel).
 *
 * 1. Seeds: a flood fill joins 8-neighbours whose colour is within `seedTolerance` of the seed pixel
 *    (not of the previous pixel, so a slow ramp or an anti-aliased edge cannot chain two different
 *    colours into one region). Transparent pixels flood among themselves and are never merged with
 *    painted ones.
 * 2. Merging on the region adjacency graph, cheapest first (a heap of region pairs). The cost of a
 *    merge is how much it grows the summed squared RGB error of painting each region with its model:
 *    a flat mean (Ward's criterion) or, for gradients=smooth, a colour plane c = a + b·x + c·y, so a
 *    smooth ramp merges into one region that a gradient fill can paint. Anti-aliased edge pixels are
 *    tiny regions whose cheapest merge is into the neighbour closest in colour, so they fold into
 *    that side and edges stay clean. Regions under `minArea` always merge; everything else merges
 *    while the cost stays under `mergeCost` (set by `detail`).
 *
 * 3. Anti-aliasing bands: thin regions whose pixels are mixes of two regions beside them go, pixel
 *    by pixel, to the side each is closer to (./antialias.ts).
 * 4. Gradient bands: neighbours across a soft boundary that one linear or radial gradient paints
 *    together join into one shape (./gradient-bands.ts).
 *
 * The heap is lazy: a popped pair whose regions changed since it was queued is re-priced and queued
 * again instead of keeping per-region adjacency lists, so memory stays a few typed arrays.
 */
import type { SegmentSettings } from '../settings.js';
import { checkAbort, type StageContext } from '../stage.js';
import type { PreparedImage } from '../prepare/index.js';
import { SparePool, spareSharedBuffers } from '../scratch.js';
import { PairHeap } from './heap.js';
import { findRoot } from '../union-find.js';
import { absorbAntialiasBands } from './antialias.js';
import { joinGradientBands } from './gradient-bands.js';
import { rowRunsOf, type RegionLabels, type RowRuns } from './renumber.js';
import { floodKernel } from '../wasm/flood.js';

export interface Segmentation {
  width: number;
  height: number;
  /** Region label per pixel, 0..regionCount-1, numbered in scan order of first appearance. */
  labels: Int32Array;
  regionCount: number;
  /** Pixel count per region. */
  area: Int32Array;
  /** 1 for regions made of transparent pixels (never painted). */
  transparent: Uint8Array;
  /** Σr, Σg, Σb of each region's pixels (RegionLabels.colourSums): colour regions only. */
  colourSums?: Float64Array;
  /**
   * Line art only (engine/segment/line-art.ts): each pixel's ink coverage, 0 paper to 255 full
   * ink, 128 at the ink threshold: the anti-aliased values, for placing edges between pixels.
   */
  coverage?: Uint8Array;
  /**
   * Line art only: each region's own colour (RGB, 3 bytes a region), painted instead of the mean of
   * its pixels: an ink's stroke-centre colour, the page colour.
   */
  colours?: Uint8Array;
}

const FLAT_STRIDE = 4; // n, Σr, Σg, Σb
export const PLANE_STRIDE = 16; // n, Σx, Σy, Σxx, Σxy, Σyy, Σr, Σg, Σb, Σrx, Σgx, Σbx, Σry, Σgy, Σby, Σ(r²+g²+b²)
/** Seeds per chunk of moment sums (a power of two: seed s lives in chunk s >> SEED_CHUNK_BITS). */
export const SEED_CHUNK_BITS = 13;
const SEED_CHUNK = 1 << SEED_CHUNK_BITS;
/**
 * Chunks kept for the next trace on this thread (1 MiB each). A fresh chunk costs its page faults
 * on first write, several times the flood's own work on it; up to this many are kept, so a large
 * image does not hold on to hundreds of megabytes after it is done.
 */
const SPARE_CHUNKS_KEPT = 32;
const CHUNK_LENGTH = SEED_CHUNK * PLANE_STRIDE;
const spareChunks = new SparePool((bytes) => new Float64Array(bytes / 8), SPARE_CHUNKS_KEPT, 8 * CHUNK_LENGTH);
const PAIR_CACHE_BITS = 14;
const PAIR_CACHE_SIZE = 1 << PAIR_CACHE_BITS;
/** Ridge on the plane's slope (per pixel) so thin or tiny regions fall back towards a flat fit. */
const PLANE_RIDGE = 0.25;

export function segmentImage(image: PreparedImage, settings: SegmentSettings, context: StageContext): Segmentation {
  const regions = segmentUnjoined(image, settings, context);
  const joined = settings.gradientBands ? joinGradientBands(image.source, regions, settings.gradientBands) : regions;
  context.progress(1);
  return { width: image.width, height: image.height, ...joined };
}

/** Steps 1–3: the regions before gradient bands are joined (engine/parallel/gradient-joins.ts joins them on two threads). */
export function segmentUnjoined(image: PreparedImage, settings: SegmentSettings, context: StageContext): RegionLabels {
  const seeds = floodSeeds(image, settings.seedTolerance, context);
  foldSinglePixels(image, seeds.labels, seeds.chunks, seeds.count, seeds.singles, settings.foldDistance);
  context.progress(0.25);
  const merged = mergeRegions(image, seeds.labels, seeds.count, seeds.transparent, seeds.chunks, settings, context);
  checkAbort(context);
  return settings.absorbBands ? absorbAntialiasBands(image, merged) : merged;
}

/**
 * Scanline fill. A region is the 8-connected component of unlabelled pixels near the seed's colour
 * that holds the seed, which does not depend on the visiting order, so any order gives the labels
 * a pixel-by-pixel fill gives. The stack holds row segments that are already labelled: a popped
 * segment grows left and right along its row, then the rows above and below are scanned one
 * pixel past both ends (the diagonals) and every stretch of accepted pixels found there is
 * labelled at once and pushed. Each pixel's colour is then compared about once, not once per
 * neighbour. A segment also remembers the run it was found from (its parent, one row over): that
 * run is labelled already, so the scan back into the parent's row skips it instead of re-reading
 * every pixel of it. A pixel of the same colour as the one before it along the row passes as that
 * one did, and its colour sums wait until the colour changes (clip art is mostly such runs).
 *
 * The fill itself runs in WebAssembly (engine/wasm/assembly/flood.ts): it is the segmentation's
 * one pass that reads every pixel's colour, and compiled from AssemblyScript it takes 0.5–0.6 of
 * the time V8 made of the same code in TypeScript (docs/performance.md, round 22). Seeds are
 * flooded in batches of at most one chunk of sums, so the chunks fill as before and the abort
 * signal is looked at between batches.
 *
 * Exported for its test (a pixel-by-pixel flood beside it).
 */
export function floodSeeds(image: PreparedImage, tolerance: number, context: StageContext) {
  const { width, height, rgb, transparent } = image;
  const n = width * height;
  const kernel = floodKernel(width, height, rgb, image.hasTransparency ? transparent : null, SEED_CHUNK);
  const tol2 = tolerance * tolerance;
  let regionTransparent = new Uint8Array(1024);
  // Each seed's moment sums (PLANE_STRIDE per seed), summed while it floods, so no later pass over
  // the pixels has to gather them. They are whole numbers far below 2^53, exact in any order, so
  // they equal sums taken pixel by pixel. Kept in fixed chunks, since the count is unknown until
  // the end (growing one array would copy it again and again); the merging copies out only the
  // seeds that folding leaves, and hands the chunks back for the next trace. Every seed writes all
  // of its sums, so a reused chunk needs no clearing.
  const chunks: Float64Array<ArrayBuffer>[] = [];
  // the pixel of every painted one-pixel seed, in scan order (what foldSinglePixels visits)
  let singles = new Int32Array(1024);
  let singleCount = 0;
  let count = 0;
  for (let start = 0; start < n;) {
    checkAbort(context);
    const inChunk = count & (SEED_CHUNK - 1);
    if (inChunk === 0) chunks.push(spareChunks.take(8 * CHUNK_LENGTH));
    const { next, seeds } = kernel.batch(tol2, start, count, SEED_CHUNK - inChunk, start + ABORT_CHECK_PIXELS);
    start = next;
    if (seeds === 0) continue;
    const sums = kernel.sums(seeds),
      starts = kernel.starts(seeds);
    chunks[chunks.length - 1].set(sums, inChunk * PLANE_STRIDE);
    if (count + seeds > regionTransparent.length) {
      const bigger = new Uint8Array(Math.max(2 * regionTransparent.length, count + seeds));
      bigger.set(regionTransparent);
      regionTransparent = bigger;
    }
    for (let k = 0; k < seeds; k++) {
      const pixel = starts[k];
      const clear = transparent[pixel];
      regionTransparent[count + k] = clear;
      if (sums[k * PLANE_STRIDE] === 1 && !clear) {
        if (singleCount === singles.length) {
          const bigger = new Int32Array(2 * singleCount);
          bigger.set(singles);
          singles = bigger;
        }
        singles[singleCount++] = pixel;
      }
    }
    count += seeds;
  }
  // In shared memory: a worker can then read the final labels without a copy (region paints).
  const labels = takeLabels(n);
  kernel.finish(labels);
  return { labels, count, transparent: regionTransparent.slice(0, count), chunks, singles: singles.subarray(0, singleCount) };
}

/** Seeds may start in at most this many pixels between two looks at the abort signal. */
const ABORT_CHECK_PIXELS = 1 << 16;

/**
 * The label array's shared buffer, kept from a finished trace (releaseLabels) for the next one on
 * this thread: faulting in four bytes a pixel of fresh pages cost more than the flood's first pass.
 */
const spareLabels = spareSharedBuffers(64 << 20);

/** A label array of n pixels in shared memory (a worker can read it without a copy), contents undefined. */
export function takeLabels(n: number): Int32Array {
  return new Int32Array(spareLabels.take(4 * n), 0, n);
}

/**
 * Hands a finished trace's labels back for the next segmentation on this thread. Only for labels
 * nothing reads any more: the next trace overwrites them (a worker still busy with an abandoned
 * job may read them meanwhile; its reply is thrown away).
 */
export function releaseLabels(labels: Int32Array): void {
  if (labels.buffer instanceof SharedArrayBuffer) spareLabels.giveBack(labels.buffer);
}

/**
 * Most seeds are single pixels: anti-aliased edge pixels and noise. Each one joins the neighbouring
 * seed (of two or more pixels) whose mean colour is closest, which is where the merging below would
 * put it first anyway; doing it in one linear pass spares the heap most of its work. A pixel whose
 * neighbours are all single pixels too is left to the merging. Only the one-pixel seeds the flood
 * listed are visited, in scan order: folding one never changes another's seed size, so these are
 * exactly the pixels a pass over the whole image would pick.
 */
function foldSinglePixels(
  image: PreparedImage,
  labels: Int32Array,
  chunks: Float64Array[],
  seedCount: number,
  singles: Int32Array,
  foldDistance: number,
): void {
  const { width, height, rgb } = image;
  const transparent = image.transparent;
  const limit = foldDistance * foldDistance;
  // Area and mean colour of every seed of two or more pixels (area 0 marks the rest), four numbers
  // side by side: the neighbours' seeds are met in no order, and a record this small keeps those
  // reads to one cache line each (the quotients are the ones the loop would take, taken once).
  const means = new Float64Array(4 * seedCount);
  for (let seed = 0; seed < seedCount; seed++) {
    const stats = chunks[seed >> SEED_CHUNK_BITS],
      o = (seed & (SEED_CHUNK - 1)) * PLANE_STRIDE;
    const a = stats[o];
    if (a < 2) continue;
    means[4 * seed] = a;
    means[4 * seed + 1] = stats[o + 6] / a;
    means[4 * seed + 2] = stats[o + 7] / a;
    means[4 * seed + 3] = stats[o + 8] / a;
  }
  // Choices read only the means above, so a folded pixel's terms go into its region's sums at once
  // without pulling the next pixel's choice; its own seed is emptied (a count of 0 marks it).
  for (let i = 0; i < singles.length; i++) {
    const p = singles[i];
    const y = (p / width) | 0,
      x = p - y * width;
    const r = rgb[p * 3],
      g = rgb[p * 3 + 1],
      b = rgb[p * 3 + 2];
    let best = -1,
      bestDistance = Infinity;
    for (let k = 0; k < 4; k++) {
      const q =
        k === 0
          ? x > 0
            ? p - 1
            : -1
          : k === 1
            ? x < width - 1
              ? p + 1
              : -1
            : k === 2
              ? y > 0
                ? p - width
                : -1
              : y < height - 1
                ? p + width
                : -1;
      if (q < 0 || transparent[q]) continue;
      const l = labels[q];
      const o = 4 * l;
      if (means[o] < 2) continue;
      const dr = means[o + 1] - r,
        dg = means[o + 2] - g,
        db = means[o + 3] - b;
      const d = dr * dr + dg * dg + db * db;
      if (d < bestDistance) {
        bestDistance = d;
        best = l;
      }
    }
    if (best >= 0 && bestDistance <= limit) {
      // the pixel's own terms, the same whole numbers its one-pixel seed summed
      const stats = chunks[best >> SEED_CHUNK_BITS],
        o = (best & (SEED_CHUNK - 1)) * PLANE_STRIDE;
      stats[o] += 1;
      stats[o + 1] += x;
      stats[o + 2] += y;
      stats[o + 3] += x * x;
      stats[o + 4] += x * y;
      stats[o + 5] += y * y;
      stats[o + 6] += r;
      stats[o + 7] += g;
      stats[o + 8] += b;
      stats[o + 9] += r * x;
      stats[o + 10] += g * x;
      stats[o + 11] += b * x;
      stats[o + 12] += r * y;
      stats[o + 13] += g * y;
      stats[o + 14] += b * y;
      stats[o + 15] += r * r + g * g + b * b;
      const own = labels[p];
      chunks[own >> SEED_CHUNK_BITS][(own & (SEED_CHUNK - 1)) * PLANE_STRIDE] = 0;
      labels[p] = best;
    }
  }
}

/**
 * Region pairs from 4-neighbour pixel pairs (opaque regions only), as dense ids. A small
 * direct-mapped cache of pairs already seen drops nearly all repeats (a long boundary meets the
 * same pair on every row); what slips through is harmless, a popped pair of already-joined regions
 * is dropped.
 *
 * The pairs are noted in the order of a scan of the pixels, each against its right neighbour and
 * then the one below (that order numbers the pairs, which breaks heap ties), but run by run: along
 * a run of one seed the right neighbour differs only at its last pixel, and the pixels below repeat
 * the pair last noted except where the row below's runs change, so one note per overlap of the two
 * rows' runs (and the right neighbour's at the run's last pixel, in its place) notes what the
 * pixel-by-pixel scan notes: a pair noted again at once changes nothing. Exported for its test.
 */
export function neighbourPairs(
  labels: Int32Array,
  width: number,
  height: number,
  seedCount: number,
  regionTransparent: Uint8Array,
  denseOf: Int32Array,
  runs: RowRuns,
): { edgeA: Int32Array; edgeB: Int32Array; pairCount: number } {
  const pairs: PairList = { edgeA: new Int32Array(1024), edgeB: new Int32Array(1024), pairCount: 0, lastKey: -1 };
  const seen = new Float64Array(PAIR_CACHE_SIZE).fill(-1);
  const { starts, rowRuns } = runs;
  for (let y = 0; y < height; y++) {
    const last = rowRuns[y + 1] - 1;
    // the row below's run (its pixels moved up a row); none on the last row
    let j = y + 1 < height ? rowRuns[y + 1] : -1;
    for (let k = rowRuns[y]; k <= last; k++) {
      const start = starts[k],
        end = starts[k + 1];
      const a = labels[start];
      const opaque = !regionTransparent[a];
      // the right neighbour of the run's last pixel, when the row goes on
      const b = k < last ? labels[end] : a;
      const right = b !== a && opaque && !regionTransparent[b];
      if (j < 0) {
        if (right) notePair(pairs, seen, seedCount, denseOf, a, b);
        continue;
      }
      for (let from = start; ;) {
        const c = labels[starts[j]];
        const belowEnd = starts[j + 1] - width;
        const to = belowEnd < end ? belowEnd : end;
        const below = c !== a && opaque && !regionTransparent[c];
        if (to === end) {
          // the run's last pixel: its right neighbour, then the one below
          if (below && to - from > 1) notePair(pairs, seen, seedCount, denseOf, a, c);
          if (right) notePair(pairs, seen, seedCount, denseOf, a, b);
          if (below) notePair(pairs, seen, seedCount, denseOf, a, c);
          if (belowEnd === end) j++;
          break;
        }
        if (below) notePair(pairs, seen, seedCount, denseOf, a, c);
        j++;
        from = to;
      }
    }
  }
  return pairs;
}

interface PairList {
  edgeA: Int32Array;
  edgeB: Int32Array;
  pairCount: number;
  /** The key notePair met last: met again at once (along a boundary), the cache holds it still. */
  lastKey: number;
}

/** Appends the pair of seeds a ≠ b (as dense ids) unless the cache saw it last in its slot. */
function notePair(pairs: PairList, seen: Float64Array, seedCount: number, denseOf: Int32Array, a: number, b: number): void {
  const lo = a < b ? a : b,
    hi = a < b ? b : a;
  const key = lo * seedCount + hi;
  if (key === pairs.lastKey) return;
  pairs.lastKey = key;
  const slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b)) >>> (32 - PAIR_CACHE_BITS);
  if (seen[slot] === key) return;
  seen[slot] = key;
  const at = pairs.pairCount;
  if (at === pairs.edgeA.length) {
    const biggerA = new Int32Array(2 * at),
      biggerB = new Int32Array(2 * at);
    biggerA.set(pairs.edgeA);
    biggerB.set(pairs.edgeB);
    pairs.edgeA = biggerA;
    pairs.edgeB = biggerB;
  }
  pairs.edgeA[at] = denseOf[lo];
  pairs.edgeB[at] = denseOf[hi];
  pairs.pairCount = at + 1;
}

function mergeRegions(
  image: PreparedImage,
  labels: Int32Array,
  count: number,
  regionTransparent: Uint8Array,
  chunks: Float64Array<ArrayBuffer>[],
  settings: SegmentSettings,
  context: StageContext,
): { labels: Int32Array; regionCount: number; area: Int32Array; transparent: Uint8Array; colourSums: Float64Array } {
  const { width, height } = image;
  const plane = settings.gradientModel;
  const stride = plane ? PLANE_STRIDE : FLAT_STRIDE;
  // Seeds that still hold pixels after folding, numbered densely in seed order (so comparing ids
  // still compares seeds): the merging's arrays shrink to them, and their sums (all 16, or the
  // four the flat model reads) are copied out of the flood's chunks, which go back to the spares.
  const denseOf = new Int32Array(count);
  const liveTransparent = new Uint8Array(count);
  let live = 0;
  for (let seed = 0; seed < count; seed++) {
    if (chunks[seed >> SEED_CHUNK_BITS][(seed & (SEED_CHUNK - 1)) * PLANE_STRIDE] > 0) {
      liveTransparent[live] = regionTransparent[seed];
      denseOf[seed] = live++;
    } else {
      denseOf[seed] = -1;
    }
  }
  const stats = new Float64Array(live * stride);
  for (let seed = 0; seed < count; seed++) {
    const d = denseOf[seed] * stride;
    if (d < 0) continue;
    const from = chunks[seed >> SEED_CHUNK_BITS],
      o = (seed & (SEED_CHUNK - 1)) * PLANE_STRIDE;
    if (plane) {
      for (let k = 0; k < PLANE_STRIDE; k++) stats[d + k] = from[o + k];
    } else {
      stats[d] = from[o];
      stats[d + 1] = from[o + 6];
      stats[d + 2] = from[o + 7];
      stats[d + 3] = from[o + 8];
    }
  }
  for (const chunk of chunks) spareChunks.giveBack(chunk);

  const runs = rowRunsOf(labels, width, height);
  const { edgeA, edgeB, pairCount } = neighbourPairs(labels, width, height, count, regionTransparent, denseOf, runs);
  checkAbort(context);

  const parent = new Int32Array(live);
  for (let i = 0; i < live; i++) parent[i] = i;
  const version = new Int32Array(live);

  // Plane model: each region's own error is cached, so pricing a pair costs one plane fit.
  const ownError = new Float64Array(plane ? live : 0);
  if (plane) for (let r = 0; r < live; r++) ownError[r] = planeError(stats, r * stride);

  const stampA = new Int32Array(pairCount);
  const stampB = new Int32Array(pairCount);
  const heap = new PairHeap(pairCount);
  for (let e = 0; e < pairCount; e++) heap.pushUnordered(pairCost(stats, ownError, plane, edgeA[e], edgeB[e]), e);
  heap.heapify();

  // Every pair sits in the heap at most once and ties break on its id, so the order of pops is
  // fixed by the keys alone, whatever the heap's inner layout; a stale pair that goes back in
  // replaces the top instead of being popped and pushed (one sift instead of two).
  const maxCost = settings.mergeCost;
  const minArea = settings.minArea;
  let pops = 0;
  while (heap.length > 0) {
    if ((++pops & 0xffff) === 0) {
      checkAbort(context);
      context.progress(0.25 + 0.7 * (1 - heap.length / Math.max(1, pairCount)));
    }
    const key = heap.topKey;
    const e = heap.topId;
    const a = findRoot(parent, edgeA[e]);
    const b = findRoot(parent, edgeB[e]);
    if (a === b) {
      heap.pop();
      continue;
    }
    const na = stats[a * stride],
      nb = stats[b * stride];
    const small = na < minArea || nb < minArea;
    if (a !== edgeA[e] || b !== edgeB[e] || version[a] !== stampA[e] || version[b] !== stampB[e]) {
      // Stale: one side grew since this pair was queued; re-price and queue it again.
      const c = pairCost(stats, ownError, plane, a, b);
      if (c > maxCost && !small) {
        heap.pop();
        continue;
      }
      edgeA[e] = a;
      edgeB[e] = b;
      stampA[e] = version[a];
      stampB[e] = version[b];
      heap.replaceTop(c, e);
      continue;
    }
    heap.pop();
    if (key > maxCost && !small) continue;
    // Join the smaller into the larger; equal sizes join into the lower id (determinism).
    let keep = a,
      gone = b;
    if (nb > na || (nb === na && b < a)) {
      keep = b;
      gone = a;
    }
    parent[gone] = keep;
    const ok = keep * stride,
      og = gone * stride;
    for (let k = 0; k < stride; k++) stats[ok + k] += stats[og + k];
    if (plane) ownError[keep] = planeError(stats, ok);
    version[keep]++;
  }

  // Compact labels in scan order. A region's area is its root's pixel count (whole numbers, exact).
  const compact = new Int32Array(live).fill(-1);
  let regionCount = 0;
  const areaOf = new Int32Array(live);
  const clearOf = new Uint8Array(live);
  // Σr, Σg, Σb per region (whole numbers, exact): the anti-aliasing stage's means without a pass
  const colourSums = new Float64Array(3 * live);
  const colourAt = plane ? 6 : 1;
  // each seed's final label, found once per seed instead of one union-find walk per pixel
  const finalOf = new Int32Array(count).fill(-1);
  // one look-up per run of a seed (the runs neighbourPairs read); a long run is written with
  // fill() (a memset), a short one in the loop
  const { starts, rowRuns } = runs;
  for (let k = 0, runCount = rowRuns[height]; k < runCount; k++) {
    const p = starts[k],
      end = starts[k + 1];
    const seed = labels[p];
    let l = finalOf[seed];
    if (l === -1) {
      const root = findRoot(parent, denseOf[seed]);
      l = compact[root];
      if (l === -1) {
        l = compact[root] = regionCount++;
        clearOf[l] = liveTransparent[root];
        areaOf[l] = stats[root * stride];
        colourSums[3 * l] = stats[root * stride + colourAt];
        colourSums[3 * l + 1] = stats[root * stride + colourAt + 1];
        colourSums[3 * l + 2] = stats[root * stride + colourAt + 2];
      }
      finalOf[seed] = l;
    }
    if (end - p > 32) labels.fill(l, p, end);
    else for (let q = p; q < end; q++) labels[q] = l;
  }
  return {
    labels,
    regionCount,
    area: areaOf.slice(0, regionCount),
    transparent: clearOf.slice(0, regionCount),
    colourSums: colourSums.subarray(0, 3 * regionCount),
  };
}

/** What joining regions a and b adds to the summed squared error of their models. */
function pairCost(stats: Float64Array, ownError: Float64Array, plane: boolean, a: number, b: number): number {
  if (!plane) {
    const oa = a * FLAT_STRIDE,
      ob = b * FLAT_STRIDE;
    const na = stats[oa],
      nb = stats[ob];
    const dr = stats[oa + 1] / na - stats[ob + 1] / nb;
    const dg = stats[oa + 2] / na - stats[ob + 2] / nb;
    const db = stats[oa + 3] / na - stats[ob + 3] / nb;
    return ((na * nb) / (na + nb)) * (dr * dr + dg * dg + db * db);
  }
  const grown = joinedPlaneError(stats, a * PLANE_STRIDE, stats, b * PLANE_STRIDE) - ownError[a] - ownError[b];
  return grown > 0 ? grown : 0;
}

/**
 * Summed squared error of the best colour plane through the pixels of two regions together, from
 * the sums of their moments (taken here, not written anywhere). One region alone is planeError.
 */
function joinedPlaneError(s: Float64Array, oa: number, t: Float64Array, ob: number): number {
  const n = s[oa] + t[ob];
  if (n <= 0) return 0;
  const s1 = s[oa + 1] + t[ob + 1],
    s2 = s[oa + 2] + t[ob + 2];
  const mx = s1 / n,
    my = s2 / n;
  const cxx = s[oa + 3] + t[ob + 3] - s1 * mx + PLANE_RIDGE * n;
  const cxy = s[oa + 4] + t[ob + 4] - s1 * my;
  const cyy = s[oa + 5] + t[ob + 5] - s2 * my + PLANE_RIDGE * n;
  const det = cxx * cyy - cxy * cxy;
  let total = s[oa + 15] + t[ob + 15];
  for (let c = 0; c < 3; c++) {
    const sc = s[oa + 6 + c] + t[ob + 6 + c];
    const scx = s[oa + 9 + c] + t[ob + 9 + c] - sc * mx;
    const scy = s[oa + 12 + c] + t[ob + 12 + c] - sc * my;
    total -= (sc * sc) / n;
    if (det > 1e-9) total -= (scx * scx * cyy - 2 * scx * scy * cxy + scy * scy * cxx) / det;
  }
  return total;
}

/** No pixels: joined with a region, the region's own moments. */
const NO_MOMENTS = new Float64Array(PLANE_STRIDE);

/** Summed squared error of the best colour plane through a region's pixels, from its moment sums. */
function planeError(s: Float64Array, o: number): number {
  return joinedPlaneError(s, o, NO_MOMENTS, 0);
}
