/**
 * The flood kernel (./assembly/flood.ts, compiled into ./flood-module.ts) seen from TypeScript:
 * lays out its memory for one image, copies the RGB (and transparency) in, floods seeds batch by
 * batch and copies the labels out. Each thread compiles the module once and keeps one instance;
 * its memory is kept for the next trace up to ./kernel.ts KEPT_MEMORY (fresh pages cost more than
 * the flood's own work on them, as for the labels in engine/segment/index.ts), and let go after a
 * larger image.
 */
import { FLOOD_WASM } from './flood-module.js';
import { after, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface FloodExports {
  memory: WebAssembly.Memory;
  prepare(labels: number, clear: number, n: number, squares: number, width: number): void;
  setStack(at: number, capacity: number): void;
  floodedSeeds(): number;
  floodBatch(
    width: number,
    height: number,
    rgb: number,
    clear: number,
    labels: number,
    squares: number,
    sums: number,
    seedStarts: number,
    tol2: number,
    start: number,
    firstLabel: number,
    maxSeeds: number,
    startLimit: number,
  ): number;
}

/** Numbers per seed, as engine/segment/index.ts PLANE_STRIDE. */
const SEED_NUMBERS = 16;
/** The segment stack's room at first (i32); the kernel grows the memory when it needs more. */
const INITIAL_STACK = 6144;

const loader = kernelLoader<FloodExports>(FLOOD_WASM);

/** One image's flood: batches of seeds in scan order, then the labels. */
export interface FloodKernel {
  /**
   * Floods the seeds found from pixel `start` on, numbered from `firstLabel`: at most `maxSeeds`,
   * none starting at or past `startLimit`. Returns where the next batch starts (n: done) and how
   * many seeds this one flooded; their sums (16 each) and first pixels are `sums()` and `starts()`.
   */
  batch(tol2: number, start: number, firstLabel: number, maxSeeds: number, startLimit: number): { next: number; seeds: number };
  sums(seeds: number): Float64Array;
  starts(seeds: number): Int32Array;
  /** Copies the labels into `into` and hands the kernel's memory back (the kernel is then done). */
  finish(into: Int32Array): void;
}

/**
 * A flood of this image in the kernel: its pixels copied in and labelled unlabelled. The segment
 * stack has room to the end of the memory, or (tests) `stackRoom` i32 before it must grow.
 */
export function floodKernel(
  width: number,
  height: number,
  rgb: Uint8Array,
  transparent: Uint8Array | null,
  maxSeeds: number,
  stackRoom?: number,
): FloodKernel {
  const kernel = loader.instance();
  const n = width * height;
  const rgbAt = LAYOUT_START;
  // the kernel reads a pixel's colour as four bytes: the transparency or the labels follow the RGB
  const clearAt = transparent ? after(rgbAt, 3 * n) : 0;
  const labelsAt = after(transparent ? clearAt : rgbAt, transparent ? n : 3 * n);
  const squaresAt = after(labelsAt, 4 * n);
  const sumsAt = after(squaresAt, 8 * (width + 1));
  const startsAt = after(sumsAt, 8 * SEED_NUMBERS * maxSeeds);
  const stackAt = after(startsAt, 4 * maxSeeds);
  const needed = stackAt + 4 * INITIAL_STACK;
  growTo(kernel.memory, needed);
  new Uint8Array(kernel.memory.buffer, rgbAt, 3 * n).set(rgb.subarray(0, 3 * n));
  if (transparent) new Uint8Array(kernel.memory.buffer, clearAt, n).set(transparent.subarray(0, n));
  kernel.prepare(labelsAt, clearAt, n, squaresAt, width);
  // the stack runs to the end of the memory, where growing it moves nothing
  kernel.setStack(stackAt, Math.min(stackRoom ?? Infinity, (kernel.memory.buffer.byteLength - stackAt) >> 2));
  return {
    batch(tol2, start, firstLabel, seedsAtMost, startLimit) {
      const next = kernel.floodBatch(
        width,
        height,
        rgbAt,
        clearAt,
        labelsAt,
        squaresAt,
        sumsAt,
        startsAt,
        tol2,
        start,
        firstLabel,
        Math.min(seedsAtMost, maxSeeds),
        startLimit,
      );
      return { next, seeds: kernel.floodedSeeds() };
    },
    // views made after each batch: a grown memory has a new buffer
    sums: (seeds) => new Float64Array(kernel.memory.buffer, sumsAt, SEED_NUMBERS * seeds),
    starts: (seeds) => new Int32Array(kernel.memory.buffer, startsAt, seeds),
    finish(into) {
      into.set(new Int32Array(kernel.memory.buffer, labelsAt, n));
      loader.release();
    },
  };
}

/** This thread's kernel memory in bytes (0 before the first flood); exported for its test. */
export function kernelMemoryBytes(): number {
  return loader.current()?.memory.buffer.byteLength ?? 0;
}
