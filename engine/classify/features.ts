/**
 * The classifier's fixed preprocessing: RGBA image in, a vector of FEATURE_COUNT numbers out.
 * The trainer (models/train.ts) and inference (engine/classify/index.ts) both call this one
 * function, so what the model learned on is exactly what it sees at run time.
 *
 * Everything is measured on a thumbnail whose longer side is THUMB_SIDE pixels, so the
 * statistics do not depend on the input's resolution. The thumbnail is an area average (ink of
 * thin lines survives as grey instead of vanishing between samples), flattened on white because
 * the tracer composites transparent input on white too.
 *
 * The features are chosen to separate the four classes cheaply:
 * - clip art: few colours, large flat areas, one dominant background colour, saturated fills;
 * - photo: many colours, smooth gradients, texture at every gradient magnitude;
 * - scan: a light page with dark text: short ink runs in regular rows, paper tint and noise;
 * - blueprint: long thin horizontal/vertical strokes, ink on a light or blue page.
 */
import type { RgbaImage } from '../types.js';
import { luma601 } from '../luma.js';
import { otsuSplitScores } from '../otsu.js';
import { findRoot } from '../union-find.js';
import { TEXTURE_FEATURE_NAMES, textureFeatures } from './texture.js';

const THUMB_SIDE = 256;

/** Names, in order, of the feature vector's entries (the model card and tests use them). */
export const FEATURE_NAMES: readonly string[] = Object.freeze([
  ...range(16).map((i) => `luma_hist_${i}`),
  ...range(8).map((i) => `chroma_hist_${i}`),
  'luma_entropy',
  'colour_count_log',
  'colour_top1',
  'colour_top2',
  'colour_top8',
  'colour_top32',
  'colour_entropy',
  ...range(8).map((i) => `grad_hist_${i}`),
  'grad_mean',
  'edge_vertical',
  'edge_horizontal',
  'edge_diagonal',
  'ink_share',
  'ink_is_dark',
  'otsu_separation',
  ...range(8).map((i) => `ink_run_${i}`),
  'ink_long_runs_h',
  'ink_long_runs_v',
  'row_ink_cv',
  'row_empty',
  'col_ink_cv',
  'col_empty',
  'near_white',
  'near_blue',
  'dark',
  'chroma_mean',
  'luma_std',
  'mode_luma',
  'mode_chroma',
  'mode_blue',
  ...range(8).map((i) => `coarse_grad_hist_${i}`),
  'ink_components_log',
  'ink_largest_component',
  'ink_in_small_components',
  'ink_in_mid_components',
  'ink_in_large_components',
  ...range(5).map((i) => `stroke_width_${i}`),
  'local_ink_share',
  'local_ink_row_cv',
  'local_ink_row_empty',
  'local_ink_long_runs',
  'local_ink_components_log',
  'local_ink_in_small_components',
  'local_ink_in_mid_components',
  'local_ink_in_large_components',
  'light_range',
  'light_roughness',
  'flat_share',
  'smooth_share',
  ...TEXTURE_FEATURE_NAMES,
]);

export const FEATURE_COUNT = FEATURE_NAMES.length;

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

interface Thumbnail {
  width: number;
  height: number;
  /** RGB bytes, flattened on white. Bytes, not floats, so the trainer can cache thumbnails exactly. */
  rgb: Uint8Array;
}

/**
 * Area-average resample to a longer side of `side` (up or down). A cell wider than 8 source
 * pixels is sampled on an 8×8 grid instead of read whole: that bounds the cost for a 50 MP input
 * at about the cost of a 4 MP one, and a box average of 64 samples is already smooth.
 */
