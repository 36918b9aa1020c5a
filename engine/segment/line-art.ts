/**
 * Segment stage for scans and drawings (image_type scan or blueprint, trace_style fill): ink
 * against paper instead of colour regions, so a page comes out as clean ink the way potrace draws
 * it, not as grey and black shards of every anti-aliasing step.
 *
 * 1. Contrast against the local paper (engine/ink/paper.ts, shared with the centerline tracer):
 *    the paper grid follows uneven light and grey paper; Otsu's threshold on that contrast finds
 *    the marks, and each mark is cut at the midpoint of its own blurred edge (edgeLevels), so
 *    strokes keep the scan's width and a comma's faint tail or a serif stays on its glyph.
 * 2. Pin-holes (a pixel or two of paper walled in by ink) are filled; ink specks smaller than the
 *    smoothing setting allows, relative to the drawing's line width, are dropped (an i-dot or a full
 *    stop is about as wide as the line, so it stays).
 * 3. Ink colours: each ink is a direction in colour away from the paper (a faint stroke and a dense
 *    one of the same ink point the same way, only less far), so the stroke centres are clustered by
 *    that direction. Black text stays one ink at any density; a red stamp or blue lines keep theirs.
 *    A fragment of one ink inside another too small to be a mark of its own joins its surroundings.
 * 4. One region per ink (all its marks: the region is not connected) and one for the paper, which
 *    is left transparent on a light page and painted as the background of a dark one (white lines on
 *    blueprint blue). Transparent input pixels stay transparent.
 *
 * The ink coverage of every pixel (the anti-aliased value) is kept for sub-pixel edge placement.
 *
 * A drawing whose strokes are about a pixel wide, with soft (anti-aliased) edges, is segmented at
 * twice its size (segmentInk, engine/ink/upsample.ts), as potrace users run `mkbitmap -s 2`.
 */
import { labelComponents } from '../ink/components.js';
import { flattenOnWhite, measureInkContrast, paperColourAt, type InkContrast, type PaperModel } from '../ink/paper.js';
import { upsampleTwice } from '../ink/upsample.js';
import type { PreparedImage } from '../prepare/index.js';
import type { LineArtSettings } from '../settings.js';
import { checkAbort, type StageContext } from '../stage.js';
import { takeLabels, type Segmentation } from './index.js';
import { luma601 } from '../luma.js';
import { otsuSplitScores } from '../otsu.js';

/** Direction bins per axis (each unit-vector component over -1..1) when looking for the inks. */
const DIRECTION_BINS = 32;
/** Ink classes at most: more than this many inks on one drawing is a colour image, not line art. */
const MAX_INKS = 8;
/** How far (px) edgeLevels looks for the peak of the stroke a pixel belongs to: past a blurred edge, not into the next stroke. */
const LEVEL_REACH = 1;
/** Share of Otsu's threshold below which no contrast is ink, however faint the mark around it. */
const LEVEL_FLOOR = 0.5;
/** Share of the full contrast at either end of an edge ramp that does not count as a partly covered pixel. */
const SOFT_EDGE = 0.2;
/**
 * A drawing with fewer partly covered pixels than this per ink pixel has hard edges (a 1-bit
 * scan): interpolation would only round its pixel steps into wobbles, so it is traced at its size.
 */
const MIN_SOFT_SHARE = 0.1;
/**
 * Share of an ink's stroke centres, furthest from the paper, whose mean is the ink's colour: the
 * solid core (a JPEG's ringing or a speck of toner darker than the ink is far below a tenth).
 */
const CORE_SHARE = 0.25;
/** A pixel is inside a solid stroke when its four neighbours are at least this share as dense. */
const PLATEAU = 0.12;
/** Two densities of one ink are two inks only this many standard deviations apart (splitByDensity)… */
const DENSITY_SEPARATION = 4;
/** …each with at least this share of the ink… */
const MIN_DENSITY_SHARE = 0.05;
/** …and the light one at most this share of the dark one's contrast. */
const MAX_LIGHT_SHARE = 0.8;
/** A page darker than this (luma) is part of the drawing, painted behind it; a lighter one is paper. */
const DARK_PAGE_LUMA = 128;

