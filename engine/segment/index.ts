/**
 * Segment stage: colour regions that partition the image exactly (one label per pixel).
 *
 * 1. Seeds: a flood fill joins 4-neighbours whose colour is within `seedTolerance` of the seed pixel
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
 * The heap is lazy: a popped pair whose regions changed since it was queued is re-priced and queued
 * again instead of keeping per-region adjacency lists, so memory stays a few typed arrays.
 */
import type { SegmentSettings } from '../settings.js';
import { checkAbort, type StageContext } from '../stage.js';
import type { PreparedImage } from '../prepare/index.js';
import { IdHeap } from './heap.js';

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
}

const FLAT_STRIDE = 4; // n, Σr, Σg, Σb
const PLANE_STRIDE = 16; // n, Σx, Σy, Σxx, Σxy, Σyy, Σr, Σg, Σb, Σrx, Σgx, Σbx, Σry, Σgy, Σby, Σ(r²+g²+b²)
/** Ridge on the plane's slope (per pixel) so thin or tiny regions fall back towards a flat fit. */
const PLANE_RIDGE = 0.25;

export function segmentImage(image: PreparedImage, settings: SegmentSettings, context: StageContext): Segmentation {
  const { width, height } = image;
  const seeds = floodSeeds(image, settings.seedTolerance, context);
  context.progress(0.25);
  const merged = mergeRegions(image, seeds.labels, seeds.count, seeds.transparent, settings, context);
  context.progress(1);
  return { width, height, ...merged };
}

function floodSeeds(image: PreparedImage, tolerance: number, context: StageContext) {
  const { width, height, rgb, transparent } = image;
  const n = width * height;
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const tol2 = tolerance * tolerance;
  const regionTransparent: number[] = [];
  let count = 0;
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1) continue;
    if ((start & 0xffff) === 0) checkAbort(context);
    const label = count++;
    const clear = transparent[start];
    regionTransparent.push(clear);
    const r0 = rgb[start * 3], g0 = rgb[start * 3 + 1], b0 = rgb[start * 3 + 2];
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const p = stack[--top];
      const x = p % width;
      // Four neighbours, unrolled: left, right, up, down.
      for (let k = 0; k < 4; k++) {
        let q: number;
        if (k === 0) { if (x === 0) continue; q = p - 1; }
        else if (k === 1) { if (x === width - 1) continue; q = p + 1; }
        else if (k === 2) { if (p < width) continue; q = p - width; }
        else { q = p + width; if (q >= n) continue; }
        if (labels[q] !== -1 || transparent[q] !== clear) continue;
        if (!clear) {
          const dr = rgb[q * 3] - r0, dg = rgb[q * 3 + 1] - g0, db = rgb[q * 3 + 2] - b0;
          if (dr * dr + dg * dg + db * db > tol2) continue;
        }
        labels[q] = label;
        stack[top++] = q;
      }
    }
  }
  return { labels, count, transparent: Uint8Array.from(regionTransparent) };
}

