/**
 * Ink / paper separation for line art, shared by the centerline tracer and the fill pipeline's
 * line-art segmentation (engine/segment/line-art.ts). Works on either polarity: ink is whatever is
 * far in colour from the local paper, so black-on-white, white-on-blueprint-blue and coloured lines
 * on cream paper all come out the same way; a grid of local paper colours follows scanner shading.
 */
import type { RgbaImage } from '../types.js';
import { otsuSplitScores } from '../otsu.js';

type Rgb = [number, number, number];

/** The page colour, and the local paper colour on a grid of BLOCK-sized cells (3 floats a cell). */
export interface PaperModel {
  background: Rgb;
  grid: Float32Array;
  bw: number;
  bh: number;
}

export interface InkContrast {
  /** Per-pixel colour distance to the local paper colour, in grey levels (0..255). */
  contrast: Uint8Array;
  /** Otsu's threshold on `contrast`: above it is ink. */
  threshold: number;
  paper: PaperModel;
}

interface InkLayer {
  width: number;
  height: number;
  /** The image flattened on white, 4 bytes a pixel (alpha ignored): the decoded pixels themselves when opaque. */
  rgba: Uint8Array;
  /** 1 = ink, with a 1-pixel paper border: row stride width + 2, height + 2 rows (neighbour loops need no bounds checks). */
  padded: Uint8Array;
  /** The dominant page colour. */
  background: Rgb;
  /** Contrast threshold used (grey levels, 0..255). */
  threshold: number;
  /** Per-pixel colour distance to the local page colour, in grey levels. */
  contrast: Uint8Array;
}

/** Contrast is scaled up by at most this where shading has dimmed the page (see contrastToBackground). */
const MAX_SHADING_GAIN = 3;
/** Background blocks: large enough to hold mostly paper even in dense text, small enough to follow scanner shading. */
const BLOCK = 32;
/** A pixel within this RGB distance of the page colour counts as paper when estimating the local background (shading, yellowed paper). */
const PAPER_DISTANCE = 90;
export function separateInk(image: RgbaImage): InkLayer {
  const { width, height, data } = image;
  const n = width * height;
  // Most inputs are opaque: read their pixels where they are instead of copying them.
  let opaque = true;
  for (let j = 3; j < n * 4; j += 4)
    if (data[j] !== 255) {
      opaque = false;
      break;
    }
  const rgba = opaque ? data : flattenOnWhite(data, n);
  const { contrast, threshold, paper } = measureInkContrast(rgba, 4, width, height);
  const background = paper.background;
  const stride = width + 2;
  const padded = new Uint8Array(stride * (height + 2));
  for (let y = 0; y < height; y++) {
    for (let i = y * width, end = i + width, q = (y + 1) * stride + 1; i < end; i++, q++) padded[q] = contrast[i] > threshold ? 1 : 0;
  }
  return { width, height, rgba, padded, background, threshold, contrast };
}

/**
 * Contrast of every pixel against its local paper, and the ink threshold. `pixels` holds `bpp`
 * bytes a pixel (RGB first; a fourth byte is ignored, so flatten transparent pixels first).
 */
export function measureInkContrast(pixels: Uint8Array, bpp: 3 | 4, width: number, height: number): InkContrast {
  const n = width * height;
  const background = dominantColour(pixels, bpp, n);
  const local = localBackground(pixels, bpp, width, height, background);
  const hist = new Int32Array(256);
  const contrast = contrastToBackground(pixels, bpp, width, height, local, background, hist);
  return { contrast, threshold: otsuThreshold(hist, n), paper: { background, ...local } };
}

/** The local paper colour at pixel (x, y), bilinear between block centres, written to `out`. */
export function paperColourAt(paper: PaperModel, x: number, y: number, out: Float32Array | number[]): void {
  const { grid, bw, bh } = paper;
  const fx = Math.min(Math.max((x + 0.5) / BLOCK - 0.5, 0), bw - 1);
  const fy = Math.min(Math.max((y + 0.5) / BLOCK - 0.5, 0), bh - 1);
  const x0 = Math.floor(fx),
    y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, bw - 1),
    y1 = Math.min(y0 + 1, bh - 1);
  const tx = fx - x0,
    ty = fy - y0;
  for (let c = 0; c < 3; c++) {
    const top = grid[(y0 * bw + x0) * 3 + c] + (grid[(y0 * bw + x1) * 3 + c] - grid[(y0 * bw + x0) * 3 + c]) * tx;
    const bottom = grid[(y1 * bw + x0) * 3 + c] + (grid[(y1 * bw + x1) * 3 + c] - grid[(y1 * bw + x0) * 3 + c]) * tx;
    out[c] = top + (bottom - top) * ty;
  }
}

