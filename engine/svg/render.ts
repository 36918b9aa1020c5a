/**
 * Draws a kept VectorDocument with output controls. The trace draws its own SVG through here too,
 * so a job drawn again with the same controls gives the same bytes as its trace did.
 */
import { writeSvg as writeCenterlineSvg } from '../centerline/svg.js';
import { DEFAULT_OUTPUT_CONTROLS, type OutputControls, type TraceStats } from '../types.js';
import type { VectorDocument } from './document.js';
import { ELLIPSE_NODES } from './ellipse.js';
import { writeSvg } from './index.js';
import { pathOutline } from './path-data.js';
import { dropBackground, frameFor, layerSafe, reduceColours, snapToPalette } from './controls.js';
import { penUpTravel, plotterOrder, writtenOrder } from '../centerline/order.js';

export interface RenderedSvg {
  svg: string;
  stats: TraceStats;
}

export function renderDocument(document: VectorDocument, output: Partial<OutputControls> = DEFAULT_OUTPUT_CONTROLS): RenderedSvg {
  const started = performance.now();
  const controls: OutputControls = { ...DEFAULT_OUTPUT_CONTROLS, ...output };
  const frame = frameFor(document, controls);
  // the background goes first, so its colour takes no share of max_colors or the palette
  let drawn = dropBackground(document, controls.background);
  if (controls.maxColors !== null) drawn = reduceColours(drawn, controls.maxColors);
  if (controls.palette !== null) drawn = snapToPalette(drawn, controls.palette);
  // after the colours are final: the layers are theirs
  if (controls.groupBy === 'color') drawn = layerSafe(drawn);
  let svg: string, paths: number, nodes: number;
  const penUp: Pick<TraceStats, 'penUpBefore' | 'penUpAfter'> = {};
  if (drawn.style === 'centerline') {
    const before = writtenOrder(drawn.strokes).flat();
    const strokes = controls.strokeOrder === 'plotter' ? plotterOrder(drawn.strokes) : before;
    penUp.penUpBefore = Math.round(penUpTravel(before) * 10) / 10;
    penUp.penUpAfter = Math.round(penUpTravel(strokes) * 10) / 10;
    ({ svg, paths, nodes } = writeCenterlineSvg({ ...drawn, strokes }, frame));
  } else {
    svg = writeSvg(drawn, frame);
    paths = drawn.items.length;
    nodes = 0;
    for (const item of drawn.items) nodes += item.kind === 'fill' ? (item.nodes ?? pathOutline(item.d).nodes) : ELLIPSE_NODES;
  }
  const ms = { write: Math.round((performance.now() - started) * 10) / 10 };
  return { svg, stats: { bytes: Buffer.byteLength(svg), paths, nodes, ms, ...penUp } };
}
