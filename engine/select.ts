/**
 * The k-th smallest of a list without sorting it: Hoare's selection, which narrows to the side of a
 * partition that holds position k (linear time on average instead of a sort's n log n). It returns
 * exactly the number a full ascending sort would put at index k, so a caller that took
 * `sorted[k]` gets the same value. The pivot is the median of the range's first, middle and last
 * entries: a deterministic choice that also keeps an already sorted or constant range linear.
 */

/** The value at index k of `values` sorted ascending; `values` must hold no NaN and is reordered in place. */
export function kthSmallest(values: Float64Array, k: number): number {
  if (!(k >= 0 && k < values.length)) throw new RangeError(`index ${k} outside a list of ${values.length}`);
  let lo = 0,
    hi = values.length - 1;
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    const a = values[lo],
      b = values[mid],
      c = values[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    // Hoare partition: afterwards every entry at or below j is <= pivot, every one at or above i is >= pivot.
    let i = lo,
      j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]; // between j and i: entries equal to the pivot
  }
  return values[k];
}