/** Straight RGBA composited on white, 4 bytes a pixel. */
export function flattenOnWhite(data: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n * 4);
  for (let j = 0; j < n * 4; j += 4) {
    const a = data[j + 3];
    if (a === 255) {
      out[j] = data[j];
      out[j + 1] = data[j + 1];
      out[j + 2] = data[j + 2];
    } else {
      const t = a / 255,
        w = 255 * (1 - t);
      out[j] = Math.round(data[j] * t + w);
      out[j + 1] = Math.round(data[j + 1] * t + w);
      out[j + 2] = Math.round(data[j + 2] * t + w);
    }
    out[j + 3] = 255;
  }
  return out;
}

function dominantColour(rgb: Uint8Array, bpp: number, n: number): Rgb {
  // 4 bits a channel is coarse enough that paper grain and JPEG noise land in one bin.
  // Per-bin channel sums in the same pass (integers, exact), so the winner's mean needs no second pass.
  const hist = new Int32Array(4096);
  const sums = new Float64Array(4096 * 3);
  const step = Math.max(1, Math.floor(n / 400_000));
  for (let i = 0, j = 0, dj = step * bpp; i < n; i += step, j += dj) {
    const r = rgb[j],
      g = rgb[j + 1],
      b = rgb[j + 2];
    const bin = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    hist[bin]++;
    sums[bin * 3] += r;
    sums[bin * 3 + 1] += g;
    sums[bin * 3 + 2] += b;
  }
  let best = 0;
  for (let b = 1; b < 4096; b++) if (hist[b] > hist[best]) best = b;
  const c = hist[best];
  return [Math.round(sums[best * 3] / c), Math.round(sums[best * 3 + 1] / c), Math.round(sums[best * 3 + 2] / c)];
}

/** Per-block page colour (Float32Array of 3 per block) on a grid of BLOCK-sized cells, smoothed. */
function localBackground(rgb: Uint8Array, bpp: number, width: number, height: number, page: Rgb) {
  const bw = Math.ceil(width / BLOCK),
    bh = Math.ceil(height / BLOCK);
  const sums = new Float64Array(bw * bh * 3);
  const counts = new Int32Array(bw * bh);
  const totals = new Int32Array(bw * bh);
  const limit = PAPER_DISTANCE * PAPER_DISTANCE;
  const near = new Float64Array(4);
  // Row by row, one block's 32 pixels at a time (the same sums in the same order as pixel by pixel).
  for (let y = 0; y < height; y++) {
    const by = (y / BLOCK) | 0;
    for (let bx = 0; bx < bw; bx++) {
      const b = by * bw + bx;
      near.fill(0);
      addPixelsNear(rgb, bpp, width, y, bx, page, limit, near);
      sums[b * 3] += near[0];
      sums[b * 3 + 1] += near[1];
      sums[b * 3 + 2] += near[2];
      counts[b] += near[3];
    }
  }
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      totals[by * bw + bx] = (Math.min(width, (bx + 1) * BLOCK) - bx * BLOCK) * (Math.min(height, (by + 1) * BLOCK) - by * BLOCK);
    }
  const grid = new Float32Array(bw * bh * 3);
  const known = new Uint8Array(bw * bh);
  for (let b = 0; b < bw * bh; b++) {
    // A block that is mostly ink (a filled area) says nothing about the paper under it.
    if (counts[b] >= totals[b] * 0.2 && counts[b] > 0) {
      known[b] = 1;
      for (let c = 0; c < 3; c++) grid[b * 3 + c] = sums[b * 3 + c] / counts[b];
    }
  }
  growPaper(rgb, bpp, width, height, bw, bh, grid, known, totals);
  // Fill unknown blocks from known neighbours, ring by ring, then from the page colour.
  const neighbours = new Float32Array(3);
  for (let pass = 0; pass < bw + bh; pass++) {
    let missing = 0;
    const next = known.slice();
    for (let by = 0; by < bh; by++)
      for (let bx = 0; bx < bw; bx++) {
        const b = by * bw + bx;
        if (known[b]) continue;
        if (knownNeighbourMean(grid, known, bw, bh, bx, by, neighbours)) {
          grid.set(neighbours, b * 3);
          next[b] = 1;
        } else missing++;
      }
    known.set(next);
    if (!missing) break;
  }
  for (let b = 0; b < bw * bh; b++)
    if (!known[b]) {
      grid[b * 3] = page[0];
      grid[b * 3 + 1] = page[1];
      grid[b * 3 + 2] = page[2];
    }
  // 3×3 box smoothing so block seams never show up as ink edges.
  const smooth = new Float32Array(grid.length);
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let c = 0;
      const acc = [0, 0, 0];
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = bx + dx,
            yy = by + dy;
          if (xx < 0 || yy < 0 || xx >= bw || yy >= bh) continue;
          const q = (yy * bw + xx) * 3;
          acc[0] += grid[q];
          acc[1] += grid[q + 1];
          acc[2] += grid[q + 2];
          c++;
        }
      const b = (by * bw + bx) * 3;
      smooth[b] = acc[0] / c;
      smooth[b + 1] = acc[1] / c;
      smooth[b + 2] = acc[2] / c;
    }
  return { grid: smooth, bw, bh };
}

