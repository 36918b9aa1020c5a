/**
 * The cubic fit's kernel (./assembly/cubic-fit.ts, compiled into ./cubic-fit-module.ts) seen from
 * TypeScript. A fit's points and their turning are copied in once, on its first question (a run
 * is fitted many times over as it is split, and two neighbouring cubics are tried again as one);
 * the fit object names the points, which must not change while it is in use. The kernel's arrays
 * are laid out for the longest run met so far on this thread (the memory grows, and the views with
 * it). Each thread compiles the module once and keeps one instance.
 */
import type { CubicFit } from '../fit/index.js';
import { CUBIC_FIT_WASM } from './cubic-fit-module.js';
import { growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface CubicFitExports {
  memory: WebAssembly.Memory;
  layout(base: number, capacity: number): void;
  setPolicy(tolerance: number, newtonSteps: number, newtonReach: number, reachEachStep: boolean, splitWindow: number): void;
  fitOneCubic(first: number, last: number, t1x: number, t1y: number, t2x: number, t2y: number): number;
  fitCubics(first: number, last: number, t1x: number, t1y: number, t2x: number, t2y: number, depth: number): number;
}

const loader = kernelLoader<CubicFitExports>(CUBIC_FIT_WASM);
/** Points the layout holds, and views of its arrays (remade when the memory grows). */
let capacity = 0;
let xs = new Float64Array(0),
  ys = new Float64Array(0),
  turned = new Float64Array(0),
  bez = new Float64Array(0),
  emitted = new Float64Array(0);
/** The fit whose points the kernel holds. */
let loaded: CubicFit | null = null;

/** Fewest points laid out: most runs are shorter, so the layout rarely grows. */
const MIN_CAPACITY = 1024;
/** Numbers per cubic the kernel lists: first, last, the two tangents, the eight of the cubic. */
const EMITTED = 14;

function kernelFor(fit: CubicFit): CubicFitExports {
  const kernel = loader.instance();
  if (loaded === fit && xs.buffer === kernel.memory.buffer) return kernel;
  const count = fit.px.length;
  if (count > capacity || xs.buffer !== kernel.memory.buffer) {
    capacity = Math.max(count, 2 * capacity, MIN_CAPACITY);
    // xs, ys, turned, the parameters, the cubic, and a listed cubic a point at most
    growTo(kernel.memory, LAYOUT_START + 8 * (4 * capacity + 8 + EMITTED * capacity));
    kernel.layout(LAYOUT_START, capacity);
    const memory = kernel.memory.buffer;
    xs = new Float64Array(memory, LAYOUT_START, capacity);
    ys = new Float64Array(memory, LAYOUT_START + 8 * capacity, capacity);
    turned = new Float64Array(memory, LAYOUT_START + 16 * capacity, capacity);
    bez = new Float64Array(memory, LAYOUT_START + 32 * capacity, 8);
    emitted = new Float64Array(memory, LAYOUT_START + 32 * capacity + 64, EMITTED * capacity);
  }
  xs.set(fit.px);
  ys.set(fit.py.subarray(0, count));
  // a scratch buffer may run past the points
  turned.set(fit.turned.subarray(0, count));
  const { policy } = fit;
  kernel.setPolicy(fit.tolerance, policy.newtonSteps, policy.newtonReach, policy.newtonReachEachStep, policy.splitWindow);
  loaded = fit;
  return kernel;
}

/**
 * The least-squares cubic over the fit's points first..last with the given end tangents, into
 * `out`, after the policy's Newton steps: its largest error, or -1 when the points coincide.
 */
export function fitOneCubicInKernel(
  fit: CubicFit,
  first: number,
  last: number,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  out: Float64Array,
): number {
  const kernel = kernelFor(fit);
  const error = kernel.fitOneCubic(first, last, t1x, t1y, t2x, t2y);
  if (error >= 0) out.set(bez);
  return error;
}

/** The cubic handed to fit.emit: the eight numbers of each listed cubic in turn. */
const EMITTED_CUBIC = new Float64Array(8);

/**
 * engine/fit/index.ts fitCubics over the fit's points first..last in the kernel: each cubic it
 * accepts goes to fit.emit in order, as the recursion made them.
 */
export function fitCubicsInKernel(
  fit: CubicFit,
  first: number,
  last: number,
  t1x: number,
  t1y: number,
  t2x: number,
  t2y: number,
  depth: number,
): void {
  const count = kernelFor(fit).fitCubics(first, last, t1x, t1y, t2x, t2y, depth);
  for (let k = 0; k < count; k++) {
    const o = EMITTED * k;
    EMITTED_CUBIC.set(emitted.subarray(o + 6, o + 14));
    fit.emit(emitted[o], emitted[o + 1], emitted[o + 2], emitted[o + 3], emitted[o + 4], emitted[o + 5], EMITTED_CUBIC);
  }
}
