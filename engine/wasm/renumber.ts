/**
 * The renumbering kernel (./assembly/renumber.ts, compiled into ./renumber-module.ts) seen from
 * TypeScript: the labels go in and back out a stretch of BAND_PIXELS at a time, so the kernel's
 * memory stays a stretch's worth whatever the image; the new numbers, areas and kinds carry over
 * from one stretch to the next. Each thread compiles the module once and keeps one instance.
 */
import { RENUMBER_WASM } from './renumber-module.js';
import { after, BAND_PIXELS, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface RenumberExports {
  memory: WebAssembly.Memory;
  renumber(
    labels: number,
    n: number,
    joinedInto: number,
    compact: number,
    area: number,
    clearIn: number,
    clearOut: number,
    count: number,
  ): number;
}

const loader = kernelLoader<RenumberExports>(RENUMBER_WASM);

/** What the renumbering gives besides the labels (rewritten in place). */
export interface Renumbered {
  /** Regions left. */
  count: number;
  /** Each old group's new number (-1: none of its pixels is left). */
  compact: Int32Array;
  /** Pixels per new region. */
  area: Int32Array;
  /** 1 for a new region of transparent pixels. */
  transparent: Uint8Array;
}

/**
 * Renumbers `labels` in place in scan order of first appearance: a pixel of region r goes to
 * `joinedInto[r]` (null: every region stays itself), and regions left without pixels disappear.
 * `transparent` is indexed by the old numbers. Tests pass a smaller `stretch`.
 */
export function renumberInKernel(
  labels: Int32Array,
  regionCount: number,
  transparent: Uint8Array,
  joinedInto: Int32Array | null,
  stretch = BAND_PIXELS,
): Renumbered {
  const kernel = loader.instance();
  const n = labels.length;
  const held = Math.min(n, stretch);
  const joinedAt = LAYOUT_START;
  const compactAt = after(joinedAt, joinedInto ? 4 * regionCount : 0);
  const areaAt = after(compactAt, 4 * regionCount);
  const clearInAt = after(areaAt, 4 * regionCount);
  const clearOutAt = after(clearInAt, regionCount);
  const labelsAt = after(clearOutAt, regionCount);
  growTo(kernel.memory, after(labelsAt, 4 * held));
  const memory = kernel.memory.buffer;
  if (joinedInto) new Int32Array(memory, joinedAt, regionCount).set(joinedInto.subarray(0, regionCount));
  new Int32Array(memory, compactAt, regionCount).fill(-1);
  new Int32Array(memory, areaAt, regionCount).fill(0);
  new Uint8Array(memory, clearInAt, regionCount).set(transparent.subarray(0, regionCount));
  const kernelLabels = new Int32Array(memory, labelsAt, held);
  let count = 0;
  for (let from = 0; from < n; from += held) {
    const to = Math.min(n, from + held);
    kernelLabels.set(labels.subarray(from, to));
    count = kernel.renumber(labelsAt, to - from, joinedInto ? joinedAt : 0, compactAt, areaAt, clearInAt, clearOutAt, count);
    labels.set(kernelLabels.subarray(0, to - from), from);
  }
  return {
    count,
    compact: new Int32Array(memory, compactAt, regionCount).slice(),
    area: new Int32Array(memory, areaAt, count).slice(),
    transparent: new Uint8Array(memory, clearOutAt, count).slice(),
  };
}
