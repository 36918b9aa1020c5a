/**
 * The paint-sums kernel (./assembly/paint-sums.ts, compiled into ./paint-sums-module.ts) seen from
 * TypeScript: the region paints' sums pass (engine/svg/compose.ts planRegionPaints), with the
 * labels and pixels copied in band by band, each band with the rows beside it, so the kernel's
 * memory stays a band's worth and the regions' whatever the image. Each thread compiles the module
 * once and keeps one instance.
 */
import { PAINT_SUMS_WASM } from './paint-sums-module.js';
import { after, bandRowsFor, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

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
}

const loader = kernelLoader<PaintSumsExports>(PAINT_SUMS_WASM);

/** The labelled image the pass reads. */
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
  const dataAt = after(labelsAt, 4 * width * rowsHeld);
  growTo(kernel.memory, after(dataAt, channels * width * bandRows));
  kernel.beginSums(regionCount, sumsAt, squaresAt, innerSumsAt, innerSquaresAt, innerAreaAt);
  const memory = kernel.memory.buffer;
  const kernelLabels = new Int32Array(memory, labelsAt, width * rowsHeld),
    kernelData = new Uint8Array(memory, dataAt, channels * width * bandRows);
  for (let y0 = 0; y0 < height; y0 += bandRows) {
    const y1 = Math.min(height, y0 + bandRows);
    // the band and the rows above and below it (the inner test looks at them)
    kernelLabels.set(labels.subarray(Math.max(0, y0 - 1) * width, Math.min(height, y1 + 1) * width));
    kernelData.set(data.subarray(channels * y0 * width, channels * y1 * width));
    kernel.sumBand(width, height, y0, y1, dataAt, channels, labelsAt, sumsAt, squaresAt, innerSumsAt, innerSquaresAt, innerAreaAt);
  }
  return {
    sums: new Float64Array(memory, sumsAt, 3 * regionCount).slice(),
    squares: new Float64Array(memory, squaresAt, regionCount).slice(),
    innerSums: new Float64Array(memory, innerSumsAt, 3 * regionCount).slice(),
    innerSquares: new Float64Array(memory, innerSquaresAt, regionCount).slice(),
    innerArea: new Int32Array(memory, innerAreaAt, regionCount).slice(),
  };
}
