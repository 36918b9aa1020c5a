/**
 * Shapes from regions: colours each region, decides the paint order, and lays out the SVG items
 * from the chains fitted once each (engine/parallel/chain-fits.ts); each shape's path data is
 * written by ./shape-writer.ts.
 *
 * Paint order is by area, largest first (ties by label): backgrounds and enclosing shapes go under,
 * details on top; with stacked holes (below) a region inside another's hole also comes after it.
 *
 * Seams (close_seams=true): two anti-aliased edges that meet exactly still let the white page show
 * through as a faint light line. So each fill runs `overlapPx` under every neighbour painted after
 * it, by its own outline: along the chains it shares with a later neighbour it follows an offset
 * copy of the fitted chain, moved that far towards the neighbour, which then covers it up to its
 * exact edge. The shape on top never moves, and fill mode writes no stroke (docs/api.md, "Submitting": close_seams).
 * With close_seams=false the shapes are an exact partition: both sides use the same fitted chain.
 * When nothing in the image is transparent, every region inside a hole is painted after the region
 * around it (stackedOrder), so the hole is simply not cut and the later shapes cover it; that closes
 * the seam around it completely and writes its boundary once instead of twice.
 */
import { crackPolyline, fitPolygon, simplifiedPolyline, type FittedChains } from '../fit/chain.js';
import type { FittedPath } from '../fit/index.js';
import { fadeToBeneath, fitGradient, gradientSampleStep, type GradientFill } from '../fit/gradient.js';
import type { BoundaryGraph, ChainRef } from '../boundary/index.js';
import type { PreparedImage } from '../prepare/index.js';
import type { Segmentation } from '../segment/index.js';
import type { EngineSettings } from '../settings.js';
import { checkAbort, type StageContext } from '../stage.js';
import { hexColour, type SvgDocument, type SvgItem } from './index.js';
import { gradientSamplesInKernel, paintSumsInKernel } from '../wasm/paint-sums.js';
import { withImageInKernel } from '../wasm/gradient-fit.js';
import { ELLIPSE_NODES } from './ellipse.js';
import { layoutShapes, PaintOrderWriter, type ShapeLayout, type ShapeOptions, type WrittenShape } from './shape-writer.js';

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
type PaintImage = Pick<PreparedImage, 'source'>;
type PaintSegmentation = Pick<Segmentation, 'regionCount' | 'area' | 'labels' | 'transparent' | 'colours'>;
type PaintSettings = Pick<EngineSettings, 'gradients'>;

/**
 * The fill of every region: its mean colour from the untouched source pixels, or (gradients=smooth)
 * a gradient where the region's colour ramps and the fitter finds one that matches.
 */
export function paintRegions(image: PaintImage, segmentation: PaintSegmentation, settings: PaintSettings): RegionPaints {
  const plan = planRegionPaints(image, segmentation, settings);
  const fills: Array<GradientFill | null> = [];
  // the fits take their samples from the image held in the fit kernel (engine/wasm/gradient-fit.ts)
  withImageInKernel(image.source, () => {
    for (let k = 0; k < plan.candidates.length; k++) fills.push(fitCandidateGradient(image, plan, k, settings));
  });
  return withGradients(plan, fills);
}

/**
 * paintRegions in three steps, so that threads can share the gradient fits (each a function of its
 * candidate's samples alone): the plan, one fit per candidate, and the paints with those fits.
 */
export interface PaintPlan {
  /** Every region's mean colour. */
  paint: string[];
  /** The regions a gradient is fitted to, ascending. */
  candidates: Int32Array;
  /** Candidate k samples the pixels sampled[firstSample[k] .. firstSample[k + 1]). */
  firstSample: Int32Array;
  sampled: Int32Array;
}

/** Where a plan's candidate arrays go (a worker's plan: shared memory), given their lengths. */
type PlanArrays = (candidates: number, samples: number) => Pick<PaintPlan, 'candidates' | 'firstSample' | 'sampled'>;

