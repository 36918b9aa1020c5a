/**
 * The segmentation's region merging (engine/segment/index.ts mergeRegions) in AssemblyScript,
 * compiled to WebAssembly by `npm run build:wasm` (engine/wasm/merge-module.ts holds the bytes):
 * the live seeds numbered densely, the region pairs noted run by run, the lazy heap of pairs
 * popped cheapest first with union-find joins, and the labels compacted in scan order. It was the
 * segmentation's largest single-threaded pass after the flood; the TypeScript it replaced is
 * test/engine/helpers/reference-merge.ts, and every step here is that code's, in the same order:
 * the costs are the same doubles (the same operations in the same order, which binaryen keeps),
 * the heap sifts the same way and breaks ties on the pair's id, so the pops, the joins and the
 * labels are the ones the TypeScript made, bit for bit.
 *
 * The caller (engine/wasm/merge.ts) lays out the fixed part of the memory (the labels, the seeds'
 * transparency, their dense ids and sums); what has no size until it is made (the runs, the pairs,
 * then the heap and the compaction's tables) follows it, the memory grown as it goes.
 */

import { f64At, i32At, setF64, setI32 } from './lib/memory';

/** Numbers per seed in the flood's chunks: n, Σx, Σy, Σxx, Σxy, Σyy, Σr, Σg, Σb, Σrx, Σgx, Σbx, Σry, Σgy, Σby, Σ(r²+g²+b²). */
const PLANE_STRIDE: i32 = 16;
/** The flat model's numbers: n, Σr, Σg, Σb. */
const FLAT_STRIDE: i32 = 4;
const PAIR_CACHE_BITS: i32 = 14;
const PAIR_CACHE_SIZE: i32 = 1 << PAIR_CACHE_BITS;
/** Ridge on the plane's slope (per pixel), as engine/segment/index.ts. */
const PLANE_RIDGE: f64 = 0.25;
/** A pair's record: its two regions (dense ids) and their versions when it was priced. */
const PAIR_BYTES: usize = 16;

let width: i32 = 0;
let height: i32 = 0;
let seedCount: i32 = 0;
let plane: bool = false;
let stride: i32 = 0;
let labels: usize = 0;
let seedClear: usize = 0;
let denseOf: usize = 0;
let liveClear: usize = 0;
let stats: usize = 0;
/** PLANE_STRIDE zeros: planeError is the joined error with them, read from memory so no addition of 0 is folded away. */
let zeros: usize = 0;
let staging: usize = 0;
let live: i32 = 0;

/** Where the next table goes: everything past the fixed layout is placed here in turn. */
let tail: usize = 0;
let rowRuns: usize = 0;
let runStarts: usize = 0;
let seen: usize = 0;
let lastKey: i64 = -1;
let pairs: usize = 0;
let pairCount: i32 = 0;
let pairRoom: i32 = 0;
let parent: usize = 0;
let version: usize = 0;
let ownError: usize = 0;
let heapKeys: usize = 0;
let heapIds: usize = 0;
let heapSize: i32 = 0;
let areaOut: usize = 0;
let clearOut: usize = 0;
let sumsOut: usize = 0;

/** Grows the memory by whole pages to hold `end` bytes at least. */
function ensure(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) return;
  if (memory.grow(<i32>((end - have + 0xffff) >> 16)) < 0) unreachable();
}

/** `bytes` bytes at the tail (8-byte aligned), the memory grown to hold them. */
function take(bytes: usize): usize {
  const at = tail;
  tail = (tail + bytes + 7) & ~(<usize>7);
  ensure(tail);
  return at;
}

/**
 * One image's merging: `labels` holds each pixel's seed, `seedClear` each seed's transparency;
 * `denseOf`, `liveClear` and `stats` have room for every seed; `stagingAt` is where addSeeds finds
 * a chunk of the flood's sums, and `tailAt` where the tables made later start (past the staging).
 */
