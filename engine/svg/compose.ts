/**
 * Shapes from regions: colours each region, decides the paint order, and lays out the SVG items
 * from the chains fitted once each (engine/parallel/chain-fits.ts).
 *
 * Paint order is by area, largest first (ties by label): backgrounds and enclosing shapes go under,
 * details on top.
 *
 * Seams (close_seams=true): two anti-aliased edges that meet exactly still let the white page show
 * through as a faint light line. So each fill runs `overlapPx` under every neighbour painted after
 * it: along the chains it shares with a later neighbour it gets a stroke of twice that width in its
 * own paint, which the later shape then covers up to its exact edge. The shape on top never moves.
 * A hole whose inside is smaller than the region itself, and whose rim touches only regions painted
 * later, holds nothing painted earlier (a region inside that does not touch the rim lies wholly
 * inside, so it is smaller too), so when nothing in the image is transparent the hole is simply not
 * cut and the later shapes cover it; that closes the seam around it completely and writes its
 * boundary once instead of twice.
 */
import { crackPolyline, type FittedChains } from '../fit/chain.js';
import { fitGradient, gradientSampleStep, type GradientFill } from '../fit/gradient.js';
import type { BoundaryGraph, ChainRef } from '../boundary/index.js';
import type { PreparedImage } from '../prepare/index.js';
import type { Segmentation } from '../segment/index.js';
import type { EngineSettings } from '../settings.js';
import { checkAbort, type StageContext } from '../stage.js';
import { PathWriter, hexColour, type SvgDocument, type SvgItem } from './index.js';

export interface ComposedShapes {
  document: SvgDocument;
  paths: number;
  nodes: number;
}

/** Each region's fill: a colour, or a gradient's url(#id) with the gradient itself. */
export interface RegionPaints {
  paint: string[];
  gradients: Array<{ id: string; fill: GradientFill }>;
}

/** What paintRegions reads (all of it can be sent to a worker thread: engine/parallel/region-paints.ts). */
export type PaintImage = Pick<PreparedImage, 'source'>;
export type PaintSegmentation = Pick<Segmentation, 'regionCount' | 'area' | 'labels' | 'transparent' | 'colours'>;
export type PaintSettings = Pick<EngineSettings, 'gradients'>;

/**
 * The fill of every region: its mean colour from the untouched source pixels, or (gradients=smooth)
 * a gradient where the region's colour ramps and the fitter finds one that matches.
 */
export function paintRegions(image: PaintImage, segmentation: PaintSegmentation, settings: PaintSettings): RegionPaints {
  const { regionCount, area, labels, colours } = segmentation;
  // Line art names its inks' colours itself (engine/segment/line-art.ts); it has no gradients.
  if (colours) return { paint: Array.from({ length: regionCount }, (_, r) => hexColour(colours[3 * r], colours[3 * r + 1], colours[3 * r + 2])), gradients: [] };
  const { data } = image.source;
  const channels = image.source.channels ?? 4;

  // Mean colour of every region, and its spread around it.
  const sums = new Float64Array(regionCount * 3);
  const squares = new Float64Array(regionCount);
  for (let p = 0; p < labels.length; p++) {
    const l = labels[p], o = l * 3;
    const r = data[p * channels], g = data[p * channels + 1], b = data[p * channels + 2];
    sums[o] += r;
    sums[o + 1] += g;
    sums[o + 2] += b;
    squares[l] += r * r + g * g + b * b;
  }
  const paint: string[] = new Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const n = Math.max(1, area[r]);
    paint[r] = hexColour(Math.round(sums[r * 3] / n), Math.round(sums[r * 3 + 1] / n), Math.round(sums[r * 3 + 2] / n));
  }

  const gradients: Array<{ id: string; fill: GradientFill }> = [];
  if (settings.gradients.enabled) {
    // A region whose RMS distance from its mean is within the gradient's allowed residual cannot
    // gain from a gradient (the mean distance is never above the RMS), so the fitter skips it.
    const flatEnough = new Uint8Array(regionCount);
    for (let r = 0; r < regionCount; r++) {
      const n = Math.max(1, area[r]);
      const mr = sums[r * 3] / n, mg = sums[r * 3 + 1] / n, mb = sums[r * 3 + 2] / n;
      const variance = squares[r] / n - (mr * mr + mg * mg + mb * mb);
      flatEnough[r] = variance <= settings.gradients.maxResidual ** 2 ? 1 : 0;
    }
    addGradients(image, segmentation, settings, paint, gradients, flatEnough);
  }
  return { paint, gradients };
}

/**
 * Paint order, rings and underlap strokes from the regions, their paints and the fitted chains
 * (chain c fitted forwards, for every chain a painted region uses; see
 * engine/parallel/chain-fits.ts). Rings that lose too much area are set back to their exact
 * cracks in `fitted` itself.
 */