/** A segmentation traced at `scale` times the input's size, with the image it was traced on. */
export interface InkSegmentation {
  segmentation: Segmentation;
  image: PreparedImage;
  scale: 1 | 2;
}

/**
 * Ink against paper at the input's size, or at twice it (engine/ink/upsample.ts) when the drawing's
 * strokes are thinner than `fineBelowWidth` and the page is small enough to trace four times over.
 */
export function segmentInk(image: PreparedImage, settings: LineArtSettings, context: StageContext): InkSegmentation {
  const ink = findInkMask(image, settings, 1);
  const fineScale =
    ink.lineWidth > 0 &&
    ink.lineWidth < settings.fineBelowWidth &&
    ink.softShare >= MIN_SOFT_SHARE &&
    4 * image.width * image.height <= settings.fineMaxPixels;
  if (!fineScale) return { segmentation: segmentFromMask(image, ink, settings, context), image, scale: 1 };
  const fine = upsampleTwice(image);
  // areas in pixels count four times over at twice the size
  const fineSettings = { ...settings, speckFloor: 4 * settings.speckFloor, pinholeMax: 4 * settings.pinholeMax };
  return { segmentation: segmentFromMask(fine, findInkMask(fine, fineSettings, 2), fineSettings, context), image: fine, scale: 2 };
}

/** Ink against paper at the input's own size. */
export function segmentLineArt(image: PreparedImage, settings: LineArtSettings, context: StageContext): Segmentation {
  return segmentFromMask(image, findInkMask(image, settings, 1), settings, context);
}

/** The ink mask before specks are judged, and what it was cut from. */
interface InkMask extends InkContrast, EdgeProfile {
  pixels: Uint8Array;
  bpp: 3 | 4;
  levels: Uint8Array;
  /** Padded (1-pixel paper border): neighbour loops need no bounds checks. */
  mask: Uint8Array;
  lineWidth: number;
  /** Traced pixels per input pixel. */
  scale: number;
}

/** `scale`: how many traced pixels an input pixel spans (the edge levels look that much further). */
function findInkMask(image: PreparedImage, settings: LineArtSettings, scale: number): InkMask {
  const { width, height } = image;
  const { pixels, bpp } = pixelsOnWhite(image);
  const measured = measureInkContrast(pixels, bpp, width, height);
  const profile = edgeProfile(measured.contrast, measured.threshold);
  const levels = edgeLevels(measured.contrast, measured.threshold, profile.full, width, height, LEVEL_REACH * scale);
  const mask = inkMask(measured.contrast, measured.threshold, levels, image.transparent, width, height);
  fillPinholes(mask, width + 2, settings.pinholeMax);
  const lineWidth = typicalLineWidth(mask, width + 2);
  return { ...measured, ...profile, pixels, bpp, levels, mask, lineWidth, scale };
}

