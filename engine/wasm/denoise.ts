/**
 * The denoise kernel (./assembly/denoise.ts, compiled into ./denoise-module.ts) seen from
 * TypeScript: rows go in band by band with the rows beside them and come out smoothed, so the
 * kernel's memory stays a band's worth whatever the image; the abort signal is looked at
 * between bands. Each thread compiles
 * the module once and keeps one instance.
 */
import { checkAbort, type StageContext } from '../stage.js';
import { DENOISE_WASM } from './denoise-module.js';
import { after, bandRowsFor, growTo, kernelLoader, LAYOUT_START } from './kernel.js';

interface DenoiseExports {
  memory: WebAssembly.Memory;
  smoothBand(
    rgb: number,
    clear: number,
    out: number,
    scratch: number,
    width: number,
    height: number,
    y0: number,
    y1: number,
    range: number,
  ): void;
}

const loader = kernelLoader<DenoiseExports>(DENOISE_WASM);

/**
 * Rows fromRow to toRow - 1 of `rgb` (3 bytes a pixel) smoothed into the same rows of `out`;
 * `transparent` (a byte a pixel) only for an image with transparent pixels, else null; `bandPixels`
 * for tests only (./kernel.ts bandRowsFor).
 */
export function smoothRowsInKernel(
  rgb: Uint8Array,
  transparent: Uint8Array | null,
  width: number,
  height: number,
  range: number,
  context: StageContext,
  fromRow: number,
  toRow: number,
  out: Uint8Array,
  bandPixels?: number,
): void {
  const kernel = loader.instance();
  const bandRows = bandRowsFor(width, bandPixels);
  const rowsHeld = bandRows + 2;
  const rgbAt = LAYOUT_START;
  const clearAt = after(rgbAt, 3 * width * rowsHeld);
  const outAt = after(clearAt, transparent ? width * rowsHeld : 0);
  // the kernel's own: the rows held split by channel, then 8 neighbour offsets
  const scratchAt = after(outAt, 3 * width * bandRows);
  const end = after(scratchAt, 3 * width * rowsHeld + 32);
  growTo(kernel.memory, end);
  const memory = kernel.memory.buffer;
  const kernelRgb = new Uint8Array(memory, rgbAt, 3 * width * rowsHeld),
    kernelClear = new Uint8Array(memory, clearAt, transparent ? width * rowsHeld : 0),
    kernelOut = new Uint8Array(memory, outAt, 3 * width * bandRows);
  for (let y0 = fromRow; y0 < toRow; y0 += bandRows) {
    checkAbort(context);
    const y1 = Math.min(toRow, y0 + bandRows);
    const first = Math.max(0, y0 - 1) * width,
      last = Math.min(height, y1 + 1) * width;
    kernelRgb.set(rgb.subarray(3 * first, 3 * last));
    if (transparent) kernelClear.set(transparent.subarray(first, last));
    kernel.smoothBand(rgbAt, transparent ? clearAt : 0, outAt, scratchAt, width, height, y0, y1, range);
    out.set(kernelOut.subarray(0, 3 * width * (y1 - y0)), 3 * y0 * width);
  }
}