export function composeShapes(
  image: PreparedImage,
  segmentation: Segmentation,
  graph: BoundaryGraph,
  paints: RegionPaints,
  fitted: FittedChains,
  settings: EngineSettings,
  context: StageContext,
): ComposedShapes {
  const { regionCount, area, transparent } = segmentation;
  const { paint, gradients } = paints;

  const order: number[] = [];
  for (let r = 0; r < regionCount; r++) if (!transparent[r]) order.push(r);
  order.sort((a, b) => area[b] - area[a] || a - b);
  const rank = new Int32Array(regionCount).fill(-1);
  order.forEach((r, i) => (rank[r] = i));

  // Each chain is fitted once, forwards; a ring that walks it backwards reads it backwards
  // (appendChain's reversed walk, signedArea2Reversed) instead of keeping a reversed copy.
  const append = (writer: PathWriter, ref: ChainRef, continuing: boolean): void => writer.appendChain(fitted, ref >> 1, (ref & 1) === 1, continuing);
  const otherSide = (ref: ChainRef): number => {
    const chain = graph.chains[ref >> 1];
    return ref & 1 ? chain.right : chain.left;
  };

  // A fit that loses much of a ring's area (a one-pixel line folded flat, a glyph rounded away) is
  // not a smoothing any designer asked for: such rings are written with their exact crack
  // polylines, which their neighbours then share along the same chains.
  const lostAreaShare = settings.exactness.lostAreaShare;
  for (const r of Number.isFinite(lostAreaShare) ? order : []) {
    const outline = graph.outlines[r];
    outline.rings.forEach((ring, k) => {
      // Ring by ring: a one-pixel diagonal stroke is a string of tiny rings inside a large region.
      let fittedArea = 0;
      for (const ref of ring) fittedArea += (ref & 1 ? signedArea2Reversed(fitted, ref >> 1) : signedArea2(fitted, ref >> 1)) / 2;
      const exact = outline.ringArea[k];
      if (Math.abs(fittedArea - exact) <= lostAreaShare * Math.abs(exact) + LOST_AREA_PIXELS) return;
      for (const ref of ring) {
        const chain = graph.chains[ref >> 1];
        fitted.set(ref >> 1, crackPolyline(chain.points, chain.closed));
      }
    });
  }
  checkAbort(context);

  const closeSeams = settings.seams.close;
  const stackHoles = closeSeams && !image.hasTransparency;
  const items: SvgItem[] = [];
  let nodes = 0;
  let laterAt = new Uint8Array(64); // per ring: is the chain's other side painted later (reused)
  for (let i = 0; i < order.length; i++) {
    if ((i & 255) === 0) {
      checkAbort(context);
      context.progress(0.8 + 0.2 * (i / order.length));
    }
    const r = order[i];
    const outline = graph.outlines[r];
    const fill = new PathWriter();
    const under = new PathWriter();
    for (let k = 0; k < outline.rings.length; k++) {
      const ring = outline.rings[k];
      const ringArea = outline.ringArea[k];
      if (stackHoles && ringArea < 0 && -ringArea < area[r]) {
        let allLater = true;
        for (let j = 0; j < ring.length && allLater; j++) if (!(rank[otherSide(ring[j])] > i)) allLater = false;
        if (allLater) continue;
      }
      for (let j = 0; j < ring.length; j++) append(fill, ring[j], j > 0);
      fill.close();
      if (!closeSeams) continue;
      // Runs of consecutive chains whose neighbour is painted later get the underlap stroke.
      if (laterAt.length < ring.length) laterAt = new Uint8Array(2 * ring.length);
      let firstNotLater = -1;
      for (let j = 0; j < ring.length; j++) {
        const other = otherSide(ring[j]);
        laterAt[j] = other >= 0 && !transparent[other] && rank[other] > i ? 1 : 0;
        if (!laterAt[j] && firstNotLater < 0) firstNotLater = j;
      }
      if (firstNotLater < 0) {
        for (let j = 0; j < ring.length; j++) append(under, ring[j], j > 0);
        under.close();
        continue;
      }
      // Start after a chain that is not under, so a run never wraps around the ring's start.
      const offset = firstNotLater + 1;
      let inRun = false;
      for (let j = 0; j < ring.length; j++) {
        const idx = (offset + j) % ring.length;
        if (laterAt[idx]) {
          append(under, ring[idx], inRun);
          inRun = true;
        } else inRun = false;
      }
    }
    if (fill.empty) continue;
    items.push({ kind: 'fill', paint: paint[r], d: fill.toString() });
    nodes += fill.segments;
    if (!under.empty) {
      items.push({ kind: 'underlap', paint: paint[r], d: under.toString() });
      nodes += under.segments;
    }
  }
  return {
    document: { width: graph.width, height: graph.height, gradients, items, underlapWidth: 2 * settings.seams.overlapPx },
    paths: items.length,
    nodes,
  };
}

/**
 * Large regions whose colour ramps get a gradient fill when the fitter finds one that matches.
 * Which pixels each candidate region samples (every step-th in scan order, gradientSampleStep) is
 * found in one pass over the labels, four bytes a sample; listing every pixel of every candidate
 * first cost four bytes a pixel of fresh memory per trace, which on a small drawing took longer
 * than the fits. fitGradient then reads exactly these (at most MAX_SAMPLES, so none is skipped).
 */