function segmentFromMask(image: PreparedImage, ink: InkMask, settings: LineArtSettings, context: StageContext): Segmentation {
  const { width, height } = image;
  const n = width * height;
  const { pixels, bpp, contrast, paper, levels, mask, lineWidth } = ink;
  context.progress(0.2);
  checkAbort(context);

  const stride = width + 2;
  const speckLimit = Math.max(settings.speckFloor, settings.speckShareOfWidth * lineWidth * lineWidth);
  dropSpecks(mask, stride, speckLimit);
  joinDiagonals(mask, stride, contrast, width);
  context.progress(0.4);
  checkAbort(context);

  const inks = findInks(pixels, bpp, width, contrast, paper, mask, stride, settings);
  const inkOf = assignInks(pixels, bpp, width, paper, mask, stride, inks, speckLimit);
  if (inks.length === 1 && splitByDensity(contrast, mask, stride, width, ink.scale, inkOf)) inks.push({ ...inks[0], weight: 0 });
  context.progress(0.7);
  checkAbort(context);

  // Kinds: 0 paper, 1..inks ink, inks + 1 transparent input (only apart from paper when paper is painted).
  const bg = paper.background;
  const paperPainted = luma601(bg[0], bg[1], bg[2]) < DARK_PAGE_LUMA;
  const clearKind = inks.length + 1;
  const labelOfKind = new Int32Array(inks.length + 2).fill(-1);
  const labels = takeLabels(n);
  const area: number[] = [];
  const transparent: number[] = [];
  const colourOfKind = new Uint8Array((inks.length + 2) * 3);
  colourOfKind.set(bg);
  const centres = inkColours(pixels, bpp, width, contrast, mask, stride, inkOf, inks.length);
  for (let k = 0; k < inks.length; k++) {
    const count = Math.max(1, centres[k * 4 + 3]);
    for (let c = 0; c < 3; c++) colourOfKind[(k + 1) * 3 + c] = Math.round(centres[k * 4 + c] / count);
  }
  const colours: number[] = [];
  for (let y = 0, i = 0; y < height; y++) {
    for (let q = (y + 1) * stride + 1, end = q + width; q < end; q++, i++) {
      let kind = mask[q] ? 1 + inkOf[q] : 0;
      if (kind === 0 && paperPainted && image.transparent[i]) kind = clearKind;
      let label = labelOfKind[kind];
      if (label < 0) {
        label = labelOfKind[kind] = area.length;
        area.push(0);
        transparent.push(kind === clearKind || (kind === 0 && !paperPainted) ? 1 : 0);
        colours.push(colourOfKind[kind * 3], colourOfKind[kind * 3 + 1], colourOfKind[kind * 3 + 2]);
      }
      labels[i] = label;
      area[label]++;
    }
  }
  context.progress(1);
  return {
    width,
    height,
    labels,
    regionCount: area.length,
    area: Int32Array.from(area),
    transparent: Uint8Array.from(transparent),
    colours: Uint8Array.from(colours),
    coverage: inkCoverage(contrast, levels),
  };
}

/** The pixels the contrast is measured on: the smoothed RGB, or (with alpha) the source on white. */
function pixelsOnWhite(image: PreparedImage): { pixels: Uint8Array; bpp: 3 | 4 } {
  const { source } = image;
  if ((source.channels ?? 4) === 4) {
    const data = source.data;
    for (let j = 3; j < data.length; j += 4)
      if (data[j] !== 255) return { pixels: flattenOnWhite(data, image.width * image.height), bpp: 4 };
  }
  return { pixels: image.rgb, bpp: 3 };
}

/**
 * Fills paper components (4-connected, as paper is beside 8-connected ink) of at most `max` pixels
 * that do not reach the page border. Each is found by a flood from a paper pixel walled in on at
 * least two sides, given up as soon as it grows past `max`, so the open paper is never walked.
 */
function fillPinholes(mask: Uint8Array, stride: number, max: number): void {
  if (max <= 0) return;
  const rows = mask.length / stride;
  const nb = [-stride, -1, 1, stride];
  const found = new Int32Array(max + 1);
  for (let y = 1; y < rows - 1; y++) {
    for (let p = y * stride + 1, end = p + stride - 2; p < end; p++) {
      if (mask[p] || mask[p - 1] + mask[p + 1] + mask[p - stride] + mask[p + stride] < 2) continue;
      let size = 0;
      found[size++] = p;
      for (let k = 0; k < size && size <= max; k++) {
        const q = found[k];
        for (let o = 0; o < 4 && size <= max; o++) {
          const r = q + nb[o];
          if (mask[r]) continue;
          const x = r % stride;
          if (r < stride || r >= mask.length - stride || x === 0 || x === stride - 1) {
            size = max + 1;
            break;
          }
          let seen = false;
          for (let j = 0; j < size; j++)
            if (found[j] === r) {
              seen = true;
              break;
            }
          if (!seen) found[size++] = r;
        }
      }
      if (size > max) continue;
      for (let k = 0; k < size; k++) mask[found[k]] = 1;
    }
  }
}

