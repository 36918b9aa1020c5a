/**
 * Centerline tracing (trace_style=centerline) for line art, blueprints and scans: one stroke along
 * the middle of each line, at the line's measured width and colour; parts too thick to be a line
 * stay filled shapes in the same SVG.
 *
 *   separate ink → distance transform → split thick parts → skeleton → graph + strokes
 *   → outlines of thick parts → fit → write
 *
 * `detail`, `gradients`, `smoothing` and `close_seams` do not apply here (docs/api.md, "Submitting").
 */
import { VectorizeError } from '../errors.js';
import type { RgbaImage } from '../types.js';
import { labelComponents, type Components } from '../ink/components.js';
import { inkDepth } from './distance.js';
import { fitPolyline, type FitTolerance } from './fit.js';
import { joinAcrossGaps } from './gaps.js';
import { strokesFromSkeleton, type Stroke } from './graph.js';
import { fillPinholes, removeSpecks } from './ink.js';
import { separateInk } from '../ink/paper.js';
import { traceRings } from './outline.js';
import { thin } from './skeleton.js';
import { hex, writeSvg, type Rgb } from './svg.js';
import { VECTOR_DOCUMENT_VERSION, type CenterlineDocument } from '../svg/document.js';
import { hypot, hypot3 } from '../hypot.js';
import { luma601 } from '../luma.js';
import { sortIndices } from '../select.js';

interface CenterlineResult {
  svg: string;
  paths: number;
  nodes: number;
  /** The geometry, for drawing it again with output controls (engine/svg/render.ts). */
  document: CenterlineDocument;
}

interface CenterlineHooks {
  signal?: AbortSignal | undefined;
  onProgress?: ((fraction: number) => void) | undefined;
}

/** Stage weights for progress, roughly their share of the time on a scanned page. */
const STAGES = { ink: 0.25, distance: 0.15, thick: 0.1, skeleton: 0.2, graph: 0.15, outline: 0.05, write: 0.1 } as const;

/**
 * Strokes: a straight run may wander this far (px) from its chord; curves this far from the pixels
 * (floors; wide strokes get a share of their width, see strokeTolerance). Corners only at turns
 * sharper than 110 degrees: the bowls and hooks of small glyphs stay inside one curve.
 */
const STROKE_FIT: FitTolerance = { line: 1.3, curve: 1.4, cornerDegrees: 110 };
/** Share of a stroke's width its fitted centre may stray: curves, straight runs. */
const STROKE_CURVE_WIDTHS = 0.8;
const STROKE_LINE_WIDTHS = 0.4;
/** Outlines of filled parts follow the pixel staircase, so they allow a little more before a new node. */
const OUTLINE_FIT: FitTolerance = { line: 1.2, curve: 1.2, cornerDegrees: 60 };
/** Ink counts as a filled part where it is this many times thicker than the typical line… */
const THICK_FACTOR = 2.2;
/** …and at least this much (px of half-width) thicker, so 1-px hairline drawings keep their 3-px lines as strokes. */
const THICK_MARGIN = 2.5;
/** Strokes and fills within this RGB distance share one colour (scan grey jitter, JPEG tint). */
const COLOUR_MERGE = 48;

