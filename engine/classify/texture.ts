/**
 * Fine texture of the full-resolution image, the one thing the 256-px thumbnail averages away.
 *
 * A photograph keeps sensor noise, film grain or JPEG texture even in its calmest sky; vector art
 * drawn by a renderer is exactly flat or exactly smooth there; a print or scan has paper grain,
 * halftone dots and scanner noise on its page. Measured on pixels away from edges (a small central
 * difference), as the second difference of luma: it is zero on a flat fill and on a linear
 * gradient (up to rounding), and it is what noise and grain are made of.
 *
 * Read on a grid of at most GRID_SIDE × GRID_SIDE centres, each with its four neighbours at one
 * and at two pixels, so the cost does not grow with the image (a 50 MP input reads ~0.6 M pixels).
 */
import type { RgbaImage } from '../types.js';
import { luma601 } from '../luma.js';

const GRID_SIDE = 256;

/** A centre whose central difference exceeds this many levels sits on an edge, not in a calm area. */
const CALM_GRADIENT = 8;

/**
 * Bins of the second difference (|l+r-2c| + |u+d-2c|, luma levels) on calm centres: exactly flat or
 * linear, rounding of a smooth gradient, faint noise, clear noise or grain, texture.
 */
const FINE_BINS = [0.5, 2, 4, 8];
/** The same at a distance of two pixels: grain that survives a JPEG encoder's smoothing. */
const WIDE_BINS = [1, 4];

export const TEXTURE_FEATURE_NAMES: readonly string[] = Object.freeze([
  'texture_calm_share',
  ...Array.from({ length: FINE_BINS.length + 1 }, (_, i) => `texture_fine_${i}`),
  'texture_fine_mean',
  ...Array.from({ length: WIDE_BINS.length + 1 }, (_, i) => `texture_wide_${i}`),
]);

function binOf(value: number, edges: readonly number[]): number {
  let bin = 0;
  while (bin < edges.length && value >= edges[bin]) bin++;
  return bin;
}

/**
 * Luma of the pixel at byte offset `i`, flattened on white as the thumbnail flattens it. A
 * module function, not a closure made per call: a second image's call found a new closure where
 * the optimised loop expected the first one and fell back to baseline code.
 */
function flatLuma(data: Uint8Array, i: number): number {
  const a = data[i + 3];
  if (a === 255) return luma601(data[i], data[i + 1], data[i + 2]);
  const k = a / 255,
    w = 255 * (1 - k);
  return luma601(data[i] * k + w, data[i + 1] * k + w, data[i + 2] * k + w);
}

/** The texture features of one image (length TEXTURE_FEATURE_NAMES.length). */
export function textureFeatures(image: RgbaImage): number[] {
  const { width, height, data } = image;
  const out = new Array<number>(TEXTURE_FEATURE_NAMES.length).fill(0);
  if (width < 5 || height < 5) return out;
  const stepX = Math.max(1, Math.ceil((width - 4) / GRID_SIDE));
  const stepY = Math.max(1, Math.ceil((height - 4) / GRID_SIDE));
  const fine = new Float64Array(FINE_BINS.length + 1);
  const wide = new Float64Array(WIDE_BINS.length + 1);
  let centres = 0,
    calm = 0,
    fineSum = 0;
  const right = 4,
    down = width * 4;
  for (let y = 2; y < height - 2; y += stepY) {
    for (let x = 2; x < width - 2; x += stepX) {
      centres++;
      const i = (y * width + x) * 4;
      const c = flatLuma(data, i);
      const l = flatLuma(data, i - right),
        r = flatLuma(data, i + right),
        u = flatLuma(data, i - down),
        d = flatLuma(data, i + down);
      if (Math.max(Math.abs(r - l), Math.abs(d - u)) > CALM_GRADIENT) continue;
      calm++;
      const second = Math.abs(l + r - 2 * c) + Math.abs(u + d - 2 * c);
      fine[binOf(second, FINE_BINS)]++;
      fineSum += second;
      const wideSecond =
        Math.abs(flatLuma(data, i - 2 * right) + flatLuma(data, i + 2 * right) - 2 * c) +
        Math.abs(flatLuma(data, i - 2 * down) + flatLuma(data, i + 2 * down) - 2 * c);
      wide[binOf(wideSecond, WIDE_BINS)]++;
    }
  }
  const calmTotal = Math.max(1, calm);
  let k = 0;
  out[k++] = calm / Math.max(1, centres);
  for (const v of fine) out[k++] = v / calmTotal;
  // log scale: most calm areas sit between 0 and a few levels, texture reaches tens.
  out[k++] = Math.log2(1 + fineSum / calmTotal) / 6;
  for (const v of wide) out[k++] = v / calmTotal;
  return out;
}