function addGradients(
  image: PaintImage,
  segmentation: PaintSegmentation,
  settings: PaintSettings,
  paint: string[],
  gradients: Array<{ id: string; fill: GradientFill }>,
  flatEnough: Uint8Array,
): void {
  const { regionCount, area, transparent, labels } = segmentation;
  const minArea = settings.gradients.minArea;
  // per candidate region: its sampling step (0 = not a candidate) and where its samples go
  const step = new Int32Array(regionCount);
  const firstSample = new Int32Array(regionCount + 1);
  for (let r = 0; r < regionCount; r++) {
    let samples = 0;
    if (area[r] >= minArea && !transparent[r] && !flatEnough[r]) {
      step[r] = gradientSampleStep(area[r]);
      samples = Math.ceil(area[r] / step[r]);
    }
    firstSample[r + 1] = firstSample[r] + samples;
  }
  if (firstSample[regionCount] === 0) return;
  const sampled = new Int32Array(firstSample[regionCount]);
  // pixels of each region still to pass before its next sample (its first pixel is sampled)
  const untilNext = new Int32Array(regionCount).fill(1);
  const nextSample = firstSample.slice(0, regionCount);
  for (let p = 0; p < labels.length; p++) {
    const r = labels[p];
    if (step[r] === 0 || --untilNext[r] !== 0) continue;
    untilNext[r] = step[r];
    sampled[nextSample[r]++] = p;
  }
  for (let r = 0; r < regionCount; r++) {
    if (step[r] === 0) continue;
    const fill = fitGradient(image.source, sampled.subarray(firstSample[r], firstSample[r + 1]), { maxResidual: settings.gradients.maxResidual });
    if (!fill) continue;
    const id = `g${gradients.length.toString(36)}`;
    gradients.push({ id, fill });
    paint[r] = `url(#${id})`;
  }
}

/** Slack in pixels on top of the lost-area share: a 1-px speck fitted as a diamond keeps half its area. */
const LOST_AREA_PIXELS = 0.5;

/**
 * Twice the signed area chain c's fit sweeps against the origin: the shoelace sum, with each
 * cubic's exact contribution ∫(x dy − y dx) written out in its control points.
 */
function signedArea2(fitted: FittedChains, c: number): number {
  const { coords, kinds } = fitted;
  let p = fitted.coordAt[c];
  const k0 = fitted.kindAt[c], n = fitted.count[c];
  let sum = 0;
  let x0 = coords[p], y0 = coords[p + 1];
  p += 2;
  for (let i = 0; i < n; i++) {
    let x3: number, y3: number;
    if (kinds[k0 + i] === 0) {
      x3 = coords[p]; y3 = coords[p + 1];
      p += 2;
      sum += x0 * y3 - x3 * y0;
    } else {
      const x1 = coords[p], y1 = coords[p + 1], x2 = coords[p + 2], y2 = coords[p + 3];
      x3 = coords[p + 4]; y3 = coords[p + 5];
      p += 6;
      sum += (3 * ((y3 - y0) * (x1 + x2) - (x3 - x0) * (y1 + y2) + y1 * (x0 - x2) - x1 * (y0 - y2) + y3 * (x2 + x0 / 3) - x3 * (y2 + y0 / 3))) / 10;
    }
    x0 = x3; y0 = y3;
  }
  return sum;
}

/**
 * signedArea2 of chain c walked backwards, operation for operation what the forward sum of the
 * reversed path gives (so the same number to the last bit), without building the reversed path.
 */
function signedArea2Reversed(fitted: FittedChains, c: number): number {
  const { coords, kinds } = fitted;
  const k0 = fitted.kindAt[c], n = fitted.count[c];
  if (n === 0) return 0;
  // end of chain c's coordinates
  let p = fitted.coordAt[c] + 2;
  for (let i = 0; i < n; i++) p += kinds[k0 + i] === 0 ? 2 : 6;
  let sum = 0;
  let x0 = coords[p - 2], y0 = coords[p - 1];
  for (let i = n - 1; i >= 0; i--) {
    const size = kinds[k0 + i] === 0 ? 2 : 6;
    p -= size;
    // the previous segment's end (or the start) sits just before this segment's numbers
    const x3 = coords[p - 2], y3 = coords[p - 1];
    if (size === 2) sum += x0 * y3 - x3 * y0;
    else {
      const x1 = coords[p + 2], y1 = coords[p + 3], x2 = coords[p], y2 = coords[p + 1];
      sum += (3 * ((y3 - y0) * (x1 + x2) - (x3 - x0) * (y1 + y2) + y1 * (x0 - x2) - x1 * (y0 - y2) + y3 * (x2 + x0 / 3) - x3 * (y2 + y0 / 3))) / 10;
    }
    x0 = x3; y0 = y3;
  }
  return sum;
}