/**
 * Ink pixels that touch only at a corner (a 2×2 block of two ink pixels on one diagonal and paper on
 * the other) get the higher-contrast paper pixel of the block as ink. Ink is 8-connected, so they
 * were one mark already; joined by an edge, every outline between ink and paper is one closed loop
 * with no junction at a pixel corner, and a glyph's outline is fitted whole (potrace decides the
 * same ambiguity per corner with its turn policy) instead of as short chains pinned at corners.
 * Filling can make a new such block next to it, so the rows are swept until none is left.
 */
function joinDiagonals(mask: Uint8Array, stride: number, contrast: Uint8Array, width: number): void {
  const rows = mask.length / stride;
  const contrastAt = (q: number) => contrast[(((q / stride) | 0) - 1) * width + (q % stride) - 1];
  for (let changed = true; changed;) {
    changed = false;
    for (let y = 1; y < rows - 2; y++) {
      for (let p = y * stride + 1, end = p + stride - 3; p < end; p++) {
        const a = mask[p],
          b = mask[p + 1],
          c = mask[p + stride],
          d = mask[p + stride + 1];
        if (a !== d || b !== c || a === b) continue;
        // the two paper pixels of the block: p + 1 and p + stride, or p and p + stride + 1
        const [u, v] = a ? [p + 1, p + stride] : [p, p + stride + 1];
        mask[contrastAt(u) >= contrastAt(v) ? u : v] = 1;
        changed = true;
      }
    }
  }
}

/**
 * The drawing's typical stroke width: twice the ink area over its outline length (a stroke of
 * width w and length L has area wL and an outline of about 2L).
 */
function typicalLineWidth(mask: Uint8Array, stride: number): number {
  let inkArea = 0,
    cracks = 0;
  for (let p = stride; p < mask.length - stride; p++) {
    if (!mask[p]) continue;
    inkArea++;
    cracks += (mask[p - 1] ^ 1) + (mask[p + 1] ^ 1) + (mask[p - stride] ^ 1) + (mask[p + stride] ^ 1);
  }
  return cracks ? (2 * inkArea) / cracks : 0;
}

/**
 * Drops ink components of less than `limit` pixels that are also short (dust is a blob): a piece of
 * a faint dashed or broken line is as small but long and thin, and belongs to the drawing.
 */
function dropSpecks(mask: Uint8Array, stride: number, limit: number): void {
  if (limit <= 1) return;
  const parts = labelComponents(mask, stride);
  const { count, labels, area } = parts;
  const left = new Int32Array(count + 1).fill(stride),
    right = new Int32Array(count + 1).fill(-1);
  const top = new Int32Array(count + 1).fill(-1),
    bottom = new Int32Array(count + 1);
  for (let p = 0; p < mask.length; p++) {
    const id = labels[p];
    if (!id || area[id] >= limit) continue;
    const x = p % stride,
      y = (p - x) / stride;
    if (x < left[id]) left[id] = x;
    if (x > right[id]) right[id] = x;
    if (top[id] < 0) top[id] = y;
    bottom[id] = y;
  }
  for (let p = 0; p < mask.length; p++) {
    const id = labels[p];
    if (!id || area[id] >= limit) continue;
    // long: at least three pixels, and three times as long as it is thick (area / length)
    const length = Math.max(right[id] - left[id], bottom[id] - top[id]) + 1;
    if (length < 3 || length * length < 3 * area[id]) mask[p] = 0;
  }
}

/** One ink: its colour direction away from the paper (a unit vector). */
interface Ink {
  direction: [number, number, number];
  weight: number;
}

/**
 * The drawing's inks, heaviest first. Only stroke centres vote (ink pixels at least as far from the
 * paper as their four neighbours): their colour is the ink's own, not mixed with the paper at an
 * anti-aliased edge.
 */
