/**
 * Shapes from regions: colours each region, decides the paint order, fits every shared chain once,
 * and lays out the SVG items.
 *
 * Paint order is by area, largest first (ties by label): backgrounds and enclosing shapes go under,
 * details on top.
 *
 * Seams (close_seams=true): two anti-aliased edges that meet exactly still let the white page show
 * through as a faint light line. So each fill runs `overlapPx` under every neighbour painted after
 * it: along the chains it shares with a later neighbour it gets a stroke of twice that width in its
 * own paint, which the later shape then covers up to its exact edge. The shape on top never moves.
 * A hole whose inside is smaller than the region itself only holds regions painted later, so when
 * nothing in the image is transparent the hole is simply not cut (the later shapes cover it); that
 * closes the seam around it completely and writes its boundary once instead of twice.
 */
import { fitChain, reversePath, type FittedPath } from '../fit/index.js';
import { fitGradient, type GradientFill } from '../fit/gradient.js';
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

export function composeShapes(
  image: PreparedImage,
  segmentation: Segmentation,
  graph: BoundaryGraph,
  settings: EngineSettings,
  context: StageContext,
): ComposedShapes {
  const { regionCount, area, transparent, labels } = segmentation;
  const { data } = image.source;

  // Mean colour of every region, from the untouched source pixels.
  const sums = new Float64Array(regionCount * 3);
  for (let p = 0; p < labels.length; p++) {
    const o = labels[p] * 3;
    sums[o] += data[p * 4];
    sums[o + 1] += data[p * 4 + 1];
    sums[o + 2] += data[p * 4 + 2];
  }
  const paint: string[] = new Array(regionCount);
  for (let r = 0; r < regionCount; r++) {
    const n = Math.max(1, area[r]);
    paint[r] = hexColour(Math.round(sums[r * 3] / n), Math.round(sums[r * 3 + 1] / n), Math.round(sums[r * 3 + 2] / n));
  }

  const gradients: Array<{ id: string; fill: GradientFill }> = [];
  if (settings.gradients.enabled) addGradients(image, segmentation, settings, paint, gradients);
  checkAbort(context);

  const order: number[] = [];
  for (let r = 0; r < regionCount; r++) if (!transparent[r]) order.push(r);
  order.sort((a, b) => area[b] - area[a] || a - b);
  const rank = new Int32Array(regionCount).fill(-1);
  order.forEach((r, i) => (rank[r] = i));

  const fitted: Array<FittedPath | undefined> = new Array(graph.chains.length);
  const reversed: Array<FittedPath | undefined> = new Array(graph.chains.length);
  const pathOf = (ref: ChainRef): FittedPath => {
    const c = ref >> 1;
    let forward = fitted[c];
    if (!forward) {
      const chain = graph.chains[c];
      forward = fitted[c] = fitChain(chain.points, chain.closed, settings.fit);
    }
    if (!(ref & 1)) return forward;
    return (reversed[c] ??= reversePath(forward));
  };
  const otherSide = (ref: ChainRef): number => {
    const chain = graph.chains[ref >> 1];
    return ref & 1 ? chain.right : chain.left;
  };

  const closeSeams = settings.seams.close;
  const stackHoles = closeSeams && !image.hasTransparency;
  const items: SvgItem[] = [];
  let nodes = 0;
  for (let i = 0; i < order.length; i++) {
    if ((i & 255) === 0) {
      checkAbort(context);
      context.progress(0.2 + 0.8 * (i / order.length));
    }
    const r = order[i];
    const outline = graph.outlines[r];
    const fill = new PathWriter();
    const under = new PathWriter();
    outline.rings.forEach((ring, k) => {
      const ringArea = outline.ringArea[k];
      if (stackHoles && ringArea < 0 && -ringArea < area[r]) return;
      ring.forEach((ref, j) => fill.append(pathOf(ref), j > 0));
      fill.close();
      if (!closeSeams) return;
      // Runs of consecutive chains whose neighbour is painted later get the underlap stroke.
      const laterAt = ring.map((ref) => {
        const other = otherSide(ref);
        return other >= 0 && !transparent[other] && rank[other] > i;
      });
      if (laterAt.every(Boolean)) {
        ring.forEach((ref, j) => under.append(pathOf(ref), j > 0));
        under.close();
        return;
      }
      // Start after a chain that is not under, so a run never wraps around the ring's start.
      const offset = laterAt.indexOf(false) + 1;
      let inRun = false;
      for (let j = 0; j < ring.length; j++) {
        const idx = (offset + j) % ring.length;
        if (laterAt[idx]) {
          under.append(pathOf(ring[idx]), inRun);
          inRun = true;
        } else inRun = false;
      }
    });
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

/** Large regions whose colour ramps get a gradient fill when the fitter finds one that matches. */
function addGradients(
  image: PreparedImage,
  segmentation: Segmentation,
  settings: EngineSettings,
  paint: string[],
  gradients: Array<{ id: string; fill: GradientFill }>,
): void {
  const { regionCount, area, transparent, labels } = segmentation;
  const minArea = settings.gradients.minArea;
  const start = new Int32Array(regionCount + 1);
  for (let r = 0; r < regionCount; r++) start[r + 1] = start[r] + (area[r] >= minArea && !transparent[r] ? area[r] : 0);
  const pixels = new Int32Array(start[regionCount]);
  const fillAt = start.slice(0, regionCount);
  for (let p = 0; p < labels.length; p++) {
    const r = labels[p];
    if (start[r + 1] > start[r]) pixels[fillAt[r]++] = p;
  }
  for (let r = 0; r < regionCount; r++) {
    if (start[r + 1] === start[r]) continue;
    const fill = fitGradient(image.source, pixels.subarray(start[r], start[r + 1]), { maxResidual: settings.gradients.maxResidual });
    if (!fill) continue;
    const id = `g${gradients.length.toString(36)}`;
    gradients.push({ id, fill });
    paint[r] = `url(#${id})`;
  }
}
