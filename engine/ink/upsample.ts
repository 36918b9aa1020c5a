/**
 * Tracing thin ink at twice the resolution, as potrace users do with `mkbitmap -s 2`: a stroke one
 * or two pixels wide has too few cracks for its outline to carry its shape (a 1-px leg of an m
 * ends in a single crack, whose sub-pixel point makes a wedge; a serif is one pixel). The page is
 * upsampled with cubic interpolation, so the blurred edges stay smooth ramps that the ink threshold
 * then cuts at sub-pixel places, and the boundary chains found at that scale are scaled back
 * before fitting, so every tolerance of the fitter keeps its meaning in input pixels.
 */
import type { BoundaryGraph } from '../boundary/index.js';
import type { PreparedImage } from '../prepare/index.js';

/**
 * Catmull-Rom weights for the two output pixels of each input pixel i at scale 2: output pixel 2i
 * has its centre at i − ¼ (input taps i−2..i+1), 2i+1 at i + ¼ (taps i−1..i+2).
 */
const EVEN_TAPS = [-0.0234375, 0.2265625, 0.8671875, -0.0703125];
const ODD_TAPS = [-0.0703125, 0.8671875, 0.2265625, -0.0234375];

/** `image` at twice its width and height: colours by cubic interpolation, transparency by nearest pixel. */
export function upsampleTwice(image: PreparedImage): PreparedImage {
  const { width, height, source } = image;
  const channels = source.channels ?? 4;
  const transparent = new Uint8Array(4 * width * height);
  for (let y = 0; y < 2 * height; y++)
    for (let x = 0, row = (y >> 1) * width; x < 2 * width; x++) transparent[y * 2 * width + x] = image.transparent[row + (x >> 1)];
  return {
    width: 2 * width,
    height: 2 * height,
    source: { width: 2 * width, height: 2 * height, data: cubicTwice(source.data, channels, width, height), channels: channels as 3 | 4 },
    rgb: cubicTwice(image.rgb, 3, width, height),
    transparent,
    hasTransparency: image.hasTransparency,
  };
}

/** Separable cubic upsampling by 2 of interleaved 8-bit channels (edges repeat the border pixel). */
function cubicTwice(data: Uint8Array, channels: number, width: number, height: number): Uint8Array {
  const outWidth = 2 * width;
  // rows first, into floats (the overshoot of the cubic is kept until the columns are done)
  const wide = new Float32Array(outWidth * height * channels);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < outWidth; x++) {
      const i = x >> 1,
        taps = x & 1 ? ODD_TAPS : EVEN_TAPS,
        first = x & 1 ? i - 1 : i - 2;
      const out = (y * outWidth + x) * channels;
      for (let k = 0; k < 4; k++) {
        const sx = Math.min(width - 1, Math.max(0, first + k));
        const from = (row + sx) * channels,
          w = taps[k];
        for (let c = 0; c < channels; c++) wide[out + c] += w * data[from + c];
      }
    }
  }
  const out = new Uint8Array(outWidth * 2 * height * channels);
  const rowLength = outWidth * channels;
  const column = new Float32Array(rowLength);
  for (let y = 0; y < 2 * height; y++) {
    const i = y >> 1,
      taps = y & 1 ? ODD_TAPS : EVEN_TAPS,
      first = y & 1 ? i - 1 : i - 2;
    const to = y * rowLength;
    for (let k = 0; k < 4; k++) {
      const from = Math.min(height - 1, Math.max(0, first + k)) * rowLength,
        w = taps[k];
      for (let j = 0; j < rowLength; j++) column[j] = (k === 0 ? 0 : column[j]) + w * wide[from + j];
    }
    for (let j = 0; j < rowLength; j++) {
      const v = Math.round(column[j]);
      out[to + j] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return out;
}

/**
 * The boundary chains of a trace at twice the size, back in input pixels. Only the geometry is
 * scaled: the ring areas stay in traced pixels, as the segmentation's region areas they are
 * compared with.
 */
export function halveGraph(graph: BoundaryGraph, width: number, height: number): void {
  graph.width = width;
  graph.height = height;
  for (const chain of graph.chains) {
    const { points, cracks } = chain;
    for (let i = 0; i < points.length; i++) points[i] *= 0.5;
    if (cracks !== points) for (let i = 0; i < cracks.length; i++) cracks[i] *= 0.5;
  }
}