export function makeThumbnail(image: RgbaImage, side = THUMB_SIDE): Thumbnail {
  const { width: sw, height: sh, data } = image;
  const scale = side / Math.max(sw, sh);
  const width = Math.max(1, Math.round(sw * scale));
  const height = Math.max(1, Math.round(sh * scale));
  const rgb = new Uint8Array(width * height * 3);
  for (let ty = 0; ty < height; ty++) {
    const y0 = Math.floor((ty * sh) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * sh) / height));
    const ystep = Math.max(1, Math.floor((y1 - y0) / 8));
    for (let tx = 0; tx < width; tx++) {
      const x0 = Math.floor((tx * sw) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * sw) / width));
      const xstep = Math.max(1, Math.floor((x1 - x0) / 8));
      let r = 0,
        g = 0,
        b = 0,
        n = 0;
      for (let y = y0; y < y1; y += ystep) {
        let i = (y * sw + x0) * 4;
        const di = xstep * 4;
        for (let x = x0; x < x1; x += xstep, i += di) {
          const a = data[i + 3];
          // Flatten on white in integer space: c*a/255 + 255*(1-a/255).
          r += data[i] * a + 255 * (255 - a);
          g += data[i + 1] * a + 255 * (255 - a);
          b += data[i + 2] * a + 255 * (255 - a);
          n++;
        }
      }
      const o = (ty * width + tx) * 3;
      const k = 1 / (255 * n);
      rgb[o] = Math.round(r * k);
      rgb[o + 1] = Math.round(g * k);
      rgb[o + 2] = Math.round(b * k);
    }
  }
  return { width, height, rgb };
}

function entropy(hist: ArrayLike<number>, total: number): number {
  let e = 0;
  for (let i = 0; i < hist.length; i++) {
    const p = hist[i] / total;
    if (p > 0) e -= p * Math.log2(p);
  }
  return e;
}

function gradientHistogram(
  luma: Float32Array,
  width: number,
  height: number,
  out: number[],
): { mean: number; v: number; h: number; d: number } {
  // Bin edges on |dx|+|dy| (0..510): flat, sensor/JPEG noise, soft shading, texture, edges.
  const edges = [1, 3, 6, 11, 21, 41, 81];
  const bins = new Int32Array(8);
  let sum = 0,
    strong = 0,
    v = 0,
    h = 0,
    d = 0,
    n = 0;
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      const dx = luma[i + 1] - luma[i];
      const dy = luma[i + width] - luma[i];
      const adx = Math.abs(dx),
        ady = Math.abs(dy);
      const m = adx + ady;
      let bin = 0;
      while (bin < 7 && m >= edges[bin]) bin++;
      bins[bin]++;
      sum += m;
      n++;
      if (m > 20) {
        strong++;
        if (adx > 2 * ady) v++;
        else if (ady > 2 * adx) h++;
        else d++;
      }
    }
  }
  n = Math.max(1, n);
  for (let i = 0; i < 8; i++) out.push(bins[i] / n);
  const s = Math.max(1, strong);
  return { mean: sum / n / 255, v: v / s, h: h / s, d: d / s };
}

function otsu(hist: Int32Array, total: number): { threshold: number; separation: number } {
  const scores = otsuSplitScores(hist, total);
  let best = -1,
    threshold = 128;
  // the first of equal scores (the feature the model was trained on)
  for (let t = 0; t < 256; t++) {
    if (scores[t] > best) {
      best = scores[t];
      threshold = t;
    }
  }
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i];
  const mean = sumAll / total;
  let varAll = 0;
  for (let i = 0; i < 256; i++) varAll += hist[i] * (i - mean) * (i - mean);
  // Share of the variance explained by the two-class split: 1 for a clean bilevel page.
  const separation = varAll > 0 ? best / total / varAll : 0;
  return { threshold, separation };
}

/** The feature vector of one image (length FEATURE_COUNT). */
export function extractFeatures(image: RgbaImage): Float32Array {
  return featuresOfThumbnail(makeThumbnail(image), textureFeatures(image));
}

/**
 * Statistics of the thumbnail, followed by `texture` (textureFeatures of the full-resolution
 * image): the trainer keeps both per sample, since it no longer has the full image.
 */
