/**
 * The engine's reusable memory, per thread (each worker has its own). Two kinds, for two lifetimes:
 *
 * Scratch slots hold the short-lived work arrays of one call (a chain's fit, a region's gradient
 * samples). A Float64Array of more than eight numbers gets its own backing store outside the V8
 * heap, which costs 300–500 ns to create and more to collect, several times the arithmetic done on
 * it for a typical chain of a few dozen points (measured: 2.3 µs per 2–4 point chain, tens of
 * thousands of chains per image). A call site gets a view of its slot's buffer instead (about
 * 25 ns), which grows to the longest request seen and stays. Zeroing the view costs as much again,
 * so only the zeroed* variants do it: with the others, a call site writes every element it reads.
 * A view is valid until its slot is asked for again, so a slot belongs to call sites whose arrays
 * are never alive twice at once (fitCubics's recursion finishes with its arrays before it recurses).
 *
 * Every slot is its own object with its own buffer, declared by name through scratchSlots(); a
 * name declared twice throws when the second module loads. Two call sites therefore share memory
 * only by naming the same slot, never because two files picked the same number.
 *
 * Spare pools hold buffers that outlive one call (a trace's labels, the flood's sum chunks, a
 * worker's shared source): taken by one trace, given back when nothing reads them any more, and
 * kept for the next trace up to a cap, so a one-off huge image does not pin its memory. A fresh
 * buffer is fresh pages, and faulting them in costs more than the work first done on them.
 */

type ScratchArray = Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

interface ScratchSlot<A extends ScratchArray> {
  readonly name: string;
  buffer: A;
}

interface ScratchArrayType<A extends ScratchArray> {
  new (length: number): A;
}

const declared = new Set<string>();

/** Declares `owner`'s slots, one per name, each holding arrays of `type`. */
export function scratchSlots<const Name extends string, A extends ScratchArray>(
  owner: string,
  type: ScratchArrayType<A>,
  names: readonly Name[],
): Record<Name, ScratchSlot<A>> {
  const slots = {} as Record<Name, ScratchSlot<A>>;
  for (const name of names) {
    const fullName = `${owner}.${name}`;
    if (declared.has(fullName)) throw new Error(`scratch slot ${fullName} is declared twice`);
    declared.add(fullName);
    slots[name] = { name: fullName, buffer: new type(0) };
  }
  return slots;
}

/** Every slot declared so far on this thread, by full name ("owner.name"). */
export function declaredScratchSlots(): string[] {
  return [...declared];
}

const MIN_CAPACITY = 64;

function capacityFor(current: number, wanted: number): number {
  return Math.max(wanted, 2 * current, MIN_CAPACITY);
}

/** A Float64Array of `length` numbers in the slot's buffer, holding whatever was there. */
export function scratchFloat64(slot: ScratchSlot<Float64Array<ArrayBuffer>>, length: number): Float64Array<ArrayBuffer> {
  let buffer = slot.buffer;
  if (buffer.length < length) buffer = slot.buffer = new Float64Array(capacityFor(buffer.length, length));
  return buffer.subarray(0, length);
}

/** An Int32Array of `length` numbers in the slot's buffer, holding whatever was there. */
export function scratchInt32(slot: ScratchSlot<Int32Array<ArrayBuffer>>, length: number): Int32Array<ArrayBuffer> {
  let buffer = slot.buffer;
  if (buffer.length < length) buffer = slot.buffer = new Int32Array(capacityFor(buffer.length, length));
  return buffer.subarray(0, length);
}

/** A Uint8Array of `length` numbers in the slot's buffer, holding whatever was there. */
export function scratchUint8(slot: ScratchSlot<Uint8Array<ArrayBuffer>>, length: number): Uint8Array<ArrayBuffer> {
  let buffer = slot.buffer;
  if (buffer.length < length) buffer = slot.buffer = new Uint8Array(capacityFor(buffer.length, length));
  return buffer.subarray(0, length);
}

/**
 * The slot's whole buffer, at least `length` long, holding whatever was there: not even a view is
 * created, for call sites run per chain that pass their length along.
 */
export function scratchFloat64Buffer(slot: ScratchSlot<Float64Array<ArrayBuffer>>, length: number): Float64Array<ArrayBuffer> {
  if (slot.buffer.length < length) slot.buffer = new Float64Array(capacityFor(slot.buffer.length, length));
  return slot.buffer;
}

/**
 * `buffer` (the slot's, being filled) when it holds `length` numbers, else a larger one that
 * becomes the slot's, its first `used` numbers copied over: for a scratch buffer filled as it goes.
 */
export function grownFloat64Buffer(
  slot: ScratchSlot<Float64Array<ArrayBuffer>>,
  buffer: Float64Array,
  used: number,
  length: number,
): Float64Array<ArrayBuffer> {
  if (buffer.length >= length) return buffer as Float64Array<ArrayBuffer>;
  const bigger = (slot.buffer = new Float64Array(capacityFor(buffer.length, length)));
  bigger.set(buffer.subarray(0, used));
  return bigger;
}

/** scratchFloat64Buffer's Uint8Array. */
export function scratchUint8Buffer(slot: ScratchSlot<Uint8Array<ArrayBuffer>>, length: number): Uint8Array<ArrayBuffer> {
  if (slot.buffer.length < length) slot.buffer = new Uint8Array(capacityFor(slot.buffer.length, length));
  return slot.buffer;
}

/** scratchFloat64, zeroed. */
export function zeroedFloat64(slot: ScratchSlot<Float64Array<ArrayBuffer>>, length: number): Float64Array<ArrayBuffer> {
  return scratchFloat64(slot, length).fill(0);
}

/** scratchUint8, zeroed. */
export function zeroedUint8(slot: ScratchSlot<Uint8Array<ArrayBuffer>>, length: number): Uint8Array<ArrayBuffer> {
  return scratchUint8(slot, length).fill(0);
}

/** Buffers kept between traces on this thread: at most `maxKept` of them, none over `maxBytes`. */
export class SparePool<B extends { readonly byteLength: number }> {
  private readonly kept: B[] = [];

  constructor(
    private readonly create: (bytes: number) => B,
    private readonly maxKept: number,
    private readonly maxBytes: number,
  ) {}

  /** A buffer of at least `bytes`: the kept one given back last that is large enough (its old contents left in it), else a new one. */
  take(bytes: number): B {
    for (let i = this.kept.length - 1; i >= 0; i--) {
      if (this.kept[i].byteLength >= bytes) return this.kept.splice(i, 1)[0];
    }
    return this.create(bytes);
  }

  /** Keeps `buffer` for a later take(); only for a buffer nothing reads or writes any more. Full: it replaces a smaller one. */
  giveBack(buffer: B): void {
    if (buffer.byteLength > this.maxBytes) return;
    if (this.kept.length < this.maxKept) {
      this.kept.push(buffer);
      return;
    }
    let smallest = 0;
    for (let i = 1; i < this.kept.length; i++) if (this.kept[i].byteLength < this.kept[smallest].byteLength) smallest = i;
    if (this.kept[smallest].byteLength < buffer.byteLength) this.kept[smallest] = buffer;
  }
}

/** One SharedArrayBuffer kept between traces (a worker reads it without a copy), the largest given back up to `maxBytes`. */
export function spareSharedBuffers(maxBytes: number): SparePool<SharedArrayBuffer> {
  return new SparePool((bytes) => new SharedArrayBuffer(bytes), 1, maxBytes);
}