export async function traceCenterline(image: RgbaImage, hooks: CenterlineHooks = {}): Promise<CenterlineResult> {
  const { width, height } = image;
  let done = 0;
  const step = async (weight: number) => {
    done += weight;
    hooks.onProgress?.(Math.min(1, done));
    // Yield so an abort from the caller (a DELETE, a closed client) is seen between stages.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (hooks.signal?.aborted) throw new VectorizeError('canceled', 'The trace was canceled.');
  };
  if (hooks.signal?.aborted) throw new VectorizeError('canceled', 'The trace was canceled.');
  hooks.onProgress?.(0);

  const ink = separateInk(image);
  await step(STAGES.ink);

  const stride = width + 2,
    rows = height + 2;
  const padded = ink.padded;
  const distance = inkDepth(padded, stride, rows);
  fillPinholes(padded, distance, stride);
  const { half, deep } = typicalHalfWidth(padded, distance, stride);
  const inkParts = removeSpecks(padded, distance, stride, half);
  await step(STAGES.distance);

  // null: no part of this drawing is thick (most line drawings).
  const filled = thickParts(padded, distance, deep, stride, rows, half);
  await step(STAGES.thick);

  const thinned = thin(padded, stride, filled ?? undefined, inkParts.inkLeft);
  const skeleton = thinned.skeleton;
  const pixels = keepVanishedParts(inkParts, filled, skeleton, thinned.pixels, distance, stride);
  await step(STAGES.skeleton);

  const traced = strokesFromSkeleton({ skeleton, pixels, distance, stride, rgba: ink.rgba, contrast: ink.contrast, width });
  const strokes = joinAcrossGaps(traced);
  await step(STAGES.graph);

  const fills = filled ? filledShapes(filled, stride, rows, ink.rgba, width) : [];
  await step(STAGES.outline);

  const palette = new Palette();
  for (const s of strokes) palette.add(s.rgb, strokeLength(s) * s.width);
  for (const f of fills) palette.add(f.rgb, f.area);
  palette.settle();
  // A dark page (white lines on blueprint blue) is part of the drawing; a light one is just paper.
  const document: CenterlineDocument = {
    version: VECTOR_DOCUMENT_VERSION,
    style: 'centerline',
    width,
    height,
    displayWidth: width,
    displayHeight: height,
    page: luma(ink.background) < 128 ? hex(ink.background) : null,
    fills: fills.map((f) => ({
      paint: hex(palette.colourOf(f.rgb)),
      chains: f.rings.map((r) => fitPolyline(r, true, OUTLINE_FIT)),
    })),
    strokes: strokes.map((s) => ({
      paint: hex(palette.colourOf(s.rgb)),
      width: Math.max(1, Math.round(s.width * 2) / 2),
      chain: fitPolyline(s.points, s.closed, strokeTolerance(s.width)),
    })),
  };
  const written = writeSvg(document);
  await step(STAGES.write);
  return { ...written, document };
}

/**
 * A stroke's centre may wander from its fitted path by a share of its width and still cover the same
 * ink (the round pen is that wide), so wide strokes take longer segments; thin ones keep the floor.
 */
function strokeTolerance(width: number): FitTolerance {
  return {
    line: Math.max(STROKE_FIT.line, STROKE_LINE_WIDTHS * width),
    curve: Math.max(STROKE_FIT.curve, STROKE_CURVE_WIDTHS * width),
    cornerDegrees: STROKE_FIT.cornerDegrees,
  };
}

/**
 * The typical line half-width: the median distance-transform value on ridge pixels (local maxima),
 * i.e. along the middle of lines, where most of a line drawing's ridge pixels are. Also lists, in
 * row order, the ink pixels at least THICK_MARGIN deep: every core thickParts can find is among them
 * (its limit is at least that), so it need not scan the page again.
 */
function typicalHalfWidth(mask: Uint8Array, distance: Float32Array, stride: number): { half: number; deep: number[] } {
  const hist = new Int32Array(64);
  const deep: number[] = [];
  let ridges = 0;
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  for (let p = stride; p < mask.length - stride; p++) {
    if (!mask[p]) continue;
    const d = distance[p];
    if (d >= THICK_MARGIN) deep.push(p);
    let top = true;
    for (let ko = 0; ko < 8; ko++) {
      const o = nb[ko];
      if (distance[p + o] > d) {
        top = false;
        break;
      }
    }
    if (!top) continue;
    hist[Math.min(63, Math.round(d * 2))]++;
    ridges++;
  }
  let seen = 0;
  for (let b = 0; b < 64; b++) {
    seen += hist[b];
    if (seen * 2 >= ridges) return { half: b / 2, deep };
  }
  return { half: 0, deep };
}

/**
 * Thick parts: where the ink is much wider than its typical line. Cores deeper than the limit are
 * grown back out to the ink they stand for.
 */