export function featuresOfThumbnail(thumb: Thumbnail, texture: readonly number[]): Float32Array {
  const { width, height, rgb } = thumb;
  const n = width * height;
  const luma = new Float32Array(n);
  const chroma = new Float32Array(n);
  const lumaHist = new Int32Array(16);
  const luma256 = new Int32Array(256);
  const chromaHist = new Int32Array(8);
  // 15-bit colour histogram (5 bits per channel).
  const colours = new Uint32Array(32768);
  let nearWhite = 0,
    nearBlue = 0,
    dark = 0,
    chromaSum = 0,
    lumaSum = 0,
    lumaSq = 0;
  for (let p = 0; p < n; p++) {
    const r = rgb[p * 3],
      g = rgb[p * 3 + 1],
      b = rgb[p * 3 + 2];
    const l = luma601(r, g, b);
    const c = Math.max(r, g, b) - Math.min(r, g, b);
    luma[p] = l;
    chroma[p] = c;
    lumaHist[Math.min(15, Math.floor(l / 16))]++;
    luma256[Math.min(255, Math.round(l))]++;
    chromaHist[Math.min(7, Math.floor(c / 32))]++;
    colours[((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)]++;
    if (l > 230 && c < 25) nearWhite++;
    if (b > r + 40 && b > g + 10 && b > 90) nearBlue++;
    if (l < 60) dark++;
    chromaSum += c;
    lumaSum += l;
    lumaSq += l * l;
  }
  const f: number[] = [];
  for (let i = 0; i < 16; i++) f.push(lumaHist[i] / n);
  for (let i = 0; i < 8; i++) f.push(chromaHist[i] / n);
  f.push(entropy(lumaHist, n) / 4);

  const counts: number[] = [];
  let modeKey = 0;
  for (let key = 0; key < colours.length; key++) {
    if (colours[key] === 0) continue;
    counts.push(colours[key]);
    if (colours[key] > colours[modeKey]) modeKey = key;
  }
  counts.sort((a, b) => b - a);
  const topShare = (k: number) => counts.slice(0, k).reduce((s, v) => s + v, 0) / n;
  f.push(Math.log2(counts.length) / 15, topShare(1), topShare(2), topShare(8), topShare(32), entropy(counts, n) / 15);

  const grad = gradientHistogram(luma, width, height, f);
  f.push(grad.mean, grad.v, grad.h, grad.d);

  // Ink: the minority side of an Otsu split of the luma histogram; the majority is the page.
  const { threshold, separation } = otsu(luma256, n);
  let below = 0;
  for (let t = 0; t <= threshold; t++) below += luma256[t];
  const inkIsDark = below <= n - below;
  const ink = new Uint8Array(n);
  let inkCount = 0;
  for (let p = 0; p < n; p++) {
    const isInk = inkIsDark ? luma[p] <= threshold : luma[p] > threshold;
    if (isInk) {
      ink[p] = 1;
      inkCount++;
    }
  }
  f.push(inkCount / n, inkIsDark ? 1 : 0, separation);

  // Run lengths of ink, horizontal and vertical, weighted by the pixels in each run.
  const runEdges = [2, 3, 5, 9, 17, 33, 65];
  const runs = new Int32Array(8);
  let longH = 0,
    longV = 0;
  const addRun = (len: number, horizontal: boolean) => {
    let bin = 0;
    while (bin < 7 && len >= runEdges[bin]) bin++;
    runs[bin] += len;
    if (len >= 17) {
      if (horizontal) longH += len;
      else longV += len;
    }
  };
  for (let y = 0; y < height; y++) {
    let len = 0;
    for (let x = 0; x < width; x++) {
      if (ink[y * width + x]) len++;
      else if (len) {
        addRun(len, true);
        len = 0;
      }
    }
    if (len) addRun(len, true);
  }
  for (let x = 0; x < width; x++) {
    let len = 0;
    for (let y = 0; y < height; y++) {
      if (ink[y * width + x]) len++;
      else if (len) {
        addRun(len, false);
        len = 0;
      }
    }
    if (len) addRun(len, false);
  }
  const runTotal = Math.max(1, 2 * inkCount);
  for (let i = 0; i < 8; i++) f.push(runs[i] / runTotal);
  f.push(longH / Math.max(1, inkCount), longV / Math.max(1, inkCount));

  // Text sits in rows: the ink per row varies strongly and whole rows of page lie between lines.
  const rowInk = new Int32Array(height);
  const colInk = new Int32Array(width);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (ink[y * width + x]) {
        rowInk[y]++;
        colInk[x]++;
      }
  const profile = (values: Int32Array, length: number) => {
    let s = 0,
      s2 = 0,
      empty = 0;
    for (const v of values) {
      s += v;
      s2 += v * v;
      if (v <= length * 0.005) empty++;
    }
    const m = s / values.length;
    const sd = Math.sqrt(Math.max(0, s2 / values.length - m * m));
    return { cv: m > 0 ? Math.min(4, sd / m) / 4 : 0, empty: empty / values.length };
  };
  const rows = profile(rowInk, width),
    cols = profile(colInk, height);
  f.push(rows.cv, rows.empty, cols.cv, cols.empty);

  const lumaMean = lumaSum / n;
  f.push(nearWhite / n, nearBlue / n, dark / n, chromaSum / n / 255, Math.sqrt(Math.max(0, lumaSq / n - lumaMean * lumaMean)) / 128);

  // The most frequent colour is the page or background; its hue says white page vs blue sheet.
  const mr = ((modeKey >> 10) & 31) * 8 + 4,
    mg = ((modeKey >> 5) & 31) * 8 + 4,
    mb = (modeKey & 31) * 8 + 4;
  f.push(luma601(mr, mg, mb) / 255, (Math.max(mr, mg, mb) - Math.min(mr, mg, mb)) / 255, mb > mr + 40 && mb > mg + 10 ? 1 : 0);

  // The same gradient statistics a quarter the size: texture that survives averaging is photo
  // detail, not sensor or JPEG noise.
  const cw = Math.floor(width / 4),
    ch = Math.floor(height / 4);
  const coarse = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      let s = 0;
      for (let dy = 0; dy < 4; dy++) for (let dx = 0; dx < 4; dx++) s += luma[(y * 4 + dy) * width + x * 4 + dx];
      coarse[y * cw + x] = s / 16;
    }
  }
  gradientHistogram(coarse, cw, ch, f);

  // Connected ink (8-neighbourhood): text is many small blobs, a drawing a few long connected
  // lines, clip art a few large fills.
  const { count: components, largest, small, mid, large } = componentStats(ink, width, height);
  const inkTotal = Math.max(1, inkCount);
  f.push(Math.log2(1 + components) / 14, largest / inkTotal, small / inkTotal, mid / inkTotal, large / inkTotal);

  // Stroke width: for each ink pixel the shorter of its horizontal and vertical runs. Ruled lines
  // and outlines are 1-2 px at this scale; blurred text and fills are wider.
  const hRun = new Uint16Array(n);
  for (let y = 0; y < height; y++) {
    let x = 0;
    while (x < width) {
      if (!ink[y * width + x]) {
        x++;
        continue;
      }
      let e = x;
      while (e < width && ink[y * width + e]) e++;
      for (let k = x; k < e; k++) hRun[y * width + k] = e - x;
      x = e;
    }
  }
  const widths = new Int32Array(5);
  for (let x = 0; x < width; x++) {
    let y = 0;
    while (y < height) {
      if (!ink[y * width + x]) {
        y++;
        continue;
      }
      let e = y;
      while (e < height && ink[e * width + x]) e++;
      for (let k = y; k < e; k++) {
        const w = Math.min(e - y, hRun[k * width + x]);
        widths[w <= 1 ? 0 : w === 2 ? 1 : w <= 4 ? 2 : w <= 8 ? 3 : 4]++;
      }
      y = e;
    }
  }
  for (let i = 0; i < 5; i++) f.push(widths[i] / inkTotal);

  localInkFeatures(luma, width, height, f);
  smoothnessFeatures(luma, width, height, f);
  f.push(...texture);

  if (f.length !== FEATURE_COUNT) throw new Error(`feature vector has ${f.length} entries, expected ${FEATURE_COUNT}`);
  return Float32Array.from(f);
}

