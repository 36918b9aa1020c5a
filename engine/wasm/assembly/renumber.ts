/**
 * Renumbering the region labels in scan order of first appearance (engine/segment/renumber.ts
 * renumberInScanOrder) in AssemblyScript: the same runs of equal labels in the same order, so the
 * same numbers, areas and kinds. A run's end is found four labels at a time (SIMD), and a run
 * whose number changes is rewritten four at a time: on clip art the labels are long runs, and
 * V8's code for the TypeScript loop compared one label a step.
 */

import { i32At, setI32 } from './lib/memory';

/**
 * Renumbers `n` labels in place, the next stretch of the scan after the `count` numbers given so
 * far (the caller hands the image over in stretches, carrying `compact` and `area` from one to the
 * next): a pixel of region r goes to joinedInto[r] (`joinedInto` 0: every region stays itself),
 * and each group gets the next number where it first appears. `compact` (all -1 at first) gets
 * each old group's new number; `area` (zeros at first) the new regions' pixels, `clearOut` their
 * kinds from `clearIn` (by old number). Returns how many numbers are given now. A run across two
 * stretches is two runs here, of the same number.
 */
export function renumber(
  labels: usize,
  n: i32,
  joinedInto: usize,
  compact: usize,
  area: usize,
  clearIn: usize,
  clearOut: usize,
  count: i32,
): i32 {
  let p = 0;
  while (p < n) {
    const from = i32At(labels, p);
    const same = i32x4.splat(from);
    let end = p + 1;
    while (end + 4 <= n && v128.all_true<i32>(i32x4.eq(v128.load(labels + (<usize>end << 2)), same))) end += 4;
    while (end < n && i32At(labels, end) === from) end++;
    const old = joinedInto === 0 ? from : i32At(joinedInto, from);
    let l = i32At(compact, old);
    if (l < 0) {
      l = count++;
      setI32(compact, old, l);
      store<u8>(clearOut + <usize>l, load<u8>(clearIn + <usize>old));
    }
    setI32(area, l, i32At(area, l) + (end - p));
    if (l !== from) {
      const to = i32x4.splat(l);
      let q = p;
      for (; q + 4 <= end; q += 4) v128.store(labels + (<usize>q << 2), to);
      for (; q < end; q++) setI32(labels, q, l);
    }
    p = end;
  }
  return count;
}
