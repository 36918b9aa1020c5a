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
import { absorbAntialiasBands } from './antialias.js';
import { joinGradientBands } from './gradient-bands.js';
import type { RegionLabels } from './renumber.js';
import { floodKernel } from '../wasm/flood.js';
import { mergeInKernel } from '../wasm/merge.js';

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
  const { regions: merged, runs } = mergeRegions(image, seeds.labels, seeds.count, seeds.transparent, seeds.chunks, settings, context);
  checkAbort(context);
  return settings.absorbBands ? absorbAntialiasBands(image, merged, runs) : merged;
}

/**
 * Scanline fill. A region is the 8-connected component of unlabelled pixels near the seed's colour
 * that holds the seed, which does not depend on the visiting order, so any order gives the labels
 * a pixel-by-pixel fill gives. The stack holds row segments that are already labelled: a popped
 * segment grows left and right along its row, then the rows above and below are scanned one
 * pixel past both ends (the diagonals) and every stretch of accepted pixels found there is
 * labelled at once and pushed. Each pixel's colour is then compared about once, not once per
 * neighbour. A segment also remembers the run it was found from (its parent, one row over): that
 * run is labelled already, and the pixel each side of it stopped the parent's growth, so the scan
 * back into the parent's row skips the run and those two pixels instead of re-reading them. A
 * segment grows along its own row only past an end where the scan that found it stopped at its
 * range. A pixel of the same colour as the one before it along the row passes as that one did, and
 * a run of one colour adds its sums once (clip art is mostly such runs); a row's stretches add
 * theirs to the seed's once.
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
 * The merging (step 2) runs in WebAssembly (engine/wasm/assembly/merge.ts): the seeds still
 * holding pixels numbered densely, their region pairs noted from the labels' runs, the lazy heap
 * popped cheapest first, and the labels compacted in scan order, each step the TypeScript's
 * (test/engine/helpers/reference-merge.ts) in the same order, so the labels and every region's
 * sums are that code's, bit for bit. The flood's chunks are copied into the kernel and go back to
 * the spares here.
 */
function mergeRegions(
  image: PreparedImage,
  labels: Int32Array,
  count: number,
  regionTransparent: Uint8Array,
  chunks: Float64Array<ArrayBuffer>[],
  settings: SegmentSettings,
  context: StageContext,
): ReturnType<typeof mergeInKernel> {
  const merged = mergeInKernel(
    {
      width: image.width,
      height: image.height,
      labels,
      seedCount: count,
      seedTransparent: regionTransparent,
      chunks,
      chunkSeeds: SEED_CHUNK,
      plane: settings.gradientModel,
      maxCost: settings.mergeCost,
      minArea: settings.minArea,
    },
    context,
  );
  for (const chunk of chunks) spareChunks.giveBack(chunk);
  return merged;
}