/**
 * 8-connected components of a mask: their count, the largest's size and the mask's share in
 * small, mid and large ones. Runs of set pixels are joined with the runs they touch in the row
 * above (union-find over runs), which reads each pixel once; a pixel-by-pixel flood tested eight
 * neighbours per set pixel, most of a cold classifier call's time here before V8 optimised it.
 * The components, and so every number returned, are the same whichever way they are found.
 */
function componentStats(
  mask: Uint8Array,
  width: number,
  height: number,
): { count: number; largest: number; small: number; mid: number; large: number } {
  const maxRuns = Math.ceil(width / 2) * height;
  const runStart = new Int32Array(maxRuns),
    runEnd = new Int32Array(maxRuns),
    parent = new Int32Array(maxRuns),
    size = new Int32Array(maxRuns);
  let runs = 0,
    above = 0,
    aboveEnd = 0;
  for (let y = 0; y < height; y++) {
    const rowFirst = runs;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (!mask[row + x]) continue;
      const start = x;
      while (x < width && mask[row + x]) x++;
      const run = runs++;
      runStart[run] = start;
      runEnd[run] = x;
      parent[run] = run;
      size[run] = x - start;
      // Runs above that this one touches, diagonals included: they overlap [start - 1, x + 1).
      while (above < aboveEnd && runEnd[above] < start) above++;
      for (let a = above; a < aboveEnd && runStart[a] <= x; a++) {
        const ra = findRoot(parent, a),
          rb = findRoot(parent, run);
        if (ra === rb) continue;
        parent[rb] = ra;
        size[ra] += size[rb];
      }
    }
    above = rowFirst;
    aboveEnd = runs;
  }
  let count = 0,
    largest = 0,
    small = 0,
    mid = 0,
    large = 0;
  for (let r = 0; r < runs; r++) {
    if (parent[r] !== r) continue;
    const n = size[r];
    count++;
    if (n > largest) largest = n;
    if (n < 8) small += n;
    else if (n < 64) mid += n;
    else large += n;
  }
  return { count, largest, small, mid, large };
}

