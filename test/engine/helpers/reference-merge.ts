/**
 * The segmentation's region merging in TypeScript as engine/segment/index.ts ran it before it went
 * to WebAssembly (engine/wasm/assembly/merge.ts): the reference the kernel is held to, number for
 * number. The seeds' dense numbering, the region pairs noted run by run, the lazy heap of pairs
 * (./pair-heap.ts) popped cheapest first with union-find joins, and the compaction of the labels
 * in scan order, as they were; only the flood's chunks go back to their pool in the engine.
 */
import { PairHeap } from './pair-heap.js';
import { findRoot } from '../../../engine/union-find.js';
import { rowRunsOf, type RowRuns } from '../../../engine/segment/renumber.js';
import type { MergeInput } from '../../../engine/wasm/merge.js';

const FLAT_STRIDE = 4; // n, Σr, Σg, Σb
const PLANE_STRIDE = 16; // n, Σx, Σy, Σxx, Σxy, Σyy, Σr, Σg, Σb, Σrx, Σgx, Σbx, Σry, Σgy, Σby, Σ(r²+g²+b²)
const PAIR_CACHE_BITS = 14;
const PAIR_CACHE_SIZE = 1 << PAIR_CACHE_BITS;
/** Ridge on the plane's slope (per pixel) so thin or tiny regions fall back towards a flat fit. */
const PLANE_RIDGE = 0.25;

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
 * pixel-by-pixel scan notes: a pair noted again at once changes nothing.
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

export function referenceMerge(input: MergeInput): {
  labels: Int32Array;
  regionCount: number;
  area: Int32Array;
  transparent: Uint8Array;
  colourSums: Float64Array;
} {
  const { width, height, labels, seedCount: count, seedTransparent: regionTransparent, chunks, chunkSeeds, plane } = input;
  const stride = plane ? PLANE_STRIDE : FLAT_STRIDE;
  const chunkBits = Math.log2(chunkSeeds);
  // Seeds that still hold pixels after folding, numbered densely in seed order (so comparing ids
  // still compares seeds): the merging's arrays shrink to them, and their sums (all 16, or the
  // four the flat model reads) are copied out of the flood's chunks.
  const denseOf = new Int32Array(count);
  const liveTransparent = new Uint8Array(count);
  let live = 0;
  for (let seed = 0; seed < count; seed++) {
    if (chunks[seed >> chunkBits][(seed & (chunkSeeds - 1)) * PLANE_STRIDE] > 0) {
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
    const from = chunks[seed >> chunkBits],
      o = (seed & (chunkSeeds - 1)) * PLANE_STRIDE;
    if (plane) {
      for (let k = 0; k < PLANE_STRIDE; k++) stats[d + k] = from[o + k];
    } else {
      stats[d] = from[o];
      stats[d + 1] = from[o + 6];
      stats[d + 2] = from[o + 7];
      stats[d + 3] = from[o + 8];
    }
  }

  const runs = rowRunsOf(labels, width, height);
  const { edgeA, edgeB, pairCount } = neighbourPairs(labels, width, height, count, regionTransparent, denseOf, runs);

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
  const { maxCost, minArea } = input;
  while (heap.length > 0) {
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
export function pairCost(stats: Float64Array, ownError: Float64Array, plane: boolean, a: number, b: number): number {
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
export function planeError(s: Float64Array, o: number): number {
  return joinedPlaneError(s, o, NO_MOMENTS, 0);
}