const ownArrays: PlanArrays = (candidates, samples) => ({
  candidates: new Int32Array(candidates),
  firstSample: new Int32Array(candidates + 1),
  sampled: new Int32Array(samples),
});

/** Candidate k's gradient, or null for its flat mean colour. */
export function fitCandidateGradient(image: PaintImage, plan: PaintPlan, k: number, settings: PaintSettings): GradientFill | null {
  const samples = plan.sampled.subarray(plan.firstSample[k], plan.firstSample[k + 1]);
  return fitGradient(image.source, samples, { maxResidual: settings.gradients.maxResidual });
}

/** The paints, with candidate k's gradient fills[k] where it has one (ids in candidate order). */
export function withGradients(plan: PaintPlan, fills: ReadonlyArray<GradientFill | null>): RegionPaints {
  const paint = plan.paint.slice();
  const gradients: Array<{ id: string; fill: GradientFill }> = [];
  for (let k = 0; k < plan.candidates.length; k++) {
    const fill = fills[k];
    if (!fill) continue;
    const id = `g${gradients.length.toString(36)}`;
    gradients.push({ id, fill });
    paint[plan.candidates[k]] = `url(#${id})`;
  }
  return { paint, gradients };
}

export function planRegionPaints(
  image: PaintImage,
  segmentation: PaintSegmentation,
  settings: PaintSettings,
  arrays: PlanArrays = ownArrays,
): PaintPlan {
  const { regionCount, area, labels, colours } = segmentation;
  // Line art names its inks' colours itself (engine/segment/line-art.ts); it has no gradients.
  if (colours)
    return {
      paint: Array.from({ length: regionCount }, (_, r) => hexColour(colours[3 * r], colours[3 * r + 1], colours[3 * r + 2])),
      ...arrays(0, 0),
    };
  const { data } = image.source;
  const channels = image.source.channels ?? 4;

  // Mean colour of every region, and its spread around it, from its inner pixels (all four
  // neighbours in the region) where it has enough of them: a pixel against another region is an
  // anti-aliased mix of the two, and counting the mix pulls the colour, and a gradient fitted to it
  // ramps towards the neighbour (a lighter fringe that reads as an edge moved inwards at any zoom).
  // The sums are of whole numbers (exact in doubles far beyond any image), so the kernel's order of
  // additions makes the numbers the TypeScript pass made.
  const { width } = image.source;
  const height = labels.length / width;
  const { sums, squares, innerSums, innerSquares, innerArea } = paintSumsInKernel({ width, height, labels, regionCount, data, channels });
  // a region with too few inner pixels (a thin stroke, a speck) is measured on all of them
  const byInner = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    byInner[r] = innerArea[r] >= MIN_INNER_PIXELS ? 1 : 0;
    if (byInner[r]) {
      sums.set(innerSums.subarray(3 * r, 3 * r + 3), 3 * r);
      squares[r] = innerSquares[r];
    }
  }
  const counted = (r: number) => Math.max(1, byInner[r] ? innerArea[r] : area[r]);
  const paint: string[] = new Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const n = counted(r);
    paint[r] = hexColour(Math.round(sums[r * 3] / n), Math.round(sums[r * 3 + 1] / n), Math.round(sums[r * 3 + 2] / n));
  }

  if (!settings.gradients.enabled) return { paint, ...arrays(0, 0) };
  // A region whose RMS distance from its mean is within the gradient's allowed residual cannot
  // gain from a gradient (the mean distance is never above the RMS), so the fitter skips it.
  const flatEnough = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const n = counted(r);
    const mr = sums[r * 3] / n,
      mg = sums[r * 3 + 1] / n,
      mb = sums[r * 3 + 2] / n;
    const variance = squares[r] / n - (mr * mr + mg * mg + mb * mb);
    flatEnough[r] = variance <= settings.gradients.maxResidual ** 2 ? 1 : 0;
  }
  return { paint, ...gradientSamples(image, segmentation, settings, flatEnough, { byInner, innerArea }, arrays) };
}

