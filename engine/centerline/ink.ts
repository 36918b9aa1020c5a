/**
 * Ink / background separation for line art. Works on either polarity: ink is whatever is far in
 * colour from the local background, so black-on-white, white-on-blueprint-blue and coloured lines on
 * cream paper all come out the same way.
 */
import type { RgbaImage } from '../types.js';
import { labelComponents, type Components } from './components.js';

export interface InkLayer {
  width: number;
  height: number;
  /** The image flattened on white, 4 bytes a pixel (alpha ignored): the decoded pixels themselves when opaque. */
  rgba: Uint8Array;
  /** 1 = ink, with a 1-pixel paper border: row stride width + 2, height + 2 rows (neighbour loops need no bounds checks). */
  padded: Uint8Array;
  /** The dominant page colour. */
  background: [number, number, number];
  /** Contrast threshold used (grey levels, 0..255). */
  threshold: number;
  /** Per-pixel colour distance to the local page colour, in grey levels. */
  contrast: Uint8Array;
}

/** Background blocks: large enough to hold mostly paper even in dense text, small enough to follow scanner shading. */
const BLOCK = 32;
/** A pixel within this RGB distance of the page colour counts as paper when estimating the local background (shading, yellowed paper). */
const PAPER_DISTANCE = 90;
/** Ink specks smaller than this (pixels) are scan dust at any line width (see removeSpecks for wider lines). */
const MIN_INK_AREA = 3;


export function separateInk(image: RgbaImage): InkLayer {
  const { width, height, data } = image;
  const n = width * height;
  // Most inputs are opaque: read their pixels where they are instead of copying them.
  let opaque = true;
  for (let j = 3; j < n * 4; j += 4) if (data[j] !== 255) { opaque = false; break; }
  const rgba = opaque ? data : flattenOnWhite(data, n);

  const background = dominantColour(rgba, n);
  const local = localBackground(rgba, width, height, background);
  const hist = new Int32Array(256);
  const contrast = contrastToBackground(rgba, width, height, local, hist);
  const threshold = otsuThreshold(hist, n);
  const stride = width + 2;
  const padded = new Uint8Array(stride * (height + 2));
  for (let y = 0; y < height; y++) {
    for (let i = y * width, end = i + width, q = (y + 1) * stride + 1; i < end; i++, q++) padded[q] = contrast[i] > threshold ? 1 : 0;
  }
  return { width, height, rgba, padded, background, threshold, contrast };
}

function flattenOnWhite(data: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n * 4);
  for (let j = 0; j < n * 4; j += 4) {
    const a = data[j + 3];
    if (a === 255) {
      out[j] = data[j]; out[j + 1] = data[j + 1]; out[j + 2] = data[j + 2];
    } else {
      const t = a / 255, w = 255 * (1 - t);
      out[j] = Math.round(data[j] * t + w);
      out[j + 1] = Math.round(data[j + 1] * t + w);
      out[j + 2] = Math.round(data[j + 2] * t + w);
    }
    out[j + 3] = 255;
  }
  return out;
}

function dominantColour(rgb: Uint8Array, n: number): [number, number, number] {
  // 4 bits a channel is coarse enough that paper grain and JPEG noise land in one bin.
  // Per-bin channel sums in the same pass (integers, exact), so the winner's mean needs no second pass.
  const hist = new Int32Array(4096);
  const sums = new Float64Array(4096 * 3);
  const step = Math.max(1, Math.floor(n / 400_000));
  for (let i = 0, j = 0, dj = step * 4; i < n; i += step, j += dj) {
    const r = rgb[j], g = rgb[j + 1], b = rgb[j + 2];
    const bin = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    hist[bin]++;
    sums[bin * 3] += r; sums[bin * 3 + 1] += g; sums[bin * 3 + 2] += b;
  }
  let best = 0;
  for (let b = 1; b < 4096; b++) if (hist[b] > hist[best]) best = b;
  const c = hist[best];
  return [Math.round(sums[best * 3] / c), Math.round(sums[best * 3 + 1] / c), Math.round(sums[best * 3 + 2] / c)];
}