/**
 * Ink against the local background instead of one global threshold. A photographed or unevenly
 * lit page has a dark side that a global (Otsu) split calls ink, which reads as big fills or long
 * strokes; measured against the brightness around each pixel, its text is rows of small blobs again.
 * The background is the brightest of a block's 8×8 cells (paper is the lightest thing on a page),
 * interpolated between blocks; how much it varies says how uneven the light is.
 */
function localInkFeatures(luma: Float32Array, width: number, height: number, f: number[]): void {
  const cell = 8;
  const bw = Math.max(1, Math.ceil(width / cell)),
    bh = Math.max(1, Math.ceil(height / cell));
  const blockMax = new Float32Array(bw * bh);
  for (let y = 0; y < height; y++) {
    const by = Math.floor(y / cell);
    for (let x = 0; x < width; x++) {
      const b = by * bw + Math.floor(x / cell);
      if (luma[y * width + x] > blockMax[b]) blockMax[b] = luma[y * width + x];
    }
  }
  // A cell full of ink (a thick stroke, a dark photo patch) is not paper: take the 3×3 cells' max.
  const background = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let m = 0;
      for (let y = Math.max(0, by - 1); y <= Math.min(bh - 1, by + 1); y++)
        for (let x = Math.max(0, bx - 1); x <= Math.min(bw - 1, bx + 1); x++) m = Math.max(m, blockMax[y * bw + x]);
      background[by * bw + bx] = m;
    }
  }
  const n = width * height;
  const ink = new Uint8Array(n);
  const rowInk = new Int32Array(height);
  let inkCount = 0;
  // Bilinear weights per column, computed once.
  const colX0 = new Int32Array(width),
    colX1 = new Int32Array(width),
    colFx = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const gx = Math.min(bw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
    colX0[x] = Math.floor(gx);
    colX1[x] = Math.min(bw - 1, colX0[x] + 1);
    colFx[x] = gx - colX0[x];
  }
  for (let y = 0; y < height; y++) {
    const gy = Math.min(bh - 1, Math.max(0, (y + 0.5) / cell - 0.5));
    const y0 = Math.floor(gy),
      y1 = Math.min(bh - 1, y0 + 1),
      fy = gy - y0;
    for (let x = 0; x < width; x++) {
      const x0 = colX0[x],
        x1 = colX1[x],
        fx = colFx[x];
      const bg =
        (background[y0 * bw + x0] * (1 - fx) + background[y0 * bw + x1] * fx) * (1 - fy) +
        (background[y1 * bw + x0] * (1 - fx) + background[y1 * bw + x1] * fx) * fy;
      // Ink is clearly darker than the paper around it: a third of the way to black, at least 24 levels.
      if (luma[y * width + x] < bg - Math.max(24, bg / 3)) {
        ink[y * width + x] = 1;
        inkCount++;
        rowInk[y]++;
      }
    }
  }
  let s = 0,
    s2 = 0,
    empty = 0;
  for (let y = 0; y < height; y++) {
    s += rowInk[y];
    s2 += rowInk[y] * rowInk[y];
    if (rowInk[y] <= width * 0.005) empty++;
  }
  const m = s / height;
  const cv = m > 0 ? Math.min(4, Math.sqrt(Math.max(0, s2 / height - m * m)) / m) / 4 : 0;
  let long = 0;
  for (let y = 0; y < height; y++) {
    let len = 0;
    for (let x = 0; x <= width; x++) {
      if (x < width && ink[y * width + x]) len++;
      else {
        if (len >= 17) long += len;
        len = 0;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let len = 0;
    for (let y = 0; y <= height; y++) {
      if (y < height && ink[y * width + x]) len++;
      else {
        if (len >= 17) long += len;
        len = 0;
      }
    }
  }
  const total = Math.max(1, inkCount);
  const parts = componentStats(ink, width, height);
  f.push(
    inkCount / n,
    cv,
    empty / height,
    long / (2 * total),
    Math.log2(1 + parts.count) / 14,
    parts.small / total,
    parts.mid / total,
    parts.large / total,
  );
  // Light: spread (5th to 95th percentile) of the paper level, and how much it jumps from one
  // block to the next (smooth on a lit page, rough where the "paper" is really a scene).
  const sorted = Float32Array.from(background).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  let jumps = 0,
    pairs = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const v = blockMax[by * bw + bx];
      if (bx + 1 < bw) {
        jumps += Math.abs(v - blockMax[by * bw + bx + 1]);
        pairs++;
      }
      if (by + 1 < bh) {
        jumps += Math.abs(v - blockMax[(by + 1) * bw + bx]);
        pairs++;
      }
    }
  }
  f.push((at(0.95) - at(0.05)) / 255, pairs ? jumps / pairs / 255 : 0);
}

/**
 * Flat versus smooth: clip art's areas are one exact colour (zero change between neighbours),
 * a photographed sky or a shaded wall changes by a level or two everywhere. Counted only away from
 * edges (all four neighbours within 3 levels), so edges and texture do not weigh in.
 */
function smoothnessFeatures(luma: Float32Array, width: number, height: number, f: number[]): void {
  let flat = 0,
    smooth = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = luma[i];
      const a = Math.abs(luma[i - 1] - v),
        b = Math.abs(luma[i + 1] - v),
        c = Math.abs(luma[i - width] - v),
        d = Math.abs(luma[i + width] - v);
      const most = Math.max(a, b, c, d);
      if (most > 3) continue;
      if (most < 0.5) flat++;
      else smooth++;
    }
  }
  const inner = Math.max(1, (width - 2) * (height - 2));
  f.push(flat / inner, smooth / inner);
}