function thickParts(
  mask: Uint8Array,
  distance: Float32Array,
  deep: number[],
  stride: number,
  rows: number,
  half: number,
): Uint8Array | null {
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  if (!half) return null;
  const filled = new Uint8Array(mask.length);
  const limit = Math.max(THICK_FACTOR * half, half + THICK_MARGIN);
  // Grow the cores back by the limit (a morphological opening): stamp a disc at each core pixel on
  // the core's rim; the inside of a core is ink anyway.
  const reach = limit + 1;
  const discX: number[] = [],
    discY: number[] = [];
  for (let dy = -Math.ceil(reach); dy <= Math.ceil(reach); dy++) {
    for (let dx = -Math.ceil(reach); dx <= Math.ceil(reach); dx++)
      if (dx * dx + dy * dy <= reach * reach) {
        discX.push(dx);
        discY.push(dy);
      }
  }
  let cores = 0;
  for (const p of deep) {
    if (!mask[p] || distance[p] < limit) continue;
    cores++;
    filled[p] = 1;
    let rim = false;
    for (let ko = 0; ko < 8; ko++) {
      const o = nb[ko];
      if (distance[p + o] < limit) {
        rim = true;
        break;
      }
    }
    if (!rim) continue;
    const x = p % stride,
      y = (p - x) / stride;
    for (let k = 0; k < discX.length; k++) {
      const xx = x + discX[k],
        yy = y + discY[k];
      if (xx < 0 || yy < 0 || xx >= stride || yy >= rows) continue;
      const q = yy * stride + xx;
      if (mask[q]) filled[q] = 1;
    }
  }
  if (!cores) return null;
  // Slivers of line left at the rim of a filled part (its corners) belong to it.
  const parts = labelComponents(mask, stride, filled);
  const touches = new Uint8Array(parts.count + 1);
  for (let p = stride; p < mask.length - stride; p++) {
    const id = parts.labels[p];
    if (!id || touches[id]) continue;
    for (let ko = 0; ko < 8; ko++) {
      const o = nb[ko];
      if (filled[p + o]) {
        touches[id] = 1;
        break;
      }
    }
  }
  const sliver = 2 * limit * limit;
  for (let p = 0; p < mask.length; p++) {
    const id = parts.labels[p];
    if (id && touches[id] && parts.area[id] < sliver) filled[p] = 1;
  }
  return filled;
}

/**
 * Zhang–Suen erases a 2×2 block completely, so a small dot can thin to nothing. Each ink part left
 * with neither skeleton nor fill keeps its deepest pixel as a one-pixel skeleton (a round dot).
 * Returns the skeleton's pixels in increasing order, those dots included.
 */
function keepVanishedParts(
  parts: Components,
  filled: Uint8Array | null,
  skeleton: Uint8Array,
  pixels: Int32Array,
  distance: Float32Array,
  stride: number,
): Int32Array {
  const { labels } = parts;
  const kept = new Uint8Array(parts.count + 1);
  for (let k = 0; k < pixels.length; k++) kept[labels[pixels[k]]] = 1;
  if (filled) for (let p = 0; p < filled.length; p++) if (filled[p]) kept[labels[p]] = 1;
  // Only the vanished parts (a few dots) are walked, each from its first pixel; labels are marked
  // negative as they are visited (the components are not needed after this).
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const dots: number[] = [];
  const stack: number[] = [];
  for (let id = 1; id <= parts.count; id++) {
    const first = parts.start[id];
    if (kept[id] || labels[first] !== id) continue;
    // The deepest pixel; on a tie, the first in row order (as a scan of the page would pick).
    let deepest = first;
    labels[first] = -id;
    stack.push(first);
    while (stack.length) {
      const p = stack.pop()!;
      if (distance[p] > distance[deepest] || (distance[p] === distance[deepest] && p < deepest)) deepest = p;
      for (let ko = 0; ko < 8; ko++) {
        const o = nb[ko];
        if (labels[p + o] === id) {
          labels[p + o] = -id;
          stack.push(p + o);
        }
      }
    }
    skeleton[deepest] = 1;
    dots.push(deepest);
  }
  if (!dots.length) return pixels;
  const all = new Int32Array(pixels.length + dots.length);
  all.set(pixels);
  all.set(dots, pixels.length);
  return sortIndices(all);
}