export function begin(
  imageWidth: i32,
  imageHeight: i32,
  seeds: i32,
  planeModel: bool,
  labelsAt: usize,
  seedClearAt: usize,
  denseOfAt: usize,
  liveClearAt: usize,
  statsAt: usize,
  zerosAt: usize,
  stagingAt: usize,
  tailAt: usize,
): void {
  width = imageWidth;
  height = imageHeight;
  seedCount = seeds;
  plane = planeModel;
  stride = planeModel ? PLANE_STRIDE : FLAT_STRIDE;
  labels = labelsAt;
  seedClear = seedClearAt;
  denseOf = denseOfAt;
  liveClear = liveClearAt;
  stats = statsAt;
  zeros = zerosAt;
  memory.fill(zeros, 0, <usize>PLANE_STRIDE << 3);
  staging = stagingAt;
  tail = tailAt;
  live = 0;
}

/**
 * Seeds firstSeed.. firstSeed + seeds - 1, whose sums (PLANE_STRIDE each) lie at the staging: each
 * that still holds pixels after folding gets the next dense id and its sums (all 16, or the four
 * the flat model reads); an emptied one gets -1. Chunks come in seed order, so the ids are those
 * of the TypeScript's pass over all the seeds.
 */
export function addSeeds(firstSeed: i32, seeds: i32): void {
  for (let k = 0; k < seeds; k++) {
    const seed = firstSeed + k;
    const from = staging + (<usize>(k * PLANE_STRIDE) << 3);
    if (load<f64>(from) > 0) {
      store<u8>(liveClear + <usize>live, load<u8>(seedClear + <usize>seed));
      setI32(denseOf, seed, live);
      const to = stats + (<usize>(live * stride) << 3);
      if (plane) {
        memory.copy(to, from, <usize>PLANE_STRIDE << 3);
      } else {
        store<f64>(to, load<f64>(from));
        store<f64>(to, load<f64>(from, 48), 8);
        store<f64>(to, load<f64>(from, 56), 16);
        store<f64>(to, load<f64>(from, 64), 24);
      }
      live++;
    } else {
      setI32(denseOf, seed, -1);
    }
  }
}

/** The seeds that hold pixels (after every addSeeds). */
export function liveSeeds(): i32 {
  return live;
}

/**
 * The labels' runs along each row (engine/segment/renumber.ts rowRunsOf), then the region pairs
 * from them (engine/segment/index.ts neighbourPairs, line for line): pairs are noted in the order
 * of a pixel scan, each pixel against its right neighbour and then the one below, one note per
 * overlap of two rows' runs; that order numbers the pairs, which breaks the heap's ties. Returns
 * how many pairs were noted.
 */
export function notePairs(): i32 {
  rowRuns = take(<usize>(height + 1) << 2);
  // the starts grow at the tail as the rows are read (clip art has few runs a row)
  runStarts = tail;
  let k = 0;
  for (let y = 0, row = 0; y < height; y++, row += width) {
    setI32(rowRuns, y, k);
    ensure(runStarts + (<usize>(k + width + 1) << 2));
    let l = i32At(labels, row);
    setI32(runStarts, k++, row);
    for (let p = row + 1, end = row + width; p < end; p++) {
      const next = i32At(labels, p);
      if (next !== l) {
        setI32(runStarts, k++, p);
        l = next;
      }
    }
  }
  setI32(rowRuns, height, k);
  setI32(runStarts, k, width * height);
  tail = runStarts;
  take(<usize>(k + 1) << 2);

  seen = take(<usize>PAIR_CACHE_SIZE << 3);
  memory.fill(seen, 0xff, <usize>PAIR_CACHE_SIZE << 3);
  lastKey = -1;
  // the pairs grow at the tail too
  pairs = tail;
  pairCount = 0;
  pairRoom = 0;
  for (let y = 0; y < height; y++) {
    const last = i32At(rowRuns, y + 1) - 1;
    // the row below's run (its pixels moved up a row); none on the last row
    let j = y + 1 < height ? i32At(rowRuns, y + 1) : -1;
    for (let k = i32At(rowRuns, y); k <= last; k++) {
      const start = i32At(runStarts, k),
        end = i32At(runStarts, k + 1);
      const a = i32At(labels, start);
      const opaque = load<u8>(seedClear + <usize>a) === 0;
      // the right neighbour of the run's last pixel, when the row goes on
      const b = k < last ? i32At(labels, end) : a;
      const right = b !== a && opaque && load<u8>(seedClear + <usize>b) === 0;
      if (j < 0) {
        if (right) notePair(a, b);
        continue;
      }
      for (let from = start; ; ) {
        const c = i32At(labels, i32At(runStarts, j));
        const belowEnd = i32At(runStarts, j + 1) - width;
        const to = belowEnd < end ? belowEnd : end;
        const below = c !== a && opaque && load<u8>(seedClear + <usize>c) === 0;
        if (to === end) {
          // the run's last pixel: its right neighbour, then the one below
          if (below && to - from > 1) notePair(a, c);
          if (right) notePair(a, b);
          if (below) notePair(a, c);
          if (belowEnd === end) j++;
          break;
        }
        if (below) notePair(a, c);
        j++;
        from = to;
      }
    }
  }
  tail = pairs;
  take(<usize>pairCount * PAIR_BYTES);
  return pairCount;
}