/**
 * Colour distance to the (bilinearly interpolated) local page colour, in grey-level units 0..255
 * (`rgb`: `bpp` bytes a pixel). Also counts the contrast values into `hist` (256 bins) for the
 * threshold, so no second pass.
 */
function contrastToBackground(
  rgb: Uint8Array,
  bpp: number,
  width: number,
  height: number,
  local: { grid: Float32Array; bw: number; bh: number },
  page: Rgb,
  hist: Int32Array,
): Uint8Array {
  const { grid, bw, bh } = local;
  const out = new Uint8Array(width * height);
  const scale = 1 / Math.sqrt(3);
  // Shading dims ink and paper alike (the light is a factor on both), so where the local paper is
  // darker than the page the contrast is scaled back up by that factor: faint-looking strokes in a
  // shadowed corner are as much ink as the dark ones in the light.
  const pageSum = page[0] + page[1] + page[2];
  // Bilinear in two steps: blend the two block rows once per image row (per block column), then
  // interpolate that row along x with per-column tables computed once for the image.
  const col0 = new Int32Array(width),
    col1 = new Int32Array(width),
    colT = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(Math.max((x + 0.5) / BLOCK - 0.5, 0), bw - 1);
    const x0 = Math.floor(fx);
    col0[x] = x0 * 3;
    col1[x] = Math.min(x0 + 1, bw - 1) * 3;
    colT[x] = fx - x0;
  }
  const row = new Float32Array(bw * 3);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) / BLOCK - 0.5, 0), bh - 1);
    const y0 = Math.floor(fy),
      y1 = Math.min(y0 + 1, bh - 1),
      ty = fy - y0;
    for (let k = 0; k < bw * 3; k++) {
      const top = grid[y0 * bw * 3 + k];
      row[k] = top + (grid[y1 * bw * 3 + k] - top) * ty;
    }
    // Columns between the same two block centres share those centres' colours (and their difference).
    for (let x = 0, i = y * width, j = i * bpp; x < width;) {
      const a = col0[x],
        b = col1[x];
      const r0 = row[a],
        g0 = row[a + 1],
        b0 = row[a + 2];
      const rd = row[b] - r0,
        gd = row[b + 1] - g0,
        bd = row[b + 2] - b0;
      const s0 = r0 + g0 + b0,
        sd = rd + gd + bd;
      for (; x < width && col0[x] === a; x++, i++, j += bpp) {
        const t = colT[x];
        const dr = rgb[j] - (r0 + rd * t);
        const dg = rgb[j + 1] - (g0 + gd * t);
        const db = rgb[j + 2] - (b0 + bd * t);
        const paperSum = s0 + sd * t;
        const gain = paperSum >= pageSum ? 1 : paperSum * MAX_SHADING_GAIN <= pageSum ? MAX_SHADING_GAIN : pageSum / paperSum;
        const v = Math.sqrt(dr * dr + dg * dg + db * db) * scale * gain;
        const level = v > 255 ? 255 : v | 0;
        out[i] = level;
        hist[level]++;
      }
    }
  }
  return out;
}

/**
 * Otsu's threshold on the contrast histogram. A bilevel drawing ties over the whole gap between
 * paper and ink, so take the middle of the best plateau (mid-contrast = the anti-aliased edge).
 * Clamped so a blank page does not turn paper grain into ink.
 */