function findInks(
  pixels: Uint8Array,
  bpp: number,
  width: number,
  contrast: Uint8Array,
  paper: PaperModel,
  mask: Uint8Array,
  stride: number,
  settings: LineArtSettings,
): Ink[] {
  const bins = DIRECTION_BINS;
  const count = new Float64Array(bins * bins * bins);
  const sum = new Float64Array(count.length * 3);
  const local = new Float32Array(3);
  let total = 0;
  for (let p = stride; p < mask.length - stride; p++) {
    if (!mask[p]) continue;
    const x = (p % stride) - 1,
      y = ((p / stride) | 0) - 1;
    const i = y * width + x;
    if (!strokeCentre(contrast, mask, p, i, stride, width)) continue;
    paperColourAt(paper, x, y, local);
    const j = i * bpp;
    const dr = local[0] - pixels[j],
      dg = local[1] - pixels[j + 1],
      db = local[2] - pixels[j + 2];
    const len = Math.sqrt(dr * dr + dg * dg + db * db);
    if (len < 1) continue;
    const ux = dr / len,
      uy = dg / len,
      uz = db / len;
    const bin = (quantise(ux) * bins + quantise(uy)) * bins + quantise(uz);
    count[bin]++;
    sum[bin * 3] += ux;
    sum[bin * 3 + 1] += uy;
    sum[bin * 3 + 2] += uz;
    total++;
  }
  if (!total) return [{ direction: [1 / Math.SQRT2, 1 / Math.SQRT2, 0], weight: 0 }];
  const order: number[] = [];
  for (let b = 0; b < count.length; b++) if (count[b]) order.push(b);
  order.sort((a, b) => count[b] - count[a] || a - b);
  const cosLimit = Math.cos((settings.inkAngleDegrees * Math.PI) / 180);
  const clusters: { seed: [number, number, number]; sum: [number, number, number]; weight: number }[] = [];
  for (const b of order) {
    const m = unit(sum[b * 3], sum[b * 3 + 1], sum[b * 3 + 2]);
    let home = clusters.find((c) => dot(c.seed, m) >= cosLimit);
    if (!home) clusters.push((home = { seed: m, sum: [0, 0, 0], weight: 0 }));
    home.sum[0] += sum[b * 3];
    home.sum[1] += sum[b * 3 + 1];
    home.sum[2] += sum[b * 3 + 2];
    home.weight += count[b];
  }
  // Tints too rare to be an ink (JPEG colour fringes, a stray coloured pixel) join the closest ink.
  const kept = clusters.filter((c, k) => k === 0 || c.weight >= settings.minInkShare * total).slice(0, MAX_INKS);
  for (const c of clusters) {
    if (kept.includes(c)) continue;
    let best = kept[0];
    for (const k of kept) if (dot(k.seed, c.seed) > dot(best.seed, c.seed)) best = k;
    best.sum[0] += c.sum[0];
    best.sum[1] += c.sum[1];
    best.sum[2] += c.sum[2];
    best.weight += c.weight;
  }
  return kept.map((c) => ({ direction: unit(c.sum[0], c.sum[1], c.sum[2]), weight: c.weight })).sort((a, b) => b.weight - a.weight);
}

/** An ink pixel at least as far from the paper as its four neighbours: a stroke's own colour, unmixed. */
function strokeCentre(contrast: Uint8Array, mask: Uint8Array, p: number, i: number, stride: number, width: number): boolean {
  const c = contrast[i];
  return !(
    (mask[p - 1] && contrast[i - 1] > c) ||
    (mask[p + 1] && contrast[i + 1] > c) ||
    (mask[p - stride] && contrast[i - width] > c) ||
    (mask[p + stride] && contrast[i + width] > c)
  );
}

/**
 * Each ink's colour: the mean of its solid core, the stroke centres among the CORE_SHARE furthest
 * from the paper. Black text is drawn black, not the grey its anti-aliased edges average to (the
 * renderer's own anti-aliasing draws those edges again), nor the grey of the centres of small text
 * whose strokes are thinner than the scanner's blur and never reach the ink's full density.
 */