/** Appends the pair of seeds a ≠ b (as dense ids) unless the cache saw it last in its slot. */
function notePair(a: i32, b: i32): void {
  const lo = a < b ? a : b,
    hi = a < b ? b : a;
  const key = <i64>lo * <i64>seedCount + <i64>hi;
  if (key === lastKey) return;
  lastKey = key;
  const slot = (<u32>lo * 0x9e3779b1 ^ <u32>hi * 0x85ebca6b) >>> (32 - PAIR_CACHE_BITS);
  const at = seen + (<usize>slot << 3);
  if (load<i64>(at) === key) return;
  store<i64>(at, key);
  if (pairCount === pairRoom) {
    pairRoom = pairRoom === 0 ? 1024 : 2 * pairRoom;
    ensure(pairs + <usize>pairRoom * PAIR_BYTES);
  }
  const record = pairs + <usize>pairCount * PAIR_BYTES;
  store<i32>(record, i32At(denseOf, lo));
  store<i32>(record, i32At(denseOf, hi), 4);
  pairCount++;
}

/**
 * The union-find forest, the regions' own errors (plane model) and the heap of every pair priced,
 * heapified. The pairs' versions start at 0, as the regions' do.
 */
export function buildHeap(): void {
  parent = take(<usize>live << 2);
  version = take(<usize>live << 2);
  for (let i = 0; i < live; i++) {
    setI32(parent, i, i);
    setI32(version, i, 0);
  }
  ownError = take(plane ? <usize>live << 3 : 0);
  if (plane) for (let r = 0; r < live; r++) setF64(ownError, r, planeError(r));
  const capacity = <usize>(pairCount > 1 ? pairCount : 1);
  heapKeys = take(capacity << 3);
  heapIds = take(capacity << 2);
  heapSize = 0;
  for (let e = 0; e < pairCount; e++) {
    const record = pairs + <usize>e * PAIR_BYTES;
    store<i32>(record, 0, 8);
    store<i32>(record, 0, 12);
    setF64(heapKeys, heapSize, pairCost(load<i32>(record), load<i32>(record, 4)));
    setI32(heapIds, heapSize++, e);
  }
  for (let i = (heapSize >> 1) - 1; i >= 0; i--) siftDown(i, f64At(heapKeys, i), i32At(heapIds, i));
}

/** The root of r's set, halving the path on the way (engine/union-find.ts findRoot). */
@inline
function findRoot(r: i32): i32 {
  let up = i32At(parent, r);
  while (up !== r) {
    const grand = i32At(parent, up);
    setI32(parent, r, grand);
    r = grand;
    up = i32At(parent, r);
  }
  return r;
}

/**
 * Pops pairs cheapest first (engine/segment/index.ts mergeRegions' loop, line for line) until the
 * heap is empty or `steps` pops or re-queues are done; returns the pairs left in the heap. A stale
 * pair (one side grew since it was priced) is re-priced and replaces the top; a pair too dear is
 * dropped unless a side is under minArea; a join hangs the smaller region on the larger (equal
 * sizes on the lower id) and adds its sums.
 */