function otsuThreshold(hist: Int32Array, total: number): number {
  const scores = otsuSplitScores(hist, total);
  let best = -1,
    first = 128,
    last = 128;
  for (let t = 0; t < 255; t++) {
    const score = scores[t];
    if (score < 0) continue;
    if (score > best * (1 + 1e-9)) {
      best = score;
      first = last = t;
    } else if (score >= best * (1 - 1e-9)) last = t;
  }
  return Math.min(200, Math.max(32, Math.round((first + last) / 2)));
}
/**
 * Adds the pixels of block column `bx` in row `y` whose squared RGB distance from `colour` is at
 * most `limit` into `near`: their R, G and B sums and their count. The sums are of whole numbers,
 * so they come out the same however the pixels are grouped.
 */
function addPixelsNear(
  rgb: Uint8Array,
  bpp: number,
  width: number,
  y: number,
  bx: number,
  colour: ArrayLike<number>,
  limit: number,
  near: Float64Array,
): void {
  const r0 = colour[0],
    g0 = colour[1],
    b0 = colour[2];
  let r = 0,
    g = 0,
    b = 0,
    count = 0;
  for (let x = bx * BLOCK, end = Math.min(width, x + BLOCK), j = (y * width + x) * bpp; x < end; x++, j += bpp) {
    const dr = rgb[j] - r0,
      dg = rgb[j + 1] - g0,
      db = rgb[j + 2] - b0;
    if (dr * dr + dg * dg + db * db > limit) continue;
    r += rgb[j];
    g += rgb[j + 1];
    b += rgb[j + 2];
    count++;
  }
  near[0] += r;
  near[1] += g;
  near[2] += b;
  near[3] += count;
}

/** Times an unknown block is searched for paper near its neighbours' before it is left to interpolation. */
const GROW_TRIES = 3;

/**
 * Shading that takes the paper further than PAPER_DISTANCE from the page colour (a page curving
 * away from the scanner's light): a block beside known paper looks for paper near its known
 * neighbours' paper colour, ring by ring, so the estimate follows a gradual slope step by step
 * but does not jump into a filled area, whose colour is far from the paper around it.
 */
function growPaper(
  rgb: Uint8Array,
  bpp: number,
  width: number,
  height: number,
  bw: number,
  bh: number,
  grid: Float32Array,
  known: Uint8Array,
  totals: Int32Array,
): void {
  const limit = PAPER_DISTANCE * PAPER_DISTANCE;
  const tries = new Uint8Array(bw * bh);
  const reference = new Float32Array(3);
  const near = new Float64Array(4);
  for (let grown = true; grown;) {
    grown = false;
    const next = known.slice();
    for (let by = 0; by < bh; by++)
      for (let bx = 0; bx < bw; bx++) {
        const b = by * bw + bx;
        if (known[b] || tries[b] >= GROW_TRIES) continue;
        if (!knownNeighbourMean(grid, known, bw, bh, bx, by, reference)) continue;
        tries[b]++;
        near.fill(0);
        for (let y = by * BLOCK, yEnd = Math.min(height, y + BLOCK); y < yEnd; y++) {
          addPixelsNear(rgb, bpp, width, y, bx, reference, limit, near);
        }
        const count = near[3];
        if (count === 0 || count < totals[b] * 0.2) continue;
        grid[b * 3] = near[0] / count;
        grid[b * 3 + 1] = near[1] / count;
        grid[b * 3 + 2] = near[2] / count;
        next[b] = 1;
        grown = true;
      }
    known.set(next);
  }
}

/** Mean paper colour of the known blocks among block (bx, by)'s eight neighbours, into `out`; false when none is known. */
function knownNeighbourMean(
  grid: Float32Array,
  known: Uint8Array,
  bw: number,
  bh: number,
  bx: number,
  by: number,
  out: Float32Array,
): boolean {
  let c = 0,
    r = 0,
    g = 0,
    b = 0;
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      const xx = bx + dx,
        yy = by + dy;
      if (xx < 0 || yy < 0 || xx >= bw || yy >= bh) continue;
      const q = yy * bw + xx;
      if (!known[q]) continue;
      r += grid[q * 3];
      g += grid[q * 3 + 1];
      b += grid[q * 3 + 2];
      c++;
    }
  if (!c) return false;
  out[0] = r / c;
  out[1] = g / c;
  out[2] = b / c;
  return true;
}