/** Per-block page colour (Float32Array of 3 per block) on a grid of BLOCK-sized cells, smoothed. */
function localBackground(rgb: Uint8Array, width: number, height: number, page: [number, number, number]) {
  const bw = Math.ceil(width / BLOCK), bh = Math.ceil(height / BLOCK);
  const sums = new Float64Array(bw * bh * 3);
  const counts = new Int32Array(bw * bh);
  const totals = new Int32Array(bw * bh);
  const limit = PAPER_DISTANCE * PAPER_DISTANCE;
  const pr = page[0], pg = page[1], pb = page[2];
  // Row by row, one block's 32 pixels at a time (the same sums in the same order as pixel by pixel).
  for (let y = 0; y < height; y++) {
    const by = (y / BLOCK) | 0;
    for (let bx = 0; bx < bw; bx++) {
      const b = by * bw + bx;
      let r = 0, g = 0, bl = 0, c = 0;
      for (let x = bx * BLOCK, end = Math.min(width, x + BLOCK), j = (y * width + x) * 4; x < end; x++, j += 4) {
        const dr = rgb[j] - pr, dg = rgb[j + 1] - pg, db = rgb[j + 2] - pb;
        if (dr * dr + dg * dg + db * db > limit) continue;
        r += rgb[j]; g += rgb[j + 1]; bl += rgb[j + 2]; c++;
      }
      sums[b * 3] += r; sums[b * 3 + 1] += g; sums[b * 3 + 2] += bl;
      counts[b] += c;
    }
  }
  for (let by = 0; by < bh; by++) for (let bx = 0; bx < bw; bx++) {
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
  // Fill unknown blocks from known neighbours, ring by ring, then from the page colour.
  for (let pass = 0; pass < bw + bh; pass++) {
    let missing = 0;
    const next = known.slice();
    for (let by = 0; by < bh; by++) for (let bx = 0; bx < bw; bx++) {
      const b = by * bw + bx;
      if (known[b]) continue;
      let c = 0, r = 0, g = 0, bl = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = bx + dx, yy = by + dy;
        if (xx < 0 || yy < 0 || xx >= bw || yy >= bh) continue;
        const q = yy * bw + xx;
        if (!known[q]) continue;
        r += grid[q * 3]; g += grid[q * 3 + 1]; bl += grid[q * 3 + 2]; c++;
      }
      if (c) { grid[b * 3] = r / c; grid[b * 3 + 1] = g / c; grid[b * 3 + 2] = bl / c; next[b] = 1; } else missing++;
    }
    known.set(next);
    if (!missing) break;
  }
  for (let b = 0; b < bw * bh; b++) if (!known[b]) { grid[b * 3] = page[0]; grid[b * 3 + 1] = page[1]; grid[b * 3 + 2] = page[2]; }
  // 3×3 box smoothing so block seams never show up as ink edges.
  const smooth = new Float32Array(grid.length);
  for (let by = 0; by < bh; by++) for (let bx = 0; bx < bw; bx++) {
    let c = 0;
    const acc = [0, 0, 0];
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const xx = bx + dx, yy = by + dy;
      if (xx < 0 || yy < 0 || xx >= bw || yy >= bh) continue;
      const q = (yy * bw + xx) * 3;
      acc[0] += grid[q]; acc[1] += grid[q + 1]; acc[2] += grid[q + 2]; c++;
    }
    const b = (by * bw + bx) * 3;
    smooth[b] = acc[0] / c; smooth[b + 1] = acc[1] / c; smooth[b + 2] = acc[2] / c;
  }
  return { grid: smooth, bw, bh };
}

/** Colour distance to the (bilinearly interpolated) local page colour, in grey-level units 0..255 (`rgb`: 4 bytes a pixel). */
/** Also counts the contrast values into `hist` (256 bins) for the threshold, so no second pass. */
function contrastToBackground(rgb: Uint8Array, width: number, height: number, local: { grid: Float32Array; bw: number; bh: number }, hist: Int32Array): Uint8Array {
  const { grid, bw, bh } = local;
  const out = new Uint8Array(width * height);
  const scale = 1 / Math.sqrt(3);
  // Bilinear in two steps: blend the two block rows once per image row (per block column), then
  // interpolate that row along x with per-column tables computed once for the image.
  const col0 = new Int32Array(width), col1 = new Int32Array(width), colT = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(Math.max((x + 0.5) / BLOCK - 0.5, 0), bw - 1);
    const x0 = Math.floor(fx);
    col0[x] = x0 * 3; col1[x] = Math.min(x0 + 1, bw - 1) * 3; colT[x] = fx - x0;
  }
  const row = new Float32Array(bw * 3);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) / BLOCK - 0.5, 0), bh - 1);
    const y0 = Math.floor(fy), y1 = Math.min(y0 + 1, bh - 1), ty = fy - y0;
    for (let k = 0; k < bw * 3; k++) { const top = grid[y0 * bw * 3 + k]; row[k] = top + (grid[y1 * bw * 3 + k] - top) * ty; }
    // Columns between the same two block centres share those centres' colours (and their difference).
    for (let x = 0, i = y * width, j = i * 4; x < width;) {
      const a = col0[x], b = col1[x];
      const r0 = row[a], g0 = row[a + 1], b0 = row[a + 2];
      const rd = row[b] - r0, gd = row[b + 1] - g0, bd = row[b + 2] - b0;
      for (; x < width && col0[x] === a; x++, i++, j += 4) {
        const t = colT[x];
        const dr = rgb[j] - (r0 + rd * t);
        const dg = rgb[j + 1] - (g0 + gd * t);
        const db = rgb[j + 2] - (b0 + bd * t);
        const v = Math.sqrt(dr * dr + dg * dg + db * db) * scale;
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
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i];
  let sumB = 0, wB = 0, best = -1, first = 128, last = 128;
  for (let t = 0; t < 255; t++) {
    wB += hist[t]; sumB += t * hist[t];
    const wF = total - wB;
    if (!wB || !wF) continue;
    const between = wB * wF * (sumB / wB - (sum - sumB) / wF) ** 2;
    if (between > best * (1 + 1e-9)) { best = between; first = last = t; } else if (between >= best * (1 - 1e-9)) last = t;
  }
  return Math.min(200, Math.max(32, Math.round((first + last) / 2)));
}

