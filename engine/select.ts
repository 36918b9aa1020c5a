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

/** Bits of sortIndices' radix digit: three passes cover every index below 2³³, a digit's counts stay small. */
const DIGIT_BITS = 11;
const DIGIT_MASK = (1 << DIGIT_BITS) - 1;
/** sortIndices' counts per digit (one sort at a time on a thread). */
const DIGIT_COUNTS = new Int32Array(1 << DIGIT_BITS);

/**
 * `values` (whole numbers from 0 to 2³¹ − 1: pixel indices) sorted ascending in place, and returned:
 * the same order `values.sort()` gives. A least-significant-digit radix sort, as many passes as the
 * largest value needs (two below 2²²): a typed array's own sort took 45–110 ns an entry here, a
 * sixth of a drawing's anti-aliasing stage where it ordered the strip steps, this 30–35.
 */
export function sortIndices<T extends Int32Array<ArrayBufferLike>>(values: T): T {
  const n = values.length;
  let largest = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!(v >= 0)) throw new RangeError(`sortIndices sorts whole numbers from 0, not ${v}`);
    if (v > largest) largest = v;
  }
  if (n < 2) return values;
  let from: Int32Array<ArrayBufferLike> = values,
    to: Int32Array<ArrayBufferLike> = new Int32Array(n);
  // a shift count is taken mod 32 in JavaScript: the passes stop below 32 bits, not when the shift runs past them
  for (let shift = 0; shift < 32 && (shift === 0 || largest >>> shift > 0); shift += DIGIT_BITS) {
    const counts = DIGIT_COUNTS.fill(0);
    for (let i = 0; i < n; i++) counts[(from[i] >>> shift) & DIGIT_MASK]++;
    // each digit's first place in the output
    let place = 0;
    for (let d = 0; d <= DIGIT_MASK; d++) {
      const count = counts[d];
      counts[d] = place;
      place += count;
    }
    for (let i = 0; i < n; i++) {
      const v = from[i];
      to[counts[(v >>> shift) & DIGIT_MASK]++] = v;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== values) values.set(from);
  return values;
}
