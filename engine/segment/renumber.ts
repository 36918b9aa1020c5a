import { scratchInt32, scratchSlots } from '../scratch.js';
import { renumberInKernel } from '../wasm/renumber.js';

/** Region labels as every segmentation stage hands them on: 0..regionCount-1 in scan order of first appearance. */
export interface RegionLabels {
  labels: Int32Array;
  regionCount: number;
  /** Pixels per region. */
  area: Int32Array;
  /** 1 for a region of transparent pixels. */
  transparent: Uint8Array;
  /**
   * Σr, Σg, Σb of each region's pixels, where the stage that made the regions kept them (the
   * colour segmentation does, carried through each later stage; line art does not): the sub-pixel
   * stage's region means without another pass over the image. Whole numbers, so they equal
   * regionColourSums of the labels exactly.
   */
  colourSums?: Float64Array;
}

/**
 * The end (exclusive) of the run of pixels from p on that share p's label, along the scan and not
 * past `limit` (the end of p's row, for a run that must stay in one row).
 */
export function runEnd(labels: Int32Array, p: number, limit = labels.length): number {
  const label = labels[p];
  let end = p + 1;
  while (end < limit && labels[end] === label) end++;
  return end;
}

/**
 * Σr, Σg, Σb of each region's pixels (RGB, three bytes a pixel), and with `counts` its pixels
 * counted there too, run by run: a label repeats along a row, so its sums gather in locals and
 * are stored once a run (whole numbers, so the order of the additions does not change them).
 */
export function regionColourSums(rgb: Uint8Array, labels: Int32Array, regionCount: number, counts?: Float64Array): Float64Array {
  const sums = new Float64Array(3 * regionCount);
  const n = labels.length;
  for (let p = 0; p < n;) {
    const label = labels[p];
    let r = 0,
      g = 0,
      b = 0;
    const start = p;
    for (; p < n && labels[p] === label; p++) {
      r += rgb[3 * p];
      g += rgb[3 * p + 1];
      b += rgb[3 * p + 2];
    }
    sums[3 * label] += r;
    sums[3 * label + 1] += g;
    sums[3 * label + 2] += b;
    if (counts) counts[label] += p - start;
  }
  return sums;
}

/**
 * Renumbers `labels` in place in scan order of first appearance after a stage moved pixels or
 * joined regions: a pixel of region r goes to `joinedInto[r]` (null: every region stays itself),
 * and regions left without pixels disappear. `transparent` and `colourSums` (kept right through
 * the moves, if given) are indexed by the old numbers. The pass over the labels runs in
 * WebAssembly (engine/wasm/assembly/renumber.ts, run by run as test/engine/helpers/
 * reference-renumber.ts walks them): it is a full pass on the segmentation's one thread, after the
 * bands and after the joins, and takes less than half the time V8 made of it.
 */
export function renumberInScanOrder(
  labels: Int32Array,
  regionCount: number,
  transparent: Uint8Array,
  joinedInto: Int32Array | null,
  colourSums?: Float64Array,
): RegionLabels {
  const { count, compact, area, transparent: clear } = renumberInKernel(labels, regionCount, transparent, joinedInto);
  const renumbered: RegionLabels = { labels, regionCount: count, area, transparent: clear };
  if (colourSums) renumbered.colourSums = joinedSums(colourSums, regionCount, joinedInto, compact, count);
  return renumbered;
}

/** The colour sums of the renumbered regions: region r's go to compact[joinedInto[r]] (a region emptied by the moves adds its zeros). */
function joinedSums(
  sums: Float64Array,
  regionCount: number,
  joinedInto: Int32Array | null,
  compact: Int32Array,
  count: number,
): Float64Array {
  const joined = new Float64Array(3 * count);
  for (let r = 0; r < regionCount; r++) {
    const l = compact[joinedInto === null ? r : joinedInto[r]];
    if (l < 0) continue;
    joined[3 * l] += sums[3 * r];
    joined[3 * l + 1] += sums[3 * r + 1];
    joined[3 * l + 2] += sums[3 * r + 2];
  }
  return joined;
}

