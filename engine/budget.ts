/**
 * A trace's memory grows with how busy the image is, not with its size alone: every pixel that
 * differs from its neighbours starts a region of its own, with its moment sums, boundary chains and
 * fitted curves. A 16 MP photo peaks near 0.6 GB, while 16 MP of pure noise (a valid PNG a trial
 * key may send) peaked at 3.0 GB and traced for minutes. An image with more busy pixels than
 * MAX_BUSY_PIXELS is traced from a copy scaled down until it has no more than that; the SVG keeps
 * the original's width and height, its viewBox is the traced size. Images that are not that busy
 * (every image up to MAX_BUSY_PIXELS pixels, and photos, drawings and clip art far larger) are
 * traced as they are.
 */
import { sharp } from './sharp.js';
import { decodeRaster, type DecodedRaster } from './decode/index.js';

/**
 * 2 MP of pure noise peaked at 1.05 GB for the whole process on the line-art path (the costliest);
 * 1.5 M busy pixels keeps a 16 MP noise trace, decode of the original included, under 1.5 GB.
 */
const MAX_BUSY_PIXELS = 1_500_000;
/** A step larger than this on any channel to the right or lower neighbour makes a pixel busy. */
const BUSY_STEP = 24;

/**
 * Pixels whose colour jumps by more than BUSY_STEP to the right or lower neighbour. Every image over
 * MAX_BUSY_PIXELS pays this pass before it is traced (a 2.3 MP photo about 25 ms written with a
 * per-channel loop and Math.abs), so the rows are read with the neighbour tests unrolled and the
 * last column and row, which lack a neighbour, apart.
 */
export function busyPixels(image: { width: number; height: number; data: Uint8Array; channels?: 3 | 4 }): number {
  const { width, height, data } = image;
  const c = image.channels ?? 4;
  const row = width * c;
  const jumps = (i: number, j: number): boolean => {
    const d0 = data[i] - data[j],
      d1 = data[i + 1] - data[j + 1],
      d2 = data[i + 2] - data[j + 2];
    return d0 > BUSY_STEP || d0 < -BUSY_STEP || d1 > BUSY_STEP || d1 < -BUSY_STEP || d2 > BUSY_STEP || d2 < -BUSY_STEP;
  };
  let busy = 0;
  for (let y = 0; y < height; y++) {
    const first = y * row,
      last = first + row - c;
    if (y + 1 < height) {
      for (let i = first; i < last; i += c) if (jumps(i, i + c) || jumps(i, i + row)) busy++;
      if (jumps(last, last + row)) busy++;
    } else {
      for (let i = first; i < last; i += c) if (jumps(i, i + c)) busy++;
    }
  }
  return busy;
}

/**
 * The raster to trace: the image itself, or a copy scaled down (by area, so noise averages out)
 * until its busy pixels fit MAX_BUSY_PIXELS. Only an image with more pixels than the budget is
 * examined at all.
 */
export async function withinBusyBudget(
  image: DecodedRaster,
  maxBusy = MAX_BUSY_PIXELS,
): Promise<{ image: DecodedRaster; display: { width: number; height: number } }> {
  const display = { width: image.width, height: image.height };
  const pixels = image.width * image.height;
  if (pixels <= maxBusy) return { image, display };
  const busy = busyPixels(image);
  if (busy <= maxBusy) return { image, display };
  // Busy pixels of a noise-like image fall with the area: scale both sides by √(budget / busy).
  const scale = Math.sqrt(maxBusy / busy);
  const width = Math.max(1, Math.floor(image.width * scale));
  const height = Math.max(1, Math.floor(image.height * scale));
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(width, height, { fit: 'fill' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return {
    image: { ...image, width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) },
    display,
  };
}

/**
 * The raster a trace works on and classifies, from the input's bytes: decoded within the pixel
 * limit, then within the busy budget. Every path that classifies (vectorize, the CLI's batch) takes
 * it from here, so a file gets the same class whichever way it is converted.
 */
export async function decodeForTrace(
  input: Uint8Array,
  maxPixels: number,
): Promise<{ image: DecodedRaster; display: { width: number; height: number } }> {
  return withinBusyBudget(await decodeRaster(input, { maxPixels }));
}
