/**
 * The paint-sums kernel (./assembly/paint-sums.ts, compiled into ./paint-sums-module.ts) seen from
 * TypeScript: the region paints' sums pass and gradient sampling pass (engine/svg/compose.ts
 * planRegionPaints), with the labels (and for the sums the pixels) copied in band by band, each
 * band with the rows beside it, so the kernel's memory stays a band's worth and the regions'
 * whatever the image. Each thread compiles the module once and keeps one instance.
 */
import { PAINT_SUMS_WASM } from './paint-sums-module.js';
import { after, bandRowsFor, COPY_SLACK, copyIn, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface PaintSumsExports {
  memory: WebAssembly.Memory;
  beginSums(regionCount: number, sums: number, squares: number, innerSums: number, innerSquares: number, innerArea: number): void;
  sumBand(
    width: number,
    height: number,
    y0: number,
    y1: number,
    data: number,
    channels: number,
    labels: number,
    sums: number,
    squares: number,
    innerSums: number,
    innerSquares: number,
    innerArea: number,
  ): void;
  beginSamples(regionCount: number, untilNext: number): void;
  sampleBand(
    width: number,
    height: number,
    y0: number,
    y1: number,
    labels: number,
    step: number,
    byInner: number,
    untilNext: number,
    nextSample: number,
    out: number,
  ): number;
}

const loader = kernelLoader<PaintSumsExports>(PAINT_SUMS_WASM);

/** The labelled image both passes read. */
export interface PaintPixels {
  width: number;
  height: number;
  labels: Int32Array;
  regionCount: number;
  /** Tests only: about this many pixels a band (./kernel.ts bandRowsFor). */
  bandPixels?: number;
}

/** Per region: Σr, Σg, Σb (3 a region) and Σ(r² + g² + b²) of all its pixels, the same of its inner pixels, and how many those are. */
export interface PaintSums {
  sums: Float64Array;
  squares: Float64Array;
  innerSums: Float64Array;
  innerSquares: Float64Array;
  innerArea: Int32Array;
}

/** The sums pass in the kernel: `data` holds `channels` bytes a pixel, RGB first. */
export function paintSumsInKernel(pass: PaintPixels & { data: Uint8Array; channels: number }): PaintSums {
  const { width, height, labels, regionCount, data, channels } = pass;
  const kernel = loader.instance();
  const bandRows = bandRowsFor(width, pass.bandPixels);
  const rowsHeld = bandRows + 2;
  const sumsAt = LAYOUT_START;
  const squaresAt = after(sumsAt, 24 * regionCount);
  const innerSumsAt = after(squaresAt, 8 * regionCount);
  const innerSquaresAt = after(innerSumsAt, 24 * regionCount);
  const innerAreaAt = after(innerSquaresAt, 8 * regionCount);
  const labelsAt = after(innerAreaAt, 4 * regionCount);
  const dataAt = after(labelsAt, 4 * width * rowsHeld + COPY_SLACK);
  growTo(kernel.memory, after(dataAt, channels * width * bandRows + COPY_SLACK));
  kernel.beginSums(regionCount, sumsAt, squaresAt, innerSumsAt, innerSquaresAt, innerAreaAt);
  const memory = kernel.memory.buffer;
  for (let y0 = 0; y0 < height; y0 += bandRows) {
    const y1 = Math.min(height, y0 + bandRows);
    // the band and the rows above and below it (the inner test looks at them)
    const labelsHere = copyIn(memory, labelsAt, labels.subarray(Math.max(0, y0 - 1) * width, Math.min(height, y1 + 1) * width));
    const dataHere = copyIn(memory, dataAt, data.subarray(channels * y0 * width, channels * y1 * width));
    kernel.sumBand(width, height, y0, y1, dataHere, channels, labelsHere, sumsAt, squaresAt, innerSumsAt, innerSquaresAt, innerAreaAt);
  }
  return {
    sums: new Float64Array(memory, sumsAt, 3 * regionCount).slice(),
    squares: new Float64Array(memory, squaresAt, regionCount).slice(),
    innerSums: new Float64Array(memory, innerSumsAt, 3 * regionCount).slice(),
    innerSquares: new Float64Array(memory, innerSquaresAt, regionCount).slice(),
    innerArea: new Int32Array(memory, innerAreaAt, regionCount).slice(),
  };
}

/**
 * The sampling pass in the kernel: each region with a step (0: none) samples every step-th pixel
 * (inner pixel where `byInner`) in scan order, its first among them, into
 * sampled[nextSample[r] ..] (written straight into `sampled`, which may be shared memory).
 */
export function gradientSamplesInKernel(
  pass: PaintPixels & { step: Int32Array; byInner: Uint8Array; nextSample: Int32Array; sampled: Int32Array },
): void {
  const { width, height, labels, regionCount, sampled } = pass;
  const kernel = loader.instance();
  const bandRows = bandRowsFor(width, pass.bandPixels);
  const rowsHeld = bandRows + 2;
  const stepAt = LAYOUT_START;
  const untilNextAt = after(stepAt, 4 * regionCount);
  const nextSampleAt = after(untilNextAt, 4 * regionCount);
  const byInnerAt = after(nextSampleAt, 4 * regionCount);
  const labelsAt = after(byInnerAt, regionCount);
  const outAt = after(labelsAt, 4 * width * rowsHeld + COPY_SLACK);
  // at most a sample a pixel of the band: two numbers each
  growTo(kernel.memory, after(outAt, 8 * width * bandRows));
  const memory = kernel.memory.buffer;
  new Int32Array(memory, stepAt, regionCount).set(pass.step.subarray(0, regionCount));
  new Int32Array(memory, nextSampleAt, regionCount).set(pass.nextSample.subarray(0, regionCount));
  new Uint8Array(memory, byInnerAt, regionCount).set(pass.byInner.subarray(0, regionCount));
  kernel.beginSamples(regionCount, untilNextAt);
  const out = new Int32Array(memory, outAt, 2 * width * bandRows);
  for (let y0 = 0; y0 < height; y0 += bandRows) {
    const y1 = Math.min(height, y0 + bandRows);
    const labelsHere = copyIn(memory, labelsAt, labels.subarray(Math.max(0, y0 - 1) * width, Math.min(height, y1 + 1) * width));
    const pairs = kernel.sampleBand(width, height, y0, y1, labelsHere, stepAt, byInnerAt, untilNextAt, nextSampleAt, outAt);
    for (let k = 0; k < 2 * pairs; k += 2) sampled[out[k]] = out[k + 1];
  }
}