/**
 * Moves pixel p to region `to`, keeping `colourSums` right: Σrgb leaves its old region and joins
 * the new one (whole numbers, exact in any order).
 */
export function movePixel(labels: Int32Array, rgb: Uint8Array, colourSums: Float64Array, p: number, to: number): void {
  const from = labels[p];
  if (from === to) return;
  const r = rgb[3 * p],
    g = rgb[3 * p + 1],
    b = rgb[3 * p + 2];
  colourSums[3 * from] -= r;
  colourSums[3 * from + 1] -= g;
  colourSums[3 * from + 2] -= b;
  colourSums[3 * to] += r;
  colourSums[3 * to + 1] += g;
  colourSums[3 * to + 2] += b;
  labels[p] = to;
}

/** rowRunsOf's arrays (one set of runs at a time on a thread). */
const ROW_RUNS = scratchSlots('row runs', Int32Array, ['starts', 'rowRuns']);
/**
 * The most run starts kept on a thread between traces (16 MB). A table starts with room for one
 * run in eight pixels (clip art has fewer) and doubles when full, so a large flat image does not
 * take four bytes a pixel; one that outgrows the kept size is made fresh.
 */
const MAX_KEPT_RUNS = 1 << 22;
/**
 * The labels' runs along each row (a run never crosses a row's end): run k covers pixels
 * starts[k] to starts[k + 1] - 1, and row y's runs are rowRuns[y] to rowRuns[y + 1] - 1 (starts
 * ends with n). Clip art has a few runs per dozen pixels, so a pass that reads them works run by
 * run instead of pixel by pixel. Valid until the next rowRunsOf on this thread.
 */
export interface RowRuns {
  starts: Int32Array;
  rowRuns: Int32Array;
}

export function rowRunsOf(labels: Int32Array, width: number, height: number): RowRuns {
  const n = width * height;
  let starts = runStarts(Math.min(n + 1, (n >> 3) + height + 1));
  const rowRuns = scratchInt32(ROW_RUNS.rowRuns, height + 1);
  let k = 0;
  for (let y = 0, row = 0; y < height; y++, row += width) {
    rowRuns[y] = k;
    // room for this row's runs, whatever they are, and the closing start
    if (k + width + 1 > starts.length) starts = grownRunStarts(starts, k, Math.min(n + 1, Math.max(2 * starts.length, k + width + 1)));
    let l = labels[row];
    starts[k++] = row;
    for (let p = row + 1, end = row + width; p < end; p++) {
      const next = labels[p];
      if (next !== l) {
        starts[k++] = p;
        l = next;
      }
    }
  }
  rowRuns[height] = k;
  starts[k] = n;
  return { starts, rowRuns };
}

/**
 * RowRuns tables for `runCount` runs over `height` rows, contents undefined: the ones rowRunsOf
 * fills (valid until the next rowRunsOf on this thread), for a caller that has the runs already.
 */
export function rowRunsTables(runCount: number, height: number): RowRuns {
  return { starts: runStarts(runCount + 1), rowRuns: scratchInt32(ROW_RUNS.rowRuns, height + 1) };
}

/** Room for `length` run starts: the kept table up to MAX_KEPT_RUNS, a fresh one past it. */
function runStarts(length: number): Int32Array {
  return length <= MAX_KEPT_RUNS ? scratchInt32(ROW_RUNS.starts, length) : new Int32Array(length);
}

/** A table of `length` holding the first `count` starts of `starts` (the kept one grows into a new buffer, or already has the room). */
function grownRunStarts(starts: Int32Array, count: number, length: number): Int32Array {
  const grown = runStarts(length);
  if (grown.buffer !== starts.buffer) grown.set(starts.subarray(0, count));
  return grown;
}
