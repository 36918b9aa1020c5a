/**
 * The gradient fitter's kernel (./assembly/gradient-fit.ts, compiled into ./gradient-fit-module.ts)
 * seen from TypeScript: views of the sample arrays the caller fills (engine/fit/gradient.ts), and of
 * the block where the kernel leaves the winning candidate. A fit's memory is the same size whatever
 * the region (at most MAX_SAMPLES samples), so it is laid out once per thread and never grows: the
 * views stay valid. JavaScript's own atan2, cos, sin and pow are handed in, so the kernel's angles
 * are the bits the TypeScript fitter had.
 */
import { GRADIENT_FIT_WASM } from './gradient-fit-module.js';
import { growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface GradientFitExports {
  memory: WebAssembly.Memory;
  layoutBytes(capacity: number): number;
  layout(base: number, capacity: number): number;
  flatResidual(count: number): number;
  choose(count: number, startBound: number, flatLimit: number): number;
}

/** What `choose` returns: no gradient beats the flat fill, or the kind of the one that does. */
export const NO_FILL = 0;
export const LINEAR = 1;
export const RADIAL = 2;
export const ELLIPTICAL = 3;

/** Where the winner's numbers lie in `best` (the kernel's OUT_* offsets). */
export const BEST_RESIDUAL = 1;
/** Linear: mx, my, lo, hi, dx, dy. Radial: cx, cy, lo, hi, then (elliptical) the angle and ratio. */
export const BEST_PARAMS = 2;
export const BEST_STOP_COUNT = 8;
export const BEST_STOP_OFFSETS = 9;
export const BEST_STOP_COLOURS = 13;

export interface GradientFitKernel {
  /** The samples' pixel centres, colours and luma slopes, `capacity` each, filled by the caller. */
  x: Float64Array;
  y: Float64Array;
  r: Float64Array;
  g: Float64Array;
  b: Float64Array;
  gx: Float64Array;
  gy: Float64Array;
  /** The winning candidate, read after `choose`. */
  best: Float64Array;
  flatResidual(count: number): number;
  choose(count: number, startBound: number, flatLimit: number): number;
}

const loader = kernelLoader<GradientFitExports>(GRADIENT_FIT_WASM, {
  env: { atan2: Math.atan2, cos: Math.cos, sin: Math.sin, pow: Math.pow },
});
let laidOut: GradientFitKernel | null = null;

/** This thread's fit kernel, laid out for `capacity` samples (the same capacity on every call). */
export function gradientFitKernel(capacity: number): GradientFitKernel {
  if (laidOut) return laidOut;
  const kernel = loader.instance();
  growTo(kernel.memory, LAYOUT_START + kernel.layoutBytes(capacity));
  const bestAt = kernel.layout(LAYOUT_START, capacity);
  const memory = kernel.memory.buffer;
  const view = (k: number) => new Float64Array(memory, LAYOUT_START + 8 * capacity * k, capacity);
  laidOut = {
    x: view(0),
    y: view(1),
    r: view(2),
    g: view(3),
    b: view(4),
    gx: view(5),
    gy: view(6),
    best: new Float64Array(memory, bestAt, BEST_STOP_COLOURS + 12),
    flatResidual: kernel.flatResidual,
    choose: kernel.choose,
  };
  return laidOut;
}
