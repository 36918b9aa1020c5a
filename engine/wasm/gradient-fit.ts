/**
 * The gradient fitter's kernel (./assembly/gradient-fit.ts, compiled into ./gradient-fit-module.ts)
 * seen from TypeScript: views of the sample arrays (engine/fit/gradient.ts fills them, or has the
 * kernel fill them from the image) and of the block where the kernel leaves the winning candidate.
 * A fit's own memory is the same size whatever the region (at most MAX_SAMPLES samples); after it
 * the kernel holds the image's pixels while a caller's fits run in withImageInKernel, copied row by
 * row as the fits reach them. JavaScript's own atan2, cos, sin and pow are handed in, so the
 * kernel's angles are the bits the TypeScript fitter had.
 */
import type { RasterImage } from '../types.js';
import { GRADIENT_FIT_WASM } from './gradient-fit-module.js';
import { after, growTo, kernelLoader, LAYOUT_START, placedLike } from './kernel.js';

interface GradientFitExports {
  memory: WebAssembly.Memory;
  layoutBytes(capacity: number): number;
  layout(base: number, capacity: number): number;
  setImage(at: number, width: number, height: number, channels: number, indices: number): void;
  sampleImage(count: number): void;
  slopesFromImage(count: number): void;
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
  /** The samples' pixel centres, colours and luma slopes, `capacity` each. */
  x: Float64Array;
  y: Float64Array;
  r: Float64Array;
  g: Float64Array;
  b: Float64Array;
  gx: Float64Array;
  gy: Float64Array;
  /** The sampled pixels' indices, for sampleImage and slopesFromImage. */
  indices: Int32Array;
  /** The winning candidate, read after `choose`. */
  best: Float64Array;
  flatResidual(count: number): number;
  choose(count: number, startBound: number, flatLimit: number): number;
  /** Samples (positions and colours) and their slopes from the image held in the kernel. */
  sampleImage(count: number): void;
  slopesFromImage(count: number): void;
}

const loader = kernelLoader<GradientFitExports>(GRADIENT_FIT_WASM, {
  env: { atan2: Math.atan2, cos: Math.cos, sin: Math.sin, pow: Math.pow },
});
let views: GradientFitKernel | null = null;
/**
 * Samples the layout holds (engine/fit/gradient.ts MAX_SAMPLES: the same on every call), where the
 * sampled pixels' indices lie (after the fit's layout), and where a held image starts (after them).
 */
let capacity = 0,
  indicesAt = 0,
  imageAt = 0;
/** Where the held image's bytes start: imageAt, or up to 7 bytes on. */
let heldAt = 0;

/** The layout's offsets for `samples` samples, worked out on this thread's first call. */
function layOut(samples: number): GradientFitExports {
  const kernel = loader.instance();
  if (capacity !== samples) {
    capacity = samples;
    indicesAt = after(LAYOUT_START, kernel.layoutBytes(capacity));
    imageAt = after(indicesAt, 4 * capacity);
  }
  return kernel;
}

/** This thread's fit kernel, laid out for `samples` samples (the same number on every call). */
export function gradientFitKernel(samples: number): GradientFitKernel {
  const kernel = layOut(samples);
  if (views && views.x.buffer === kernel.memory.buffer) return views;
  growTo(kernel.memory, imageAt);
  const bestAt = kernel.layout(LAYOUT_START, capacity);
  const memory = kernel.memory.buffer;
  const view = (k: number) => new Float64Array(memory, LAYOUT_START + 8 * capacity * k, capacity);
  views = {
    x: view(0),
    y: view(1),
    r: view(2),
    g: view(3),
    b: view(4),
    gx: view(5),
    gy: view(6),
    indices: new Int32Array(memory, indicesAt, capacity),
    best: new Float64Array(memory, bestAt, BEST_STOP_COLOURS + 12),
    flatResidual: kernel.flatResidual,
    choose: kernel.choose,
    sampleImage: kernel.sampleImage,
    slopesFromImage: kernel.slopesFromImage,
  };
  return views;
}

/**
 * Images up to this many pixels are held in the kernel while their fits run (their samples and
 * slopes then read there, a few times faster than here); larger ones are sampled in JavaScript, so
 * a thread's kernel keeps at most about 16 MB of image between traces.
 */
const MAX_HELD_PIXELS = 1 << 22;

/** The image held while fits run, whether the kernel has its place yet, and which of its rows are in. */
let held: RasterImage | null = null;
let placed = false;
let rowsIn = new Uint8Array(0);

/**
 * Runs `fits` with `image` held in this thread's fit kernel: choosePaint then takes a region's
 * samples and slopes there (rows copied in as its fits reach them, each once). The image's pixels
 * must not change meanwhile. Nested calls, and images over `maxPixels`, hold nothing.
 */
export function withImageInKernel<T>(image: RasterImage, fits: () => T, maxPixels = MAX_HELD_PIXELS): T {
  if (held !== null || image.width * image.height > maxPixels) return fits();
  if (rowsIn.length < image.height) rowsIn = new Uint8Array(image.height);
  else rowsIn.fill(0, 0, image.height);
  held = image;
  placed = false;
  try {
    return fits();
  } finally {
    held = null;
  }
}

/** Whether withImageInKernel holds `image` now. */
export function isHeld(image: RasterImage): boolean {
  return held === image;
}

/**
 * Whether `image` is held (withImageInKernel) for fits of `samples` samples at most: then the
 * rows its samples reach (`firstRow` to `lastRow` and one more each way, for the slopes) are
 * copied in, and the kernel can sample it. Call before gradientFitKernel: the kernel's memory may
 * grow here.
 */
export function holdsRows(image: RasterImage, firstRow: number, lastRow: number, samples: number): boolean {
  if (held !== image) return false;
  const channels = image.channels ?? 4;
  const rowBytes = channels * image.width;
  const kernel = layOut(samples);
  if (!placed) {
    // every row copied in lies as it does in the image's buffer modulo 8 (a worker's image is shared)
    heldAt = placedLike(image.data, imageAt);
    growTo(kernel.memory, heldAt + rowBytes * image.height);
    kernel.setImage(heldAt, image.width, image.height, channels, indicesAt);
    placed = true;
  }
  const from = Math.max(0, firstRow - 1),
    to = Math.min(image.height - 1, lastRow + 1);
  for (let y = from; y <= to;) {
    if (rowsIn[y]) {
      y++;
      continue;
    }
    let end = y;
    while (end <= to && !rowsIn[end]) rowsIn[end++] = 1;
    new Uint8Array(kernel.memory.buffer, heldAt + y * rowBytes, (end - y) * rowBytes).set(
      image.data.subarray(y * rowBytes, end * rowBytes),
    );
    y = end;
  }
  return true;
}