/**
 * Paint order and rings (with their offset underlaps) from the regions, their paints and the fitted chains
 * (chain c fitted forwards, for every chain a painted region uses; see
 * engine/parallel/chain-fits.ts). Rings that lose too much area are set back to their exact
 * cracks in `fitted` itself. Everything on this thread (engine/parallel/shape-writing.ts writes
 * the shapes on the workers too).
 */
export function composeShapes(
  image: PreparedImage,
  segmentation: Segmentation,
  graph: BoundaryGraph,
  paints: RegionPaints,
  fitted: FittedChains,
  settings: EngineSettings,
  context: StageContext,
  plan: ShapePlan = planShapes(image, segmentation, graph, fitted, settings, context),
): ComposedShapes {
  const { order } = plan.layout;
  const writer = new PaintOrderWriter(plan.layout, fitted, plan.options);
  const parts: WrittenPart[] = [];
  for (let i = 0; i < order.length; i += SHAPES_BETWEEN_CHECKS) {
    checkAbort(context);
    context.progress(0.8 + 0.2 * (i / order.length));
    const beneath: number[] = [];
    parts.push({ written: writer.write(i, Math.min(order.length, i + SHAPES_BETWEEN_CHECKS), beneath), beneath });
  }
  return layOutShapes(plan.layout, paints, parts);
}

/** Shapes written between two looks at the abort signal (and progress reports). */
const SHAPES_BETWEEN_CHECKS = 256;

/** What writing the shapes reads (./shape-writer.ts), decided before any is written. */
export interface ShapePlan {
  layout: ShapeLayout;
  options: ShapeOptions;
}

/**
 * The paint order, and the fits of rings that lose too much area set back (in `fitted`) to their
 * chains' polygons or exact cracks: everything the shapes' writing reads.
 */
export function planShapes(
  image: PreparedImage,
  segmentation: Segmentation,
  graph: BoundaryGraph,
  fitted: FittedChains,
  settings: EngineSettings,
  context: StageContext,
): ShapePlan {
  const { regionCount, area, transparent } = segmentation;
  const closeSeams = settings.seams.close;
  const stackHoles = closeSeams && !image.hasTransparency;
  // holes known to hold only regions painted after their own (so they need no cutting)
  const stackedHoles = new Set<ChainRef[]>();
  const order = stackHoles ? stackedOrder(graph, area, transparent, stackedHoles) : byArea(regionCount, area, transparent);

  // A fit that loses much of a ring's area (a one-pixel line folded flat, a glyph rounded away) is
  // not a smoothing any designer asked for: such rings are written with their chains' polygons
  // (or, failing those, their exact cracks), which their neighbours then share along the same chains.
  const lostAreaShare = settings.exactness.lostAreaShare;
  // Each chain is on two rings (its two sides): its exact area, and its polygon once a ring needed
  // it, are kept for the other ring instead of being made again (the same numbers either way).
  const exactArea2 = Number.isFinite(lostAreaShare) ? new Float64Array(graph.chains.length).fill(NaN) : null;
  const polygonFits = new Map<number, FittedPath>();
  const chainExactArea2 = (c: number): number => {
    let a = exactArea2![c];
    if (Number.isNaN(a)) a = exactArea2![c] = polylineArea2(graph.chains[c].points, graph.chains[c].closed);
    return a;
  };
  const polygonFit = (c: number): FittedPath => {
    let path = polygonFits.get(c);
    if (path === undefined) {
      const chain = graph.chains[c];
      const onFrame = chain.left < 0 || chain.right < 0;
      path = onFrame ? crackPolyline(chain.points, chain.closed) : fitPolygon(chain.points, chain.closed, settings.fit);
      polygonFits.set(c, path);
    }
    return path;
  };
  for (const r of Number.isFinite(lostAreaShare) ? order : []) {
    const outline = graph.outlines[r];
    for (const ring of outline.rings) {
      // Ring by ring: a one-pixel diagonal stroke is a string of tiny rings inside a large region.
      let fittedArea = 0;
      for (const ref of ring) fittedArea += (ref & 1 ? signedArea2Reversed(fitted, ref >> 1) : signedArea2(fitted, ref >> 1)) / 2;
      // against the outline the fit followed (sub-pixel points where the edge is anti-aliased)
      let exact = 0;
      for (const ref of ring) exact += ((ref & 1 ? -1 : 1) * chainExactArea2(ref >> 1)) / 2;
      const slack = lostAreaShare * Math.abs(exact) + LOST_AREA_PIXELS;
      if (Math.abs(fittedArea - exact) <= slack) continue;
      // First the chains' polygons (straight runs, no rounding: within half a pixel of the edge,
      // no pixel steps), and only when even they lose the area, the exact cracks.
      let polygonArea = 0;
      for (const ref of ring) {
        fitted.set(ref >> 1, polygonFit(ref >> 1));
        polygonArea += (ref & 1 ? signedArea2Reversed(fitted, ref >> 1) : signedArea2(fitted, ref >> 1)) / 2;
      }
      if (Math.abs(polygonArea - exact) <= slack) continue;
      if (settings.lineArt !== null) {
        // line art: the points themselves, simplified (a 1-px diagonal, a thin sliver), before their stairs
        let simplifiedArea = 0;
        for (const ref of ring) {
          const chain = graph.chains[ref >> 1];
          const onFrame = chain.left < 0 || chain.right < 0;
          fitted.set(
            ref >> 1,
            onFrame ? crackPolyline(chain.points, chain.closed) : simplifiedPolyline(chain.points, chain.closed, SIMPLIFY_TOLERANCE),
          );
          simplifiedArea += (ref & 1 ? signedArea2Reversed(fitted, ref >> 1) : signedArea2(fitted, ref >> 1)) / 2;
        }
        if (Math.abs(simplifiedArea - exact) <= slack) continue;
      }
      for (const ref of ring) {
        const chain = graph.chains[ref >> 1];
        fitted.set(ref >> 1, crackPolyline(chain.cracks, chain.closed));
      }
    }
  }
  checkAbort(context);
  return {
    layout: layoutShapes(graph, segmentation.labels, area, transparent, order, stackedHoles),
    options: { closeSeams, stackHoles, overlapPx: settings.seams.overlapPx, hiddenShortcuts: settings.seams.hiddenShortcuts },
  };
}

