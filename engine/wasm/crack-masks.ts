/**
 * The crack-mask kernel (./assembly/crack-masks.ts, compiled into ./crack-masks-module.ts) seen
 * from TypeScript: the labels copied in, every vertex's crack mask and a copy of it (the cracks
 * not traced yet) made there, and the junctions listed. The masks are views of the kernel's
 * memory, read and cleared in place by the walks (engine/boundary/index.ts) until release(). Each
 * thread compiles the module once and keeps one instance; its memory is kept for the next trace up
 * to ./kernel.ts KEPT_MEMORY, and let go after a larger image.
 */
import { CRACK_MASKS_WASM } from './crack-masks-module.js';
import { after, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface CrackMaskExports {
  memory: WebAssembly.Memory;
  crackMasks(labels: number, width: number, height: number, cracks: number, untraced: number): number;
  listJunctions(cracks: number, vertices: number, out: number): number;
  nextLoopStart(untraced: number, from: number, vertices: number): number;
}

const loader = kernelLoader<CrackMaskExports>(CRACK_MASKS_WASM);

/** An image's crack masks, (width + 1) · (height + 1) vertices, a row of vertices after another. */
export interface CrackMasks {
  /** Per vertex, bit d: a boundary crack leaves it in direction d (east, south, west, north). */
  cracks: Uint8Array;
  /** The same bits, cleared by the walks as they trace each crack. */
  untraced: Uint8Array;
  /** Boundary cracks, the image's frame included. */
  boundaryCracks: number;
  /** The vertices where three or more cracks meet, in scan order. */
  junctions: Int32Array;
  /** The first vertex from `from` on whose eastward crack is still untraced, or the vertex count. */
  nextLoopStart(from: number): number;
  /** Done with the masks: the views must not be read after this. */
  release(): void;
}

export function crackMasksInKernel(labels: Int32Array, width: number, height: number): CrackMasks {
  const kernel = loader.instance();
  const n = width * height;
  const vertices = (width + 1) * (height + 1);
  const labelsAt = LAYOUT_START;
  const cracksAt = after(labelsAt, 4 * n);
  const untracedAt = after(cracksAt, vertices);
  const junctionsAt = after(untracedAt, vertices);
  growTo(kernel.memory, junctionsAt);
  new Int32Array(kernel.memory.buffer, labelsAt, n).set(labels.subarray(0, n));
  const boundaryCracks = kernel.crackMasks(labelsAt, width, height, cracksAt, untracedAt);
  // each junction ends three cracks or more, and each crack has two ends
  growTo(kernel.memory, after(junctionsAt, 4 * (Math.floor((2 * boundaryCracks) / 3) + 1)));
  const junctions = kernel.listJunctions(cracksAt, vertices, junctionsAt);
  const memory = kernel.memory.buffer;
  return {
    cracks: new Uint8Array(memory, cracksAt, vertices),
    untraced: new Uint8Array(memory, untracedAt, vertices),
    boundaryCracks,
    junctions: new Int32Array(memory, junctionsAt, junctions),
    nextLoopStart: (from) => kernel.nextLoopStart(untracedAt, from, vertices),
    release() {
      loader.release();
    },
  };
}
