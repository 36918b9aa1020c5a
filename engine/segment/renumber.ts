/** Region labels as every segmentation stage hands them on: 0..regionCount-1 in scan order of first appearance. */
export interface RegionLabels {
  labels: Int32Array;
  regionCount: number;
  /** Pixels per region. */
  area: Int32Array;
  /** 1 for a region of transparent pixels. */
  transparent: Uint8Array;
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
 * Renumbers `labels` in place in scan order of first appearance after a stage moved pixels or
 * joined regions: a pixel of region r goes to `joinedInto[r]` (null: every region stays itself),
 * and regions left without pixels disappear. `transparent` is indexed by the old numbers.
 */
export function renumberInScanOrder(
  labels: Int32Array,
  regionCount: number,
  transparent: Uint8Array,
  joinedInto: Int32Array | null,
): RegionLabels {
  const compact = new Int32Array(regionCount).fill(-1);
  const area = new Int32Array(regionCount);
  const clear = new Uint8Array(regionCount);
  let count = 0;
  // one look-up per run of equal labels; a label that keeps its number is not written again
  const n = labels.length;
  for (let p = 0; p < n;) {
    const from = labels[p];
    const end = runEnd(labels, p);
    const old = joinedInto === null ? from : joinedInto[from];
    let l = compact[old];
    if (l < 0) {
      l = compact[old] = count++;
      clear[l] = transparent[old];
    }
    area[l] += end - p;
    if (l !== from) {
      if (end - p > 32) labels.fill(l, p, end);
      else for (let q = p; q < end; q++) labels[q] = l;
    }
    p = end;
  }
  return { labels, regionCount: count, area: area.slice(0, count), transparent: clear.slice(0, count) };
}