function inkColours(
  pixels: Uint8Array,
  bpp: number,
  width: number,
  contrast: Uint8Array,
  mask: Uint8Array,
  stride: number,
  inkOf: Uint8Array,
  inkCount: number,
): Float64Array {
  const centre = new Uint8Array(mask.length);
  const hist = new Int32Array(inkCount * 256);
  for (let p = stride; p < mask.length - stride; p++) {
    if (!mask[p]) continue;
    const i = (((p / stride) | 0) - 1) * width + (p % stride) - 1;
    if (!strokeCentre(contrast, mask, p, i, stride, width)) continue;
    centre[p] = 1;
    hist[inkOf[p] * 256 + contrast[i]]++;
  }
  const coreFrom = new Int32Array(inkCount);
  for (let k = 0; k < inkCount; k++) {
    let total = 0;
    for (let v = 0; v < 256; v++) total += hist[k * 256 + v];
    let v = 255;
    for (let seen = hist[k * 256 + v]; v > 0 && seen < CORE_SHARE * total;) seen += hist[k * 256 + --v];
    coreFrom[k] = v;
  }
  const sums = new Float64Array(inkCount * 4);
  for (let p = stride; p < mask.length - stride; p++) {
    if (!centre[p]) continue;
    const i = (((p / stride) | 0) - 1) * width + (p % stride) - 1;
    if (contrast[i] < coreFrom[inkOf[p]]) continue;
    const k = inkOf[p] * 4,
      j = i * bpp;
    sums[k] += pixels[j];
    sums[k + 1] += pixels[j + 1];
    sums[k + 2] += pixels[j + 2];
    sums[k + 3]++;
  }
  return sums;
}

/**
 * A drawing in black and a designed grey (pins and labels beside a black outline): the same
 * direction from the paper, so one ink by colour, but two by density. A mark's density is the
 * peak of its solid inside (pixels whose four neighbours, an input pixel away, are as dense,
 * within PLATEAU; contrast alone: a neighbour past a thin stroke's edge is paper): a stroke
 * thinner than the scanner's blur has no such inside, its peak says how thin it is, not how dark
 * its ink is, and it does not vote. The voting marks (weighted by area) split at Otsu's threshold
 * into a light and a dark class, which are two inks only when they lie far apart for their spread
 * (DENSITY_SEPARATION standard deviations), both are a real share of the ink, and the light one
 * is well lighter. Then every mark goes to the class of its peak: a mark is all of one ink, no
 * glyph comes out grey and black. Sets inkOf to 1 on the light marks; returns whether it split.
 */
function splitByDensity(contrast: Uint8Array, mask: Uint8Array, stride: number, width: number, scale: number, inkOf: Uint8Array): boolean {
  const parts = labelComponents(mask, stride);
  const peak = new Uint8Array(parts.count + 1),
    solidPeak = new Uint8Array(parts.count + 1);
  for (let p = stride; p < mask.length - stride; p++) {
    const id = parts.labels[p];
    if (!id) continue;
    const i = (((p / stride) | 0) - 1) * width + (p % stride) - 1;
    const c = contrast[i];
    if (c > peak[id]) peak[id] = c;
    // neighbours one input pixel away (`scale` traced pixels), inside the page
    const x = (p % stride) - 1,
      r = scale,
      rw = scale * width;
    if (c <= solidPeak[id] || x < r || x + r >= width || i < rw || i + rw >= contrast.length) continue;
    const low = c * (1 - PLATEAU);
    if (contrast[i - r] >= low && contrast[i + r] >= low && contrast[i - rw] >= low && contrast[i + rw] >= low) solidPeak[id] = c;
  }
  // only marks with a solid inside vote: a hairline's peak is the blur's, not its ink's
  const hist = new Float64Array(256);
  let total = 0;
  for (let id = 1; id <= parts.count; id++) {
    if (!solidPeak[id]) continue;
    hist[solidPeak[id]] += parts.area[id];
    total += parts.area[id];
  }
  if (!total) return false;
  const scores = otsuSplitScores(hist, total);
  let split = 0;
  for (let v = 1; v < 256; v++) if (scores[v] > scores[split]) split = v;
  const moments = [0, 0, 0, 0, 0, 0]; // weight, sum, squares of the light class, then the dark
  for (let v = 0; v < 256; v++) {
    const k = v <= split ? 0 : 3;
    moments[k] += hist[v];
    moments[k + 1] += hist[v] * v;
    moments[k + 2] += hist[v] * v * v;
  }
  const [wl, sl, ql, wd, sd, qd] = moments;
  if (Math.min(wl, wd) < MIN_DENSITY_SHARE * total) return false;
  const ml = sl / wl,
    md = sd / wd;
  const spread = ql / wl - ml * ml + (qd / wd - md * md);
  if ((md - ml) ** 2 < DENSITY_SEPARATION ** 2 * spread || ml > MAX_LIGHT_SHARE * md) return false;
  for (let p = stride; p < mask.length - stride; p++) if (parts.labels[p] && peak[parts.labels[p]] <= split) inkOf[p] = 1;
  return true;
}

