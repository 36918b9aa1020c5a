/**
 * Reusable work arrays for fitting one chain at a time.
 *
 * Fitting a chain takes some twenty short-lived arrays (midpoints, prefix sums, polygon, pieces,
 * samples). A Float64Array of more than eight numbers gets its own backing store outside the V8
 * heap, which costs 300–500 ns to create and more to collect, several times the arithmetic done on
 * it for a typical chain of a few dozen points (measured: 2.3 µs per 2–4 point chain, tens of
 * thousands of chains per image). Each call site owns one slot instead and gets a view of the
 * slot's buffer (about 25 ns), which grows to the longest chain seen and stays. Zeroing the view
 * costs as much again, so only the zeroed* variants do it: with the others, a call site writes
 * every element it reads (what the slot held before is left there).
 *
 * A view is valid until its slot is asked for again, so every slot belongs to one call site whose
 * arrays are never alive twice at once (fitCubic's recursion finishes with its arrays before it
 * recurses). Module state is per thread: each worker has its own.
 */

const float64: Float64Array[] = [];
const int32: Int32Array[] = [];
const uint8: Uint8Array[] = [];

const MIN_CAPACITY = 64;

function capacityFor(current: number, wanted: number): number {
  return Math.max(wanted, 2 * current, MIN_CAPACITY);
}

/** A Float64Array of `length` numbers in slot `slot`'s buffer, holding whatever was there. */
export function scratchFloat64(slot: number, length: number): Float64Array {
  let buffer = float64[slot];
  if (buffer === undefined || buffer.length < length) buffer = float64[slot] = new Float64Array(capacityFor(buffer?.length ?? 0, length));
  return buffer.subarray(0, length);
}

/** An Int32Array of `length` numbers in slot `slot`'s buffer, holding whatever was there. */
export function scratchInt32(slot: number, length: number): Int32Array {
  let buffer = int32[slot];
  if (buffer === undefined || buffer.length < length) buffer = int32[slot] = new Int32Array(capacityFor(buffer?.length ?? 0, length));
  return buffer.subarray(0, length);
}

/** A Uint8Array of `length` numbers in slot `slot`'s buffer, holding whatever was there. */
export function scratchUint8(slot: number, length: number): Uint8Array {
  let buffer = uint8[slot];
  if (buffer === undefined || buffer.length < length) buffer = uint8[slot] = new Uint8Array(capacityFor(buffer?.length ?? 0, length));
  return buffer.subarray(0, length);
}

/** scratchFloat64, zeroed. */
export function zeroedFloat64(slot: number, length: number): Float64Array {
  return scratchFloat64(slot, length).fill(0);
}

/** scratchUint8, zeroed. */
export function zeroedUint8(slot: number, length: number): Uint8Array {
  return scratchUint8(slot, length).fill(0);
}
