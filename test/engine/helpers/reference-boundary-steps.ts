import type { RegionLabels } from '../../../engine/segment/renumber.js';
import type { RasterImage } from '../../../engine/types.js';

const NO_INTS = new Int32Array(0);
const NO_DOUBLES = new Float64Array(0);
const NO_FLAGS = new Uint8Array(0);
/** Regions smaller than this are specks (engine/segment/gradient-bands.ts MIN_REGION). */
const MIN_REGION = 16;

/**
 * The join planning's boundary pass in TypeScript as the engine ran it before it went to
 * WebAssembly (engine/wasm/assembly/boundary-steps.ts): the reference the kernel is held to.
 *
 * The steps across the boundary of every pair of painted regions of at least MIN_REGION pixels
 * that are 4-neighbours somewhere: per pair (a < b), the summed RGB distance of the pixel pairs
 * facing each other across it, how many there are, and how many step further than `hardStep`.
 * Pairs are found through an open-addressing table (typed arrays, no object per pair); each pair's
 * sum is added up in scan order, so it is the same number wherever the pair sits in the table.
 */
export function referenceBoundarySteps(image: RasterImage, regions: RegionLabels, hardStep: number) {
  const { width, height } = image;
  const { labels } = regions;
  const steps = stepTable;
  steps.width = width;
  steps.n = width * height;
  steps.data = image.data;
  steps.channels = image.channels ?? 4;
  steps.labels = labels;
  steps.area = regions.area;
  steps.transparent = regions.transparent;
  steps.hard2 = hardStep * hardStep;
  steps.capacity = 1024; // entries; the table has twice as many slots, so it stays at most half full
  steps.a = new Int32Array(steps.capacity);
  steps.b = new Int32Array(steps.capacity);
  steps.sum = new Float64Array(steps.capacity);
  steps.pixelPairs = new Int32Array(steps.capacity);
  steps.hard = new Int32Array(steps.capacity);
  steps.slots = new Int32Array(2 * steps.capacity); // entry + 1, 0 for an empty slot
  steps.count = 0;
  steps.lastLo = steps.lastHi = steps.lastEntry = -1;
  // facing() only where the labels differ: most pairs lie inside one region. Each pixel's right
  // neighbour, then the one below, in scan order; the right one is the next pixel's own label.
  for (let y = 0, row = 0; y < height; y++, row += width) {
    // the lower neighbour's offset, 0 on the last row: a pixel is never across a boundary from itself
    const down = y + 1 < height ? width : 0;
    const last = row + width - 1;
    let label = labels[row];
    for (let p = row; p < last; p++) {
      const right = labels[p + 1];
      if (right !== label) facing(steps, p, p + 1);
      if (labels[p + down] !== label) facing(steps, p, p + down);
      label = right;
    }
    if (labels[last + down] !== label) facing(steps, last, last + down);
  }
  const { count, a, b, sum, pixelPairs, hard } = steps;
  // the image and the tables are not kept alive by the state after this trace
  steps.a = steps.b = steps.pixelPairs = steps.hard = steps.slots = steps.labels = steps.area = NO_INTS;
  steps.sum = NO_DOUBLES;
  steps.data = steps.transparent = NO_FLAGS;
  return { count, a, b, sum, pixelPairs, hard };
}

/**
 * boundarySteps' table and what its helpers read, one object for every trace on this thread, and
 * the helpers module functions rather than closures made per call: the closures' optimised code
 * was lost between traces of clip art with photos traced in between (no deoptimisation, the code
 * simply gone), and the first clip-art trace after them compiled them again while running them
 * unoptimised (the plan took 17–22 ms instead of 5 on calculator in an interleaved run).
 */
