/**
 * Prepare stage: nothing is composited away. The image keeps its own colours; pixels whose alpha is
 * below the threshold are marked transparent (they become regions that are never painted), and
 * photo/scan presets get a light edge-preserving smoothing so sensor noise does not shatter flat
 * areas into specks. Segmentation reads `rgb`; fills are coloured from the untouched `source`.
 */
import type { PrepareSettings } from '../settings.js';
import type { RasterImage } from '../types.js';
import type { StageContext } from '../stage.js';
import { SparePool } from '../scratch.js';
import { smoothRowsInKernel } from '../wasm/denoise.js';

export interface PreparedImage {
  width: number;
  height: number;
  /** The decoded image as given (straight RGBA, or RGB when opaque), used to colour the fills. */
  source: RasterImage;
  /** RGB the segmentation compares, 3 bytes per pixel (smoothed where the preset asks). */
  rgb: Uint8Array;
  /** 1 where the pixel is transparent (alpha < threshold). */
  transparent: Uint8Array;
  hasTransparency: boolean;
}

export function prepareImage(image: RasterImage, settings: PrepareSettings, context: StageContext): PreparedImage {
  const prepared = prepareUnsmoothed(image, settings);
  const { width, height, transparent, hasTransparency } = prepared;
  for (let pass = 0; pass < settings.denoisePasses; pass++) {
    const before = prepared.rgb;
    prepared.rgb = smoothSimilar(
      before,
      transparent,
      hasTransparency,
      width,
      height,
      settings.denoiseRange,
      context,
      0,
      height,
      takeSmoothed(before.length),
    );
    releaseSmoothed(before);
  }
  return prepared;
}

/**
 * Denoised RGB buffers, kept from a finished trace for the next one on this thread: a pass
 * writing fresh pages ran twice as long as one writing kept ones (each page faulted in on first
 * write). Only buffers taken here go back; the decoded image's own bytes never do.
 */
const spareSmoothed = new SparePool((bytes) => new ArrayBuffer(bytes), 1, 64 << 20);
const smoothedBuffers = new WeakSet<ArrayBufferLike>();

/** A buffer for a denoise pass's output of `length` bytes, contents undefined. */
export function takeSmoothed(length: number): Uint8Array {
  const buffer = spareSmoothed.take(length);
  smoothedBuffers.add(buffer);
  return new Uint8Array(buffer, 0, length);
}

/**
 * Hands a denoised RGB buffer (a PreparedImage's `rgb` once nothing reads it any more) back for
 * the next trace; anything takeSmoothed did not make is left alone.
 */
export function releaseSmoothed(rgb: Uint8Array): void {
  if (smoothedBuffers.has(rgb.buffer)) spareSmoothed.giveBack(rgb.buffer as ArrayBuffer);
}

/** prepareImage without the denoise passes (engine/parallel/banded-denoise.ts runs those in halves). */
export function prepareUnsmoothed(image: RasterImage, settings: PrepareSettings): PreparedImage {
  const { width, height, data } = image;
  const n = width * height;
  const transparent = new Uint8Array(n);
  let hasTransparency = false;
  // An RGB image is already what the segmentation compares: read in place (nothing writes to it).
  let rgb: Uint8Array<ArrayBufferLike> = data;
  if (image.channels !== 3) {
    rgb = new Uint8Array(n * 3);
    for (let i = 0; i < n; i++) {
      rgb[i * 3] = data[i * 4];
      rgb[i * 3 + 1] = data[i * 4 + 1];
      rgb[i * 3 + 2] = data[i * 4 + 2];
      if (data[i * 4 + 3] < settings.alphaThreshold) {
        transparent[i] = 1;
        hasTransparency = true;
      }
    }
  }
  return { width, height, source: image, rgb, transparent, hasTransparency };
}

/**
 * One pass of a 3×3 "sigma filter": each pixel becomes the mean of itself and the neighbours whose
 * colour lies within `range` of it. Edges survive (the other side is out of range), noise averages out.
 * Rows `fromRow` to `toRow` - 1 are written to `out` (the whole image by default); each reads only
 * its own row and the two beside it, so halves computed apart are the whole computed at once.
 */
export function smoothSimilar(
  rgb: Uint8Array,
  transparent: Uint8Array,
  hasTransparency: boolean,
  width: number,
  height: number,
  range: number,
  context: StageContext,
  fromRow = 0,
  toRow = height,
  out: Uint8Array = new Uint8Array(rgb.length),
): Uint8Array {
  // In WebAssembly (engine/wasm/assembly/denoise.ts): the same sums and roundings, the same bytes.
  smoothRowsInKernel(rgb, hasTransparency ? transparent : null, width, height, range, context, fromRow, toRow, out);
  return out;
}