export function mergeSteps(maxCost: f64, minArea: f64, steps: i32): i32 {
  for (let step = 0; step < steps && heapSize > 0; step++) {
    const key = load<f64>(heapKeys);
    const e = load<i32>(heapIds);
    const record = pairs + <usize>e * PAIR_BYTES;
    const edgeA = load<i32>(record),
      edgeB = load<i32>(record, 4);
    const a = findRoot(edgeA);
    const b = findRoot(edgeB);
    if (a === b) {
      pop();
      continue;
    }
    const na = f64At(stats, a * stride),
      nb = f64At(stats, b * stride);
    const small = na < minArea || nb < minArea;
    const va = i32At(version, a),
      vb = i32At(version, b);
    if (a !== edgeA || b !== edgeB || va !== load<i32>(record, 8) || vb !== load<i32>(record, 12)) {
      const c = pairCost(a, b);
      if (c > maxCost && !small) {
        pop();
        continue;
      }
      store<i32>(record, a);
      store<i32>(record, b, 4);
      store<i32>(record, va, 8);
      store<i32>(record, vb, 12);
      siftDown(0, c, e);
      continue;
    }
    pop();
    if (key > maxCost && !small) continue;
    let keep = a,
      gone = b;
    if (nb > na || (nb === na && b < a)) {
      keep = b;
      gone = a;
    }
    setI32(parent, gone, keep);
    const ok = stats + (<usize>(keep * stride) << 3),
      og = stats + (<usize>(gone * stride) << 3);
    for (let k: usize = 0; k < <usize>stride << 3; k += 8) store<f64>(ok + k, load<f64>(ok + k) + load<f64>(og + k));
    if (plane) setF64(ownError, keep, planeError(keep));
    setI32(version, keep, i32At(version, keep) + 1);
  }
  return heapSize;
}

function pop(): void {
  const last = --heapSize;
  if (last > 0) siftDown(0, f64At(heapKeys, last), i32At(heapIds, last));
}

/** engine/segment/heap.ts siftDown: the smaller child, ties on the smaller id. */
function siftDown(start: i32, key: f64, id: i32): void {
  const size = heapSize;
  let i = start;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    let ck = f64At(heapKeys, c);
    if (c + 1 < size) {
      const rk = f64At(heapKeys, c + 1);
      if (rk < ck || (rk === ck && i32At(heapIds, c + 1) < i32At(heapIds, c))) {
        c++;
        ck = rk;
      }
    }
    if (key < ck || (key === ck && id < i32At(heapIds, c))) break;
    setF64(heapKeys, i, ck);
    setI32(heapIds, i, i32At(heapIds, c));
    i = c;
  }
  setF64(heapKeys, i, key);
  setI32(heapIds, i, id);
}

/** What joining regions a and b adds to the summed squared error of their models. */
function pairCost(a: i32, b: i32): f64 {
  if (!plane) {
    const oa = stats + (<usize>(a * FLAT_STRIDE) << 3),
      ob = stats + (<usize>(b * FLAT_STRIDE) << 3);
    const na = load<f64>(oa),
      nb = load<f64>(ob);
    const dr = load<f64>(oa, 8) / na - load<f64>(ob, 8) / nb;
    const dg = load<f64>(oa, 16) / na - load<f64>(ob, 16) / nb;
    const db = load<f64>(oa, 24) / na - load<f64>(ob, 24) / nb;
    return ((na * nb) / (na + nb)) * (dr * dr + dg * dg + db * db);
  }
  const grown =
    joinedPlaneError(stats + (<usize>(a * PLANE_STRIDE) << 3), stats + (<usize>(b * PLANE_STRIDE) << 3)) -
    f64At(ownError, a) -
    f64At(ownError, b);
  return grown > 0 ? grown : 0;
}

function planeError(r: i32): f64 {
  return joinedPlaneError(stats + (<usize>(r * PLANE_STRIDE) << 3), zeros);
}

