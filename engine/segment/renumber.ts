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
  for (let p = 0; p < labels.length; p++) {
    const old = joinedInto === null ? labels[p] : joinedInto[labels[p]];
    let l = compact[old];
    if (l < 0) {
      l = compact[old] = count++;
      clear[l] = transparent[old];
    }
    labels[p] = l;
    area[l]++;
  }
  return { labels, regionCount: count, area: area.slice(0, count), transparent: clear.slice(0, count) };
}