/** A stretch of the paint order as written, with the (region, painted beneath) pairs its writing listed. */
export interface WrittenPart {
  written: WrittenShape[];
  beneath: number[];
}

/** The SVG items from the shapes as written: `parts`, stretch after stretch, cover the paint order. */
export function layOutShapes(layout: ShapeLayout, paints: RegionPaints, parts: ReadonlyArray<WrittenPart>): ComposedShapes {
  const { order, ringFirst } = layout;
  const { paint } = paints;
  const gradients = paints.gradients.slice();
  // per region, the region painted whole beneath it (its hole around this one left uncut), else -1
  const paintedBeneath = new Int32Array(ringFirst.length - 1).fill(-1);
  for (const { beneath } of parts) for (let k = 0; k < beneath.length; k += 2) paintedBeneath[beneath[k]] = beneath[k + 1];
  const items: SvgItem[] = [];
  let nodes = 0;
  let i = 0;
  for (const { written } of parts)
    for (let j = 0; j < written.length; j++, i++) {
      const shape = written[j];
      if (shape === null) continue;
      const r = order[i];
      if (paintedBeneath[r] >= 0 && ringFirst[r + 1] - ringFirst[r] === 1) fadeOnto(gradients, paint[r], paint[paintedBeneath[r]]);
      if ('ellipse' in shape) {
        items.push({ kind: 'ellipse', paint: paint[r], ...shape.ellipse });
        nodes += ELLIPSE_NODES;
      } else {
        const item: SvgItem = { kind: 'fill', paint: paint[r], d: shape.d, nodes: shape.nodes };
        if (shape.plain !== null) item.withoutShortcuts = shape.plain;
        items.push(item);
        nodes += shape.nodes;
      }
    }
  return {
    document: { width: layout.width, height: layout.height, gradients, items },
    paths: items.length,
    nodes,
  };
}