interface FilledPart {
  rings: Float64Array[];
  rgb: Rgb;
  area: number;
}

function filledShapes(filled: Uint8Array, stride: number, rows: number, rgba: Uint8Array, width: number): FilledPart[] {
  // Most line drawings have no filled part: skip the labelling pass over the page.
  if (filled.indexOf(1) < 0) return [];
  const parts = labelComponents(filled, stride);
  if (!parts.count) return [];
  // Per-part median colour from a histogram per channel (no per-pixel objects).
  const hist = new Int32Array((parts.count + 1) * 768);
  for (let p = 0; p < filled.length; p++) {
    const id = parts.labels[p];
    if (!id) continue;
    const x = (p % stride) - 1,
      y = Math.floor(p / stride) - 1;
    const j = (y * width + x) * 4;
    hist[id * 768 + rgba[j]]++;
    hist[id * 768 + 256 + rgba[j + 1]]++;
    hist[id * 768 + 512 + rgba[j + 2]]++;
  }
  const out: FilledPart[] = [];
  const index = new Int32Array(parts.count + 1).fill(-1);
  for (let id = 1; id <= parts.count; id++) {
    const c: number[] = [];
    for (let ch = 0; ch < 3; ch++) {
      let seen = 0,
        v = 0;
      for (; v < 256; v++) {
        seen += hist[id * 768 + ch * 256 + v];
        if (seen * 2 >= parts.area[id]) break;
      }
      c.push(v);
    }
    index[id] = out.length;
    out.push({ rings: [], rgb: [c[0], c[1], c[2]], area: parts.area[id] });
  }
  for (const ring of traceRings(filled, stride, rows)) {
    // Padded grid → image coordinates.
    const pts = ring.points;
    for (let k = 0; k < pts.length; k++) pts[k] -= 1;
    out[index[parts.labels[ring.pixel]]].rings.push(pts);
  }
  return out;
}

function strokeLength(s: Stroke): number {
  let len = 0;
  for (let k = 2; k < s.points.length; k += 2) len += hypot(s.points[k] - s.points[k - 2], s.points[k + 1] - s.points[k - 1]);
  return Math.max(len, 1);
}

function luma(c: Rgb): number {
  return luma601(c[0], c[1], c[2]);
}

/**
 * Greedy colour clustering, heaviest first: a scan's many near-blacks become one black, while a
 * red line and a blue line stay apart. Deterministic (input order breaks weight ties).
 */
class Palette {
  private items: { rgb: Rgb; weight: number }[] = [];
  private clusters: { sum: [number, number, number]; weight: number; seed: Rgb; rgb: Rgb }[] = [];

  add(rgb: Rgb, weight: number): void {
    this.items.push({ rgb, weight });
  }

  settle(): void {
    const order = this.items.map((_, i) => i).sort((a, b) => this.items[b].weight - this.items[a].weight || a - b);
    for (const i of order) {
      const { rgb, weight } = this.items[i];
      let home = this.nearest(rgb, (c) => c.seed);
      if (!home) this.clusters.push((home = { sum: [0, 0, 0], weight: 0, seed: rgb, rgb }));
      home.sum[0] += rgb[0] * weight;
      home.sum[1] += rgb[1] * weight;
      home.sum[2] += rgb[2] * weight;
      home.weight += weight;
    }
    for (const c of this.clusters)
      c.rgb = [Math.round(c.sum[0] / c.weight), Math.round(c.sum[1] / c.weight), Math.round(c.sum[2] / c.weight)];
  }

  colourOf(rgb: Rgb): Rgb {
    return this.nearest(rgb, (c) => c.seed)?.rgb ?? rgb;
  }

  private nearest(rgb: Rgb, key: (c: Palette['clusters'][number]) => Rgb) {
    let best: Palette['clusters'][number] | undefined,
      bestD = COLOUR_MERGE;
    for (const c of this.clusters) {
      const s = key(c);
      const d = hypot3(s[0] - rgb[0], s[1] - rgb[1], s[2] - rgb[2]);
      if (d <= bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }
}