/** Background pin-holes of one or two pixels can be scanner noise when the ink around them is at least this deep (px): a hole inside a 3-px or wider line, not the eye of a small "e". */
const PINHOLE_INK_DEPTH = 2;

/**
 * Fills noise pin-holes (one or two paper pixels walled in by ink) in a padded mask, judged by the
 * distance transform around them; the filled pixels get distance 1, their neighbours keep the
 * slightly low distances they had (a local underestimate, not worth a second transform).
 */
export function fillPinholes(mask: Uint8Array, distance: Float32Array, stride: number): void {
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const end = mask.length - 2 * stride;
  for (let p = 2 * stride; p < end; p++) {
    // Walled in needs ink on at least one side: most paper pixels stop at this test.
    if (mask[p] || (!mask[p - 1] && !mask[p + 1])) continue;
    const x = p % stride;
    if (x < 2 || x >= stride - 2) continue;
    // Walled in: every neighbour is ink but at most one, and that one is walled in by ink too.
    let open = -1, walled = true;
    for (let ko = 0; ko < 8; ko++) {
      const o = nb[ko];
      if (mask[p + o]) continue;
      if (open >= 0) { walled = false; break; }
      open = p + o;
    }
    if (!walled) continue;
    if (open >= 0) {
      for (let ko = 0; ko < 8; ko++) { const o = nb[ko]; if (!mask[open + o] && open + o !== p) { walled = false; break; } }
      if (!walled) continue;
    }
    let deep = false;
    for (let dy = -2; dy <= 2 && !deep; dy++) for (let dx = -2; dx <= 2; dx++) {
      if (distance[p + dy * stride + dx] >= PINHOLE_INK_DEPTH) { deep = true; break; }
    }
    if (!deep) continue;
    mask[p] = 1; distance[p] = 1;
    if (open >= 0) { mask[open] = 1; distance[open] = 1; }
  }
}

/**
 * Dust relative to the drawing: a speck with less area than half the square of the typical line
 * width cannot be a piece of that line work (a comma in 1-px text is 3 px; dust beside 4-px lines
 * is dust). Works on the padded mask and clears the specks' distances.
 */
export function removeSpecks(mask: Uint8Array, distance: Float32Array, stride: number, typicalHalfWidth: number): Components & { inkLeft: number } {
  const minArea = Math.max(MIN_INK_AREA, Math.round(0.5 * (2 * typicalHalfWidth) ** 2));
  const parts = labelComponents(mask, stride);
  const { labels, area, start } = parts;
  // Specks are a few pixels each: clear each one from its first pixel, not by a pass over the page.
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const stack: number[] = [];
  let inkLeft = 0;
  for (let id = 1; id <= parts.count; id++) {
    if (area[id] >= minArea) { inkLeft += area[id]; continue; }
    const first = start[id];
    mask[first] = 0; distance[first] = 0; labels[first] = 0;
    stack.push(first);
    while (stack.length) {
      const p = stack.pop()!;
      for (let k = 0; k < 8; k++) {
        const q = p + nb[k];
        if (labels[q] === id) { mask[q] = 0; distance[q] = 0; labels[q] = 0; stack.push(q); }
      }
    }
  }
  return { ...parts, inkLeft };
}