/**
 * Ink index per mask pixel (padded layout). One ink: all zeros. Several: each pixel goes to the ink
 * whose direction is closest to its own; then every piece of one ink smaller than a speck that
 * touches another ink joins the ink it touches most (a tinted edge pixel, a JPEG fringe).
 */
function assignInks(
  pixels: Uint8Array,
  bpp: number,
  width: number,
  paper: PaperModel,
  mask: Uint8Array,
  stride: number,
  inks: Ink[],
  speckLimit: number,
): Uint8Array {
  const inkOf = new Uint8Array(mask.length);
  if (inks.length < 2) return inkOf;
  const local = new Float32Array(3);
  for (let p = stride; p < mask.length - stride; p++) {
    if (!mask[p]) continue;
    const x = (p % stride) - 1,
      y = ((p / stride) | 0) - 1;
    paperColourAt(paper, x, y, local);
    const j = (y * width + x) * bpp;
    const v: [number, number, number] = [local[0] - pixels[j], local[1] - pixels[j + 1], local[2] - pixels[j + 2]];
    let best = 0,
      bestCos = -Infinity;
    for (let k = 0; k < inks.length; k++) {
      const c = dot(inks[k].direction, v);
      if (c > bestCos) {
        bestCos = c;
        best = k;
      }
    }
    inkOf[p] = best;
  }
  const fragmentLimit = Math.max(speckLimit, 4);
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  for (let k = 0; k < inks.length; k++) {
    const own = new Uint8Array(mask.length);
    for (let p = 0; p < mask.length; p++) own[p] = mask[p] && inkOf[p] === k ? 1 : 0;
    const parts = labelComponents(own, stride);
    const touches = new Float64Array((parts.count + 1) * inks.length);
    for (let p = 0; p < mask.length; p++) {
      const id = parts.labels[p];
      if (!id || parts.area[id] >= fragmentLimit) continue;
      for (let o = 0; o < 8; o++) {
        const q = p + nb[o];
        if (mask[q] && inkOf[q] !== k) touches[id * inks.length + inkOf[q]]++;
      }
    }
    for (let p = 0; p < mask.length; p++) {
      const id = parts.labels[p];
      if (!id || parts.area[id] >= fragmentLimit) continue;
      let best = -1,
        most = 0;
      for (let other = 0; other < inks.length; other++)
        if (touches[id * inks.length + other] > most) {
          most = touches[id * inks.length + other];
          best = other;
        }
      if (best >= 0) inkOf[p] = best;
    }
  }
  return inkOf;
}

/** What the contrast histogram says of the ink's edges. */
interface EdgeProfile {
  /** The ink's typical full contrast: the upper quartile of the ink pixels' (most ink pixels of a line drawing are edge pixels). */
  full: number;
  /** Pixels between SOFT_EDGE and 1 − SOFT_EDGE of the full contrast, per ink pixel: 0 on a 1-bit drawing. */
  softShare: number;
}

function edgeProfile(contrast: Uint8Array, threshold: number): EdgeProfile {
  const hist = new Int32Array(256);
  for (let i = 0; i < contrast.length; i++) hist[contrast[i]]++;
  let inkCount = 0;
  for (let v = threshold + 1; v < 256; v++) inkCount += hist[v];
  let full = 255;
  for (let v = 255, seen = 0; v > threshold; v--) {
    seen += hist[v];
    if (seen * 4 >= inkCount) {
      full = v;
      break;
    }
  }
  let soft = 0;
  for (let v = Math.ceil(SOFT_EDGE * full); v <= (1 - SOFT_EDGE) * full; v++) soft += hist[v];
  return { full, softShare: inkCount ? soft / inkCount : 0 };
}

