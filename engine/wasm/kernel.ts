/**
 * What every WebAssembly kernel's TypeScript side shares (./flood.ts and its siblings): the module
 * compiled once per thread and one instance of it kept for the next trace, and the memory laid out
 * at 8-byte-aligned offsets and grown to fit.
 */

/** A kernel's exports: at least its memory. */
interface KernelExports {
  memory: WebAssembly.Memory;
}

/**
 * A thread keeps a kernel's memory for the next trace up to this size (fresh pages cost more than
 * a kernel's work on them); after a larger image it lets the memory go, so a 16 MP image does not
 * leave hundreds of megabytes held.
 */
const KEPT_MEMORY = 64 << 20;

/** One compiled kernel on this thread: its kept instance, made on first use. */
export interface KernelLoader<T extends KernelExports> {
  instance(): T;
  /** The kept instance, if any (none made yet, or released). */
  current(): T | null;
  /** Done with the instance for this trace: it is let go if its memory passed KEPT_MEMORY. */
  release(): void;
}

/** `imports`: the JavaScript functions a kernel calls (none for most). */
export function kernelLoader<T extends KernelExports>(bytes: Uint8Array<ArrayBuffer>, imports: WebAssembly.Imports = {}): KernelLoader<T> {
  let compiled: WebAssembly.Module | null = null;
  let kept: T | null = null;
  return {
    instance() {
      if (kept) return kept;
      compiled ??= new WebAssembly.Module(bytes);
      kept = new WebAssembly.Instance(compiled, imports).exports as unknown as T;
      return kept;
    },
    current: () => kept,
    release() {
      if (kept && kept.memory.buffer.byteLength > KEPT_MEMORY) kept = null;
    },
  };
}

/**
 * Where a kernel's layout starts: nothing lies at offset 0, which the kernels read as "no such
 * array" (an opaque image's transparency).
 */
export const LAYOUT_START = 64;

/**
 * About this many pixels go to a banded kernel at a time (whole rows, at least one, plus the rows
 * beside them its pixels reach), so its memory stays small whatever the image.
 */
export const BAND_PIXELS = 1 << 16;

/** Rows a band holds for an image `width` pixels wide (tests pass a smaller `bandPixels`). */
export function bandRowsFor(width: number, bandPixels = BAND_PIXELS): number {
  return Math.max(1, Math.floor(bandPixels / width));
}

/** The offset `bytes` bytes after `at`, rounded up to 8 (doubles are read there). */
export const after = (at: number, bytes: number): number => (at + bytes + 7) & ~7;

const PAGE = 65536;

/** Grows `memory` to hold `end` bytes at least. */
export function growTo(memory: WebAssembly.Memory, end: number): void {
  const have = memory.buffer.byteLength;
  if (end > have) memory.grow(Math.ceil((end - have) / PAGE));
}

/**
 * Bytes a layout leaves after an array it fills with copyIn, which may place the copy up to 7 bytes
 * further on.
 */
export const COPY_SLACK = 8;

type CopiedArray = Int32Array | Uint8Array;

/**
 * `at`, or up to 7 bytes further on, where a copy of `source` lies as the source does modulo 8.
 * V8 copies to or from shared memory a byte at a time unless both ends agree modulo 8: the label
 * rows of an image of odd width took eight times as long every other band (the labels are always
 * shared, a worker's pixels too). A plain array is copied at full speed anywhere: `at` itself. An
 * array placed this way needs COPY_SLACK bytes after it in the layout.
 */
export function placedLike(source: ArrayBufferView, at: number): number {
  return source.buffer instanceof SharedArrayBuffer ? at + ((source.byteOffset - at) & 7) : at;
}

/** Copies `source` into `memory` where placedLike puts it, and returns where that is. */
export function copyIn(memory: ArrayBuffer, at: number, source: CopiedArray): number {
  const placed = placedLike(source, at);
  if (source instanceof Int32Array) new Int32Array(memory, placed, source.length).set(source);
  else new Uint8Array(memory, placed, source.length).set(source);
  return placed;
}