function mergeRegions(
  image: PreparedImage,
  labels: Int32Array,
  count: number,
  regionTransparent: Uint8Array,
  settings: SegmentSettings,
  context: StageContext,
): { labels: Int32Array; regionCount: number; area: Int32Array; transparent: Uint8Array } {
  const { width, height, rgb } = image;
  const n = width * height;
  const plane = settings.gradientModel;
  const stride = plane ? PLANE_STRIDE : FLAT_STRIDE;
  const stats = new Float64Array(count * stride);
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      const o = labels[p] * stride;
      const r = rgb[p * 3], g = rgb[p * 3 + 1], b = rgb[p * 3 + 2];
      if (plane) {
        stats[o] += 1; stats[o + 1] += x; stats[o + 2] += y;
        stats[o + 3] += x * x; stats[o + 4] += x * y; stats[o + 5] += y * y;
        stats[o + 6] += r; stats[o + 7] += g; stats[o + 8] += b;
        stats[o + 9] += r * x; stats[o + 10] += g * x; stats[o + 11] += b * x;
        stats[o + 12] += r * y; stats[o + 13] += g * y; stats[o + 14] += b * y;
        stats[o + 15] += r * r + g * g + b * b;
      } else {
        stats[o] += 1; stats[o + 1] += r; stats[o + 2] += g; stats[o + 3] += b;
      }
    }
  }

  // Region pairs from 4-neighbour pixel pairs; consecutive repeats are skipped while scanning, the
  // remaining duplicates are harmless (a popped pair of already-joined regions is dropped).
  let pairCount = 0;
  let edgeA = new Int32Array(0);
  let edgeB = new Int32Array(0);
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) {
      edgeA = new Int32Array(pairCount);
      edgeB = new Int32Array(pairCount);
      pairCount = 0;
    }
    for (let y = 0, p = 0; y < height; y++) {
      let lastRight = -1, lastDown = -1;
      for (let x = 0; x < width; x++, p++) {
        const a = labels[p];
        if (x + 1 < width) {
          const b = labels[p + 1];
          if (a !== b && !regionTransparent[a] && !regionTransparent[b]) {
            const key = a < b ? a * count + b : b * count + a;
            if (key !== lastRight) {
              lastRight = key;
              if (pass === 1) { edgeA[pairCount] = Math.min(a, b); edgeB[pairCount] = Math.max(a, b); }
              pairCount++;
            }
          }
        }
        if (y + 1 < height) {
          const b = labels[p + width];
          if (a !== b && !regionTransparent[a] && !regionTransparent[b]) {
            const key = a < b ? a * count + b : b * count + a;
            if (key !== lastDown) {
              lastDown = key;
              if (pass === 1) { edgeA[pairCount] = Math.min(a, b); edgeB[pairCount] = Math.max(a, b); }
              pairCount++;
            }
          }
        }
      }
    }
  }
  checkAbort(context);

  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  const version = new Int32Array(count);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };

  const scratch = new Float64Array(stride);
  const sse = plane ? planeError : () => 0;
  const cost = (a: number, b: number): number => {
    const oa = a * stride, ob = b * stride;
    if (!plane) {
      const na = stats[oa], nb = stats[ob];
      const dr = stats[oa + 1] / na - stats[ob + 1] / nb;
      const dg = stats[oa + 2] / na - stats[ob + 2] / nb;
      const db = stats[oa + 3] / na - stats[ob + 3] / nb;
      return ((na * nb) / (na + nb)) * (dr * dr + dg * dg + db * db);
    }
    for (let k = 0; k < stride; k++) scratch[k] = stats[oa + k] + stats[ob + k];
    return Math.max(0, sse(scratch, 0) - sse(stats, oa) - sse(stats, ob));
  };

  const keys = new Float64Array(pairCount);
  const stampA = new Int32Array(pairCount);
  const stampB = new Int32Array(pairCount);
  const heap = new IdHeap(pairCount, keys);
  for (let e = 0; e < pairCount; e++) {
    keys[e] = cost(edgeA[e], edgeB[e]);
    heap.pushUnordered(e);
  }
  heap.heapify();

  const maxCost = settings.mergeCost;
  const minArea = settings.minArea;
  let pops = 0;
  while (heap.length > 0) {
    if ((++pops & 0xffff) === 0) {
      checkAbort(context);
      context.progress(0.25 + 0.7 * (1 - heap.length / Math.max(1, pairCount)));
    }
    const e = heap.pop();
    const a = find(edgeA[e]), b = find(edgeB[e]);
    if (a === b) continue;
    const small = Math.min(stats[a * stride], stats[b * stride]) < minArea;
    if (a !== edgeA[e] || b !== edgeB[e] || version[a] !== stampA[e] || version[b] !== stampB[e]) {
      const c = cost(a, b);
      if (c > maxCost && !small) continue;
      edgeA[e] = a; edgeB[e] = b; stampA[e] = version[a]; stampB[e] = version[b];
      keys[e] = c;
      heap.push(e);
      continue;
    }
    if (keys[e] > maxCost && !small) continue;
    // Join the smaller into the larger; equal sizes join into the lower id (determinism).
    const [keep, gone] = stats[a * stride] > stats[b * stride] || (stats[a * stride] === stats[b * stride] && a < b) ? [a, b] : [b, a];
    parent[gone] = keep;
    const ok = keep * stride, og = gone * stride;
    for (let k = 0; k < stride; k++) stats[ok + k] += stats[og + k];
    version[keep]++;
  }

  // Compact labels in scan order.
  const compact = new Int32Array(count).fill(-1);
  let regionCount = 0;
  const areaList: number[] = [];
  const clearList: number[] = [];
  for (let p = 0; p < n; p++) {
    const root = find(labels[p]);
    let l = compact[root];
    if (l === -1) {
      l = compact[root] = regionCount++;
      areaList.push(0);
      clearList.push(regionTransparent[root]);
    }
    areaList[l]++;
    labels[p] = l;
  }
  return { labels, regionCount, area: Int32Array.from(areaList), transparent: Uint8Array.from(clearList) };
}

/** Summed squared error of the best colour plane through a region's pixels, from its moment sums. */
function planeError(s: Float64Array, o: number): number {
  const n = s[o];
  if (n <= 0) return 0;
  const mx = s[o + 1] / n, my = s[o + 2] / n;
  const cxx = s[o + 3] - s[o + 1] * mx + PLANE_RIDGE * n;
  const cxy = s[o + 4] - s[o + 1] * my;
  const cyy = s[o + 5] - s[o + 2] * my + PLANE_RIDGE * n;
  const det = cxx * cyy - cxy * cxy;
  let total = s[o + 15];
  for (let c = 0; c < 3; c++) {
    const sc = s[o + 6 + c];
    const scx = s[o + 9 + c] - sc * mx;
    const scy = s[o + 12 + c] - sc * my;
    total -= (sc * sc) / n;
    if (det > 1e-9) total -= (scx * scx * cyy - 2 * scx * scy * cxy + scy * scy * cxx) / det;
  }
  return total;
}