/**
 * The contrast at which each pixel's edge lies: half the strongest contrast within LEVEL_REACH
 * pixels, which is the midpoint of the blurred edge of the stroke it belongs to (paper 0, the
 * stroke's own peak). A thick stroke's peak is the ink's full contrast; a hairline, a serif or a
 * comma's tail blurred below it peaks lower, and is cut at its own half height, so it keeps its
 * width instead of thinning away under one global threshold. Never above half the ink's typical
 * full contrast (a blot darker than the ink is no reason to shrink its edge), never below
 * LEVEL_FLOOR of Otsu's threshold (paper grain and JPEG ringing stay paper).
 */
function edgeLevels(contrast: Uint8Array, threshold: number, full: number, width: number, height: number, reach: number): Uint8Array {
  const ceiling = Math.max(threshold, full) / 2,
    floor = threshold * LEVEL_FLOOR;
  const rowMax = new Uint8Array(contrast.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let m = 0;
      for (let k = Math.max(0, x - reach), end = Math.min(width - 1, x + reach); k <= end; k++)
        if (contrast[row + k] > m) m = contrast[row + k];
      rowMax[row + x] = m;
    }
  }
  const levels = new Uint8Array(contrast.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = 0;
      for (let k = Math.max(0, y - reach), end = Math.min(height - 1, y + reach); k <= end; k++)
        if (rowMax[k * width + x] > m) m = rowMax[k * width + x];
      levels[y * width + x] = Math.round(Math.max(floor, Math.min(ceiling, m / 2)));
    }
  }
  return levels;
}

/**
 * Ink mask (padded, 1-pixel paper border): pixels past their edge level (edgeLevels) that are
 * joined, 8-connected, to a pixel past Otsu's threshold as well (hysteresis: a faint tail of a
 * mark is ink, a faint smudge on its own is not).
 */
function inkMask(
  contrast: Uint8Array,
  threshold: number,
  levels: Uint8Array,
  transparent: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  const stride = width + 2;
  const weak = new Uint8Array(stride * (height + 2));
  const mask = new Uint8Array(weak.length);
  let stack: Int32Array = new Int32Array(1024),
    top = 0;
  for (let y = 0, i = 0; y < height; y++) {
    for (let q = (y + 1) * stride + 1, end = q + width; q < end; q++, i++) {
      if (contrast[i] <= levels[i] || transparent[i]) continue;
      weak[q] = 1;
      if (contrast[i] > threshold) {
        mask[q] = 1;
        if (top === stack.length) stack = growStack(stack);
        stack[top++] = q;
      }
    }
  }
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  while (top > 0) {
    const q = stack[--top];
    for (let o = 0; o < 8; o++) {
      const r = q + nb[o];
      if (!weak[r] || mask[r]) continue;
      mask[r] = 1;
      if (top === stack.length) stack = growStack(stack);
      stack[top++] = r;
    }
  }
  return mask;
}

function growStack(stack: Int32Array): Int32Array {
  const bigger = new Int32Array(stack.length * 2);
  bigger.set(stack);
  return bigger;
}

/**
 * Ink coverage per pixel, 0 (paper) to 255 (full ink), 128 at the pixel's edge level (so the
 * sub-pixel edges land where the mask's cut does): linear in contrast, full at twice the level,
 * the stroke's own peak.
 */
function inkCoverage(contrast: Uint8Array, levels: Uint8Array): Uint8Array {
  const out = new Uint8Array(contrast.length);
  for (let i = 0; i < contrast.length; i++) out[i] = Math.min(255, Math.round((128 * contrast[i]) / Math.max(1, levels[i])));
  return out;
}

function quantise(u: number): number {
  const b = Math.floor(((u + 1) / 2) * DIRECTION_BINS);
  return b < 0 ? 0 : b >= DIRECTION_BINS ? DIRECTION_BINS - 1 : b;
}

function unit(x: number, y: number, z: number): [number, number, number] {
  const len = Math.sqrt(x * x + y * y + z * z) || 1;
  return [x / len, y / len, z / len];
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