interface StepTable {
  width: number;
  n: number;
  data: Uint8Array;
  channels: number;
  labels: Int32Array;
  area: Int32Array;
  transparent: Uint8Array;
  hard2: number;
  capacity: number;
  a: Int32Array;
  b: Int32Array;
  sum: Float64Array;
  pixelPairs: Int32Array;
  hard: Int32Array;
  slots: Int32Array;
  count: number;
  lastLo: number;
  lastHi: number;
  lastEntry: number;
}
const stepTable: StepTable = {
  width: 0,
  n: 0,
  data: NO_FLAGS,
  channels: 4,
  labels: NO_INTS,
  area: NO_INTS,
  transparent: NO_FLAGS,
  // a double from the start, as a fractional hard step would make it
  hard2: 0.5,
  capacity: 0,
  a: NO_INTS,
  b: NO_INTS,
  sum: NO_DOUBLES,
  pixelPairs: NO_INTS,
  hard: NO_INTS,
  slots: NO_INTS,
  count: 0,
  lastLo: -1,
  lastHi: -1,
  lastEntry: -1,
};

function slotOf(t: StepTable, lo: number, hi: number, table: Int32Array): number {
  const mask = table.length - 1;
  let slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b)) & mask;
  for (;;) {
    const entry = table[slot] - 1;
    if (entry < 0 || (t.a[entry] === lo && t.b[entry] === hi)) return slot;
    slot = (slot + 1) & mask;
  }
}

/** Whether pixel p has a 4-neighbour labelled neither la nor lb. */
function touchesThird(t: StepTable, p: number, la: number, lb: number): boolean {
  const { width, labels } = t;
  const x = p % width;
  return (
    (x > 0 && labels[p - 1] !== la && labels[p - 1] !== lb) ||
    (x + 1 < width && labels[p + 1] !== la && labels[p + 1] !== lb) ||
    (p >= width && labels[p - width] !== la && labels[p - width] !== lb) ||
    (p + width < t.n && labels[p + width] !== la && labels[p + width] !== lb)
  );
}

function facing(t: StepTable, p: number, q: number): void {
  const { labels, area, transparent } = t;
  const lp = labels[p],
    lq = labels[q];
  if (lp === lq || transparent[lp] || transparent[lq] || (area[lp] < MIN_REGION && area[lq] < MIN_REGION)) return;
  // A pixel that also touches a third region is a mix with it (anti-aliasing where the two meet
  // an edge). A speck is all such pixels: its every pair counts.
  if (area[lp] >= MIN_REGION && area[lq] >= MIN_REGION && (touchesThird(t, p, lp, lq) || touchesThird(t, q, lp, lq))) return;
  const lo = lp < lq ? lp : lq,
    hi = lp < lq ? lq : lp;
  // along a boundary the same pair comes again and again: its entry without the table
  if (lo === t.lastLo && hi === t.lastHi) {
    addStep(t, t.lastEntry, p, q);
    return;
  }
  const slot = slotOf(t, lo, hi, t.slots);
  let entry = t.slots[slot] - 1;
  if (entry < 0) {
    if (t.count === t.capacity) {
      t.capacity *= 2;
      const grow = <T extends Int32Array | Float64Array>(old: T, made: T): T => (made.set(old), made);
      t.a = grow(t.a, new Int32Array(t.capacity));
      t.b = grow(t.b, new Int32Array(t.capacity));
      t.sum = grow(t.sum, new Float64Array(t.capacity));
      t.pixelPairs = grow(t.pixelPairs, new Int32Array(t.capacity));
      t.hard = grow(t.hard, new Int32Array(t.capacity));
      t.slots = new Int32Array(2 * t.capacity);
      for (let e = 0; e < t.count; e++) t.slots[slotOf(t, t.a[e], t.b[e], t.slots)] = e + 1;
    }
    entry = t.count++;
    t.a[entry] = lo;
    t.b[entry] = hi;
    t.slots[slotOf(t, lo, hi, t.slots)] = entry + 1;
  }
  t.lastLo = lo;
  t.lastHi = hi;
  t.lastEntry = entry;
  addStep(t, entry, p, q);
}

function addStep(t: StepTable, entry: number, p: number, q: number): void {
  const { data, channels } = t;
  const dr = data[channels * p] - data[channels * q],
    dg = data[channels * p + 1] - data[channels * q + 1],
    db = data[channels * p + 2] - data[channels * q + 2];
  const d2 = dr * dr + dg * dg + db * db;
  t.sum[entry] += Math.sqrt(d2);
  t.pixelPairs[entry]++;
  if (d2 > t.hard2) t.hard[entry]++;
}