/**
 * A gradient shape lying whole on one flat colour whose ramp runs towards that colour is drawn
 * fading to transparent (fadeToBeneath): the same picture, and the shape an artist would draw.
 */
function fadeOnto(gradients: Array<{ id: string; fill: GradientFill }>, paint: string, beneath: string): void {
  const id = /^url\(#([\w-]+)\)$/.exec(paint)?.[1];
  if (id === undefined || !beneath.startsWith('#')) return;
  const k = gradients.findIndex((g) => g.id === id);
  const faded = k >= 0 ? fadeToBeneath(gradients[k].fill, beneath) : null;
  if (faded) gradients[k] = { id, fill: faded };
}

/** Paint order by area, largest first (ties by label); transparent regions are not painted. */
function byArea(regionCount: number, area: Int32Array, transparent: Uint8Array): number[] {
  const order: number[] = [];
  for (let r = 0; r < regionCount; r++) if (!transparent[r]) order.push(r);
  return order.sort((a, b) => area[b] - area[a] || a - b);
}

/**
 * Paint order for stacked shapes: by area, largest first, except that every region lying inside a
 * hole of another comes after it, so that hole never needs cutting (a thin outline ring is smaller
 * than the cloud it encloses, yet goes under it, as the artist drew it). The regions inside a hole
 * are those reached from its rim without crossing its region; when they do not add up to the
 * hole's own area (a label in two pieces, one inside and one out) the hole is left out and cut.
 * Each region waits for its tightest container (the smallest hole holding it), which waits for its
 * own, so one pass over the area order places everything.
 */
function stackedOrder(graph: BoundaryGraph, area: Int32Array, transparent: Uint8Array, stackedHoles: Set<ChainRef[]>): number[] {
  const regionCount = graph.outlines.length;
  const byAreaOrder = byArea(regionCount, area, transparent);
  // region adjacency from the chains (each pair once per chain; repeats only cost a visit)
  const degree = new Int32Array(regionCount + 1);
  for (const chain of graph.chains) {
    if (chain.right < 0 || chain.left < 0 || chain.right === chain.left) continue;
    degree[chain.right + 1]++;
    degree[chain.left + 1]++;
  }
  for (let r = 0; r < regionCount; r++) degree[r + 1] += degree[r];
  const neighbours = new Int32Array(degree[regionCount]);
  const fill = degree.slice(0, regionCount);
  for (const chain of graph.chains) {
    if (chain.right < 0 || chain.left < 0 || chain.right === chain.left) continue;
    neighbours[fill[chain.right]++] = chain.left;
    neighbours[fill[chain.left]++] = chain.right;
  }
  const container = new Int32Array(regionCount).fill(-1);
  const containerHole = new Float64Array(regionCount).fill(Infinity);
  const seen = new Int32Array(regionCount).fill(-1);
  const queue = new Int32Array(regionCount);
  let visit = 0;
  for (let r = 0; r < regionCount; r++) {
    const outline = graph.outlines[r];
    for (let k = 0; k < outline.rings.length; k++) {
      const hole = -outline.ringArea[k];
      if (hole <= 0) continue;
      visit++;
      seen[r] = visit;
      let head = 0,
        tail = 0,
        inside = 0;
      for (const ref of outline.rings[k]) {
        const chain = graph.chains[ref >> 1];
        const other = ref & 1 ? chain.right : chain.left;
        if (other < 0 || seen[other] === visit) continue;
        seen[other] = visit;
        queue[tail++] = other;
      }
      while (head < tail && inside <= hole) {
        const q = queue[head++];
        inside += area[q];
        for (let i = degree[q]; i < degree[q + 1]; i++) {
          const n = neighbours[i];
          if (seen[n] === visit) continue;
          seen[n] = visit;
          queue[tail++] = n;
        }
      }
      if (head < tail || inside !== hole) continue;
      stackedHoles.add(outline.rings[k]);
      for (let i = 0; i < tail; i++) {
        const q = queue[i];
        if (hole < containerHole[q]) {
          containerHole[q] = hole;
          container[q] = r;
        }
      }
    }
  }
  const order: number[] = [];
  const placed = new Uint8Array(regionCount);
  const waiting = new Map<number, number[]>();
  // a region, then whatever waited for it, depth first (nesting can run deep: a stack, not recursion)
  const place = (r: number): void => {
    const stack = [r];
    while (stack.length > 0) {
      const q = stack.pop()!;
      placed[q] = 1;
      order.push(q);
      const children = waiting.get(q);
      if (!children) continue;
      waiting.delete(q);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  };
  for (const r of byAreaOrder) {
    const c = container[r];
    if (c < 0 || placed[c] || transparent[c]) place(r);
    else {
      const list = waiting.get(c);
      if (list) list.push(r);
      else waiting.set(c, [r]);
    }
  }
  return order;
}

/**
 * Large regions whose colour ramps get a gradient fill when the fitter finds one that matches.
 * Which pixels each candidate region samples (every step-th in scan order, gradientSampleStep) is
 * found in one pass over the labels, four bytes a sample; listing every pixel of every candidate
 * first cost four bytes a pixel of fresh memory per trace, which on a small drawing took longer
 * than the fits. fitGradient then reads exactly these (at most MAX_SAMPLES, so none is skipped).
 */
function gradientSamples(
  image: PaintImage,
  segmentation: PaintSegmentation,
  settings: PaintSettings,
  flatEnough: Uint8Array,
  innerOnly: { byInner: Uint8Array; innerArea: Int32Array },
  arrays: PlanArrays,
): Pick<PaintPlan, 'candidates' | 'firstSample' | 'sampled'> {
  const { regionCount, area, transparent, labels } = segmentation;
  const { byInner, innerArea } = innerOnly;
  const minArea = settings.gradients.minArea;
  // per candidate region: its sampling step (0 = not a candidate) and how many samples it takes
  const step = new Int32Array(regionCount);
  const sampleCount = new Int32Array(regionCount);
  let candidateCount = 0,
    total = 0;
  for (let r = 0; r < regionCount; r++) {
    if (area[r] >= minArea && !transparent[r] && !flatEnough[r]) {
      const sampledArea = byInner[r] ? innerArea[r] : area[r];
      step[r] = gradientSampleStep(sampledArea);
      sampleCount[r] = Math.ceil(sampledArea / step[r]);
      candidateCount++;
      total += sampleCount[r];
    }
  }
  const planned = arrays(candidateCount, total);
  const { candidates, firstSample, sampled } = planned;
  // where each candidate region's next sample goes
  const nextSample = new Int32Array(regionCount);
  firstSample[0] = 0;
  for (let r = 0, k = 0; r < regionCount; r++) {
    if (step[r] === 0) continue;
    candidates[k] = r;
    nextSample[r] = firstSample[k];
    firstSample[k + 1] = firstSample[k] + sampleCount[r];
    k++;
  }
  if (total === 0) return planned;
  // in scan order, run by run as the sums pass counted the inner pixels; other regions' runs skipped
  const { width } = image.source;
  gradientSamplesInKernel({ width, height: labels.length / width, labels, regionCount, step, byInner, nextSample, sampled });
  return planned;
}

/** Fewer inner pixels than this and a region's colour is measured on all its pixels. */
const MIN_INNER_PIXELS = 16;

/** Twice the shoelace sum of a chain's points, walked forwards (a closed loop closes itself). */
function polylineArea2(points: Float64Array, closed: boolean): number {
  let sum = 0;
  const n = points.length;
  for (let i = 0; i + 3 < n; i += 2) sum += points[i] * points[i + 3] - points[i + 2] * points[i + 1];
  if (closed && n >= 4) sum += points[n - 2] * points[1] - points[0] * points[n - 1];
  return sum;
}

/** How far (px) a line-art ring's simplified points may leave them: a crack corner is half a pixel off its edge. */
const SIMPLIFY_TOLERANCE = 0.5;

/** Slack in pixels on top of the lost-area share: a 1-px speck fitted as a diamond keeps half its area. */
const LOST_AREA_PIXELS = 0.5;

/**
 * Twice the signed area chain c's fit sweeps against the origin: the shoelace sum, with each
 * cubic's exact contribution ∫(x dy − y dx) written out in its control points.
 */
function signedArea2(fitted: FittedChains, c: number): number {
  const { coords, kinds } = fitted;
  let p = fitted.coordAt[c];
  const k0 = fitted.kindAt[c],
    n = fitted.count[c];
  let sum = 0;
  let x0 = coords[p],
    y0 = coords[p + 1];
  p += 2;
  for (let i = 0; i < n; i++) {
    let x3: number, y3: number;
    if (kinds[k0 + i] === 0) {
      x3 = coords[p];
      y3 = coords[p + 1];
      p += 2;
      sum += x0 * y3 - x3 * y0;
    } else if (kinds[k0 + i] === 2) {
      x3 = coords[p + 4];
      y3 = coords[p + 5];
      sum += halfEllipseArea2(x0, y0, x3, y3, coords[p], coords[p + 1], coords[p + 3]);
      p += 6;
    } else {
      const x1 = coords[p],
        y1 = coords[p + 1],
        x2 = coords[p + 2],
        y2 = coords[p + 3];
      x3 = coords[p + 4];
      y3 = coords[p + 5];
      p += 6;
      sum +=
        (3 * ((y3 - y0) * (x1 + x2) - (x3 - x0) * (y1 + y2) + y1 * (x0 - x2) - x1 * (y0 - y2) + y3 * (x2 + x0 / 3) - x3 * (y2 + y0 / 3))) /
        10;
    }
    x0 = x3;
    y0 = y3;
  }
  return sum;
}

/**
 * signedArea2 of chain c walked backwards, operation for operation what the forward sum of the
 * reversed path gives (so the same number to the last bit), without building the reversed path.
 */
function signedArea2Reversed(fitted: FittedChains, c: number): number {
  const { coords, kinds } = fitted;
  const k0 = fitted.kindAt[c],
    n = fitted.count[c];
  if (n === 0) return 0;
  // end of chain c's coordinates
  let p = fitted.coordAt[c] + 2;
  for (let i = 0; i < n; i++) p += kinds[k0 + i] === 0 ? 2 : 6;
  let sum = 0;
  let x0 = coords[p - 2],
    y0 = coords[p - 1];
  for (let i = n - 1; i >= 0; i--) {
    const size = kinds[k0 + i] === 0 ? 2 : 6;
    p -= size;
    // the previous segment's end (or the start) sits just before this segment's numbers
    const x3 = coords[p - 2],
      y3 = coords[p - 1];
    if (size === 2) sum += x0 * y3 - x3 * y0;
    else if (kinds[k0 + i] === 2) sum += halfEllipseArea2(x0, y0, x3, y3, coords[p], coords[p + 1], 1 - coords[p + 2 + 1]);
    else {
      const x1 = coords[p + 2],
        y1 = coords[p + 3],
        x2 = coords[p],
        y2 = coords[p + 1];
      sum +=
        (3 * ((y3 - y0) * (x1 + x2) - (x3 - x0) * (y1 + y2) + y1 * (x0 - x2) - x1 * (y0 - y2) + y3 * (x2 + x0 / 3) - x3 * (y2 + y0 / 3))) /
        10;
    }
    x0 = x3;
    y0 = y3;
  }
  return sum;
}

/**
 * ∫(x dy − y dx) along a half-ellipse arc (fit/ellipse.ts's only kind) from (x0,y0) to (x3,y3): the
 * chord's term plus the half ellipse's own area, π·rx·ry, signed by the turning direction.
 */
function halfEllipseArea2(x0: number, y0: number, x3: number, y3: number, rx: number, ry: number, sweep: number): number {
  return x0 * y3 - x3 * y0 + (sweep ? 1 : -1) * Math.PI * rx * ry;
}
