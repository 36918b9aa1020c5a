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
import { frameFor } from './controls.js';

export interface RenderedSvg {
  svg: string;
  stats: TraceStats;
}

export function renderDocument(document: VectorDocument, output: Partial<OutputControls> = DEFAULT_OUTPUT_CONTROLS): RenderedSvg {
  const started = performance.now();
  const controls: OutputControls = { ...DEFAULT_OUTPUT_CONTROLS, ...output };
  const frame = frameFor(document, controls);
  let svg: string, paths: number, nodes: number;
  if (document.style === 'centerline') {
    ({ svg, paths, nodes } = writeCenterlineSvg(document, frame));
  } else {
    svg = writeSvg(document, frame);
    paths = document.items.length;
    nodes = 0;
    for (const item of document.items) nodes += item.kind === 'fill' ? pathOutline(item.d).nodes : ELLIPSE_NODES;
  }
  const ms = { write: Math.round((performance.now() - started) * 10) / 10 };
  return { svg, stats: { bytes: Buffer.byteLength(svg), paths, nodes, ms } };
}
