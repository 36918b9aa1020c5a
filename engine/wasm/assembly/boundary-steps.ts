/**
 * The join planning's pass over the boundaries (engine/segment/gradient-bands.ts boundarySteps) in
 * AssemblyScript: for every pair of painted regions of at least MIN_REGION pixels that are
 * 4-neighbours somewhere, the summed RGB distance of the pixel pairs facing each other across
 * their boundary (square roots added in scan order, as the TypeScript pass added them, so the same
 * sums), how many pairs and how many step further than the hard step. A pixel that also touches a
 * third region is a mix with it and left out, unless one side is a speck.
 *
 * The pairs live in an open-addressing table in this module's memory (the caller lays it out and
 * grows it: engine/wasm/boundary-steps.ts). The caller hands the labels over in bands of rows,
 * each with a row above and two below it (the pixel below a boundary pixel has its own neighbours
 * looked at), so this module's memory stays a band's size whatever the image's.
 */

import { i32At } from './lib/memory';

const MIN_REGION: i32 = 16;

/** The table: entries' pair (a < b), sum, pixel pairs and hard steps, and 2·capacity slots (entry + 1, 0 empty). */
let tableA: usize = 0;
let tableB: usize = 0;
let tableSum: usize = 0;
let tablePairs: usize = 0;
let tableHard: usize = 0;
let tableSlots: usize = 0;
let capacity: i32 = 0;
let count: i32 = 0;
/** Along a boundary the same pair comes again and again: its entry without the table. */
let lastLo: i32 = -1;
let lastHi: i32 = -1;
let lastEntry: i32 = -1;

/** The band being scanned: its labels and colours start at row `firstRow`. */
let width: i32 = 0;
let height: i32 = 0;
let firstRow: i32 = 0;
let labels: usize = 0;
let data: usize = 0;
let channels: i32 = 0;
let area: usize = 0;
let transparent: usize = 0;
let hard2: f64 = 0;

/** Sets where the table lies, with `entries` entries already in it (slots rebuilt for them). */
export function setTable(a: usize, b: usize, sum: usize, pairs: usize, hard: usize, slots: usize, room: i32, entries: i32): void {
  tableA = a;
  tableB = b;
  tableSum = sum;
  tablePairs = pairs;
  tableHard = hard;
  tableSlots = slots;
  capacity = room;
  count = entries;
  memory.fill(slots, 0, <usize>(2 * room) << 2);
  for (let e = 0; e < entries; e++) store<i32>(slots + (<usize>slotOf(i32At(a, e), i32At(b, e)) << 2), e + 1);
  lastLo = lastHi = lastEntry = -1;
}

export function entries(): i32 {
  return count;
}

/**
 * Scans rows y0 to y1 - 1 of an image `rows` high: each pixel's right neighbour, then the one
 * below. `bandLabels` and `bandData` (`pixelBytes` a pixel) hold the rows from max(0, y0 - 1) to
 * min(rows, y1 + 2). Returns y1 when done, or the row to scan again once the table has room for
 * two new pairs a pixel of a row (it stops before a row that might fill it).
 */
export function scanRows(
  imageWidth: i32,
  rows: i32,
  y0: i32,
  y1: i32,
  bandLabels: usize,
  bandData: usize,
  pixelBytes: i32,
  regionArea: usize,
  regionTransparent: usize,
  hardSquared: f64,
): i32 {
  width = imageWidth;
  height = rows;
  firstRow = y0 > 0 ? y0 - 1 : 0;
  labels = bandLabels;
  data = bandData;
  channels = pixelBytes;
  area = regionArea;
  transparent = regionTransparent;
  hard2 = hardSquared;
  for (let y = y0; y < y1; y++) {
    if (count + 2 * width > capacity) return y;
    const row = (y - firstRow) * width;
    // the lower neighbour's offset, 0 on the last row: a pixel is never across a boundary from itself
    const down = y + 1 < height ? width : 0;
    const last = row + width - 1;
    let label = i32At(labels, row);
    for (let p = row; p < last; p++) {
      const right = i32At(labels, p + 1);
      if (right !== label) facing(p, p + 1, y, y);
      if (i32At(labels, p + down) !== label) facing(p, p + down, y, y + 1);
      label = right;
    }
    if (i32At(labels, last + down) !== label) facing(last, last + down, y, y + 1);
  }
  return y1;
}

