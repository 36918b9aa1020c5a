import type { PaintPixels, PaintSums } from '../../../engine/wasm/paint-sums.js';
import { runEnd } from '../../../engine/segment/renumber.js';

/**
 * The region paints' sums pass in TypeScript as engine/svg/compose.ts planRegionPaints ran it
 * before it went to WebAssembly (engine/wasm/assembly/paint-sums.ts): the reference the kernel is
 * held to. Run by run along the rows: a pixel of a run has its left and right neighbours in the
 * region except at the run's ends, so only the rows above and below are read per pixel.
 */
export function referencePaintSums(pass: PaintPixels & { data: Uint8Array; channels: number }): PaintSums {
  const { width, height, labels, regionCount, data, channels } = pass;
  const sums = new Float64Array(regionCount * 3);
  const squares = new Float64Array(regionCount);
  const innerSums = new Float64Array(regionCount * 3);
  const innerSquares = new Float64Array(regionCount);
  const innerArea = new Int32Array(regionCount);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let start = 0; start < width;) {
      const l = labels[row + start];
      const end = runEnd(labels, row + start, row + width) - row;
      let red = 0,
        green = 0,
        blue = 0,
        square = 0;
      let innerRed = 0,
        innerGreen = 0,
        innerBlue = 0,
        innerSquare = 0,
        innerCount = 0;
      for (let x = start; x < end; x++) {
        const p = row + x,
          o = p * channels;
        const r = data[o],
          g = data[o + 1],
          b = data[o + 2];
        const rgbSquare = r * r + g * g + b * b;
        red += r;
        green += g;
        blue += b;
        square += rgbSquare;
        if (innerInRowRun(labels, width, height, x, y, start, end)) {
          innerRed += r;
          innerGreen += g;
          innerBlue += b;
          innerSquare += rgbSquare;
          innerCount++;
        }
      }
      sums[3 * l] += red;
      sums[3 * l + 1] += green;
      sums[3 * l + 2] += blue;
      squares[l] += square;
      innerSums[3 * l] += innerRed;
      innerSums[3 * l + 1] += innerGreen;
      innerSums[3 * l + 2] += innerBlue;
      innerSquares[l] += innerSquare;
      innerArea[l] += innerCount;
      start = end;
    }
  }
  return { sums, squares, innerSums, innerSquares, innerArea };
}

/**
 * The gradient sampling pass as planRegionPaints' gradientSamples ran it in TypeScript: in scan
 * order, run by run as the sums pass counted the inner pixels, other regions' runs skipped. Each
 * region with a step samples its first pixel (inner pixel where byInner) and every step-th after
 * it into sampled[nextSample[r] ..] (`nextSample` is advanced).
 */
export function referenceGradientSamples(
  pass: PaintPixels & { step: Int32Array; byInner: Uint8Array; nextSample: Int32Array; sampled: Int32Array },
): void {
  const { width, height, labels, regionCount, step, byInner, nextSample, sampled } = pass;
  // pixels of each region still to pass before its next sample (its first pixel is sampled)
  const untilNext = new Int32Array(regionCount).fill(1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let start = 0; start < width;) {
      const r = labels[row + start];
      const end = runEnd(labels, row + start, row + width) - row;
      if (step[r] !== 0) {
        const innerOnly = byInner[r] === 1;
        for (let x = start; x < end; x++) {
          const p = row + x;
          if (innerOnly && !innerInRowRun(labels, width, height, x, y, start, end)) continue;
          if (--untilNext[r] !== 0) continue;
          untilNext[r] = step[r];
          sampled[nextSample[r]++] = p;
        }
      }
      start = end;
    }
  }
}

/**
 * Whether pixel (x, y), in the row run [start, end) of one label, is an inner pixel of its region:
 * all four neighbours in it. Left and right are, except at the run's ends (unless that end is the
 * image's edge), so only the rows above and below are read.
 */
function innerInRowRun(labels: Int32Array, width: number, height: number, x: number, y: number, start: number, end: number): boolean {
  if ((x === start && start > 0) || (x === end - 1 && end < width)) return false;
  const p = y * width + x,
    l = labels[p];
  return (y === 0 || labels[p - width] === l) && (y + 1 === height || labels[p + width] === l);
}