/** engine/segment/index.ts joinedPlaneError: the same operations in the same order. */
function joinedPlaneError(s: usize, t: usize): f64 {
  const n = load<f64>(s) + load<f64>(t);
  if (n <= 0) return 0;
  const s1 = load<f64>(s, 8) + load<f64>(t, 8),
    s2 = load<f64>(s, 16) + load<f64>(t, 16);
  const mx = s1 / n,
    my = s2 / n;
  const cxx = load<f64>(s, 24) + load<f64>(t, 24) - s1 * mx + PLANE_RIDGE * n;
  const cxy = load<f64>(s, 32) + load<f64>(t, 32) - s1 * my;
  const cyy = load<f64>(s, 40) + load<f64>(t, 40) - s2 * my + PLANE_RIDGE * n;
  const det = cxx * cyy - cxy * cxy;
  let total = load<f64>(s, 120) + load<f64>(t, 120);
  for (let c: usize = 0; c < 24; c += 8) {
    const sc = load<f64>(s + c, 48) + load<f64>(t + c, 48);
    const scx = load<f64>(s + c, 72) + load<f64>(t + c, 72) - sc * mx;
    const scy = load<f64>(s + c, 96) + load<f64>(t + c, 96) - sc * my;
    total -= (sc * sc) / n;
    if (det > 1e-9) total -= (scx * scx * cyy - 2 * scx * scy * cxy + scy * scy * cxx) / det;
  }
  return total;
}

/**
 * The labels compacted in scan order, run by run (one look-up per run, one union-find walk per
 * seed): each region's area, transparency and Σr, Σg, Σb are its root's (whole numbers, exact).
 * Returns the region count; the tables are at areaAt, clearAt and colourSumsAt.
 */
export function compact(): i32 {
  const compactOf = take(<usize>live << 2);
  memory.fill(compactOf, 0xff, <usize>live << 2);
  areaOut = take(<usize>live << 2);
  clearOut = take(<usize>live);
  sumsOut = take(<usize>live * 24);
  const finalOf = take(<usize>seedCount << 2);
  memory.fill(finalOf, 0xff, <usize>seedCount << 2);
  const colourAt = plane ? 6 : 1;
  let regionCount = 0;
  // The seeds' runs coarsen into the regions' (rowRunsOf of the final labels), written over them
  // in place: a run's start is kept where a row begins or its region differs from the run before.
  let kept = 0,
    previous = -1;
  for (let k = 0, runCount = i32At(rowRuns, height); k < runCount; k++) {
    const p = i32At(runStarts, k),
      end = i32At(runStarts, k + 1);
    const seed = i32At(labels, p);
    let l = i32At(finalOf, seed);
    if (l === -1) {
      const root = findRoot(i32At(denseOf, seed));
      l = i32At(compactOf, root);
      if (l === -1) {
        l = regionCount++;
        setI32(compactOf, root, l);
        store<u8>(clearOut + <usize>l, load<u8>(liveClear + <usize>root));
        const from = stats + (<usize>(root * stride) << 3);
        setI32(areaOut, l, <i32>load<f64>(from));
        const to = sumsOut + <usize>l * 24;
        store<f64>(to, load<f64>(from + (<usize>colourAt << 3)));
        store<f64>(to, load<f64>(from + (<usize>colourAt << 3), 8), 8);
        store<f64>(to, load<f64>(from + (<usize>colourAt << 3), 16), 16);
      }
      setI32(finalOf, seed, l);
    }
    for (let q = p; q < end; q++) setI32(labels, q, l);
    const rowStart = p % width === 0;
    if (rowStart) setI32(rowRuns, p / width, kept);
    if (rowStart || l !== previous) setI32(runStarts, kept++, p);
    previous = l;
  }
  setI32(rowRuns, height, kept);
  setI32(runStarts, kept, width * height);
  return regionCount;
}

/** Where compact() left the regions' runs: starts (RowRuns.starts), then per row its first run (RowRuns.rowRuns). */
export function runStartsAt(): usize {
  return runStarts;
}

export function rowRunsAt(): usize {
  return rowRuns;
}

export function areaAt(): usize {
  return areaOut;
}

export function clearAt(): usize {
  return clearOut;
}

export function colourSumsAt(): usize {
  return sumsOut;
}