function slotOf(lo: i32, hi: i32): i32 {
  const mask = 2 * capacity - 1;
  let slot = ((lo * <i32>0x9e3779b1) ^ (hi * <i32>0x85ebca6b)) & mask;
  while (true) {
    const entry = i32At(tableSlots, slot) - 1;
    if (entry < 0 || (i32At(tableA, entry) === lo && i32At(tableB, entry) === hi)) return slot;
    slot = (slot + 1) & mask;
  }
}

/** Whether band pixel p (on image row y) has a 4-neighbour labelled neither la nor lb. */
@inline
function touchesThird(p: i32, y: i32, la: i32, lb: i32): bool {
  const x = p % width;
  if (x > 0) {
    const l = i32At(labels, p - 1);
    if (l !== la && l !== lb) return true;
  }
  if (x + 1 < width) {
    const l = i32At(labels, p + 1);
    if (l !== la && l !== lb) return true;
  }
  if (y > 0) {
    const l = i32At(labels, p - width);
    if (l !== la && l !== lb) return true;
  }
  if (y + 1 < height) {
    const l = i32At(labels, p + width);
    if (l !== la && l !== lb) return true;
  }
  return false;
}

function facing(p: i32, q: i32, py: i32, qy: i32): void {
  const lp = i32At(labels, p),
    lq = i32At(labels, q);
  if (lp === lq || load<u8>(transparent + <usize>lp) !== 0 || load<u8>(transparent + <usize>lq) !== 0) return;
  const areaP = i32At(area, lp),
    areaQ = i32At(area, lq);
  if (areaP < MIN_REGION && areaQ < MIN_REGION) return;
  // A pixel that also touches a third region is a mix with it (anti-aliasing where the two meet
  // an edge). A speck is all such pixels: its every pair counts.
  if (areaP >= MIN_REGION && areaQ >= MIN_REGION && (touchesThird(p, py, lp, lq) || touchesThird(q, qy, lp, lq))) return;
  const lo = lp < lq ? lp : lq,
    hi = lp < lq ? lq : lp;
  let entry: i32;
  if (lo === lastLo && hi === lastHi) entry = lastEntry;
  else {
    const slot = slotOf(lo, hi);
    entry = i32At(tableSlots, slot) - 1;
    if (entry < 0) {
      entry = count++;
      store<i32>(tableA + (<usize>entry << 2), lo);
      store<i32>(tableB + (<usize>entry << 2), hi);
      store<f64>(tableSum + (<usize>entry << 3), 0);
      store<i32>(tablePairs + (<usize>entry << 2), 0);
      store<i32>(tableHard + (<usize>entry << 2), 0);
      store<i32>(tableSlots + (<usize>slot << 2), entry + 1);
    }
    lastLo = lo;
    lastHi = hi;
    lastEntry = entry;
  }
  const a = data + <usize>(channels * p),
    b = data + <usize>(channels * q);
  const dr = <i32>load<u8>(a) - <i32>load<u8>(b),
    dg = <i32>load<u8>(a, 1) - <i32>load<u8>(b, 1),
    db = <i32>load<u8>(a, 2) - <i32>load<u8>(b, 2);
  const d2 = dr * dr + dg * dg + db * db;
  const sumAt = tableSum + (<usize>entry << 3);
  store<f64>(sumAt, load<f64>(sumAt) + Math.sqrt(<f64>d2));
  const pairsAt = tablePairs + (<usize>entry << 2);
  store<i32>(pairsAt, load<i32>(pairsAt) + 1);
  if (<f64>d2 > hard2) {
    const hardAt = tableHard + (<usize>entry << 2);
    store<i32>(hardAt, load<i32>(hardAt) + 1);
  }
}
