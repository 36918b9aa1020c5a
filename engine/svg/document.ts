/**
 * The kept geometry of a trace: exactly what was drawn, before the output controls
 * (engine/svg/controls.ts) recolour, drop, group or size it. Plain JSON, so the server can keep it
 * with the job and draw it again later (POST /v1/jobs/{id}/render) without tracing again.
 */
import type { FittedChain } from '../centerline/fit.js';
import type { SvgDocument } from './index.js';

/** Bumped whenever a field changes meaning; a kept document of another version is not drawn. */
export const VECTOR_DOCUMENT_VERSION = 1;

interface DocumentFrame {
  version: typeof VECTOR_DOCUMENT_VERSION;
  /** The viewBox: the traced raster's size in px. */
  width: number;
  height: number;
  /** The root's width and height: the input's own size (a busy image is traced smaller, engine/budget.ts). */
  displayWidth: number;
  displayHeight: number;
}

/** Fill mode: filled paths and ellipse elements bottom to top, gradients by id. */
export interface FillDocument extends DocumentFrame, Pick<SvgDocument, 'gradients' | 'items'> {
  style: 'fill';
}

/** Centerline mode: a dark page, filled thick parts, then strokes along the lines' middles. */
export interface CenterlineDocument extends DocumentFrame {
  style: 'centerline';
  /** The page's colour when it is part of the drawing (white lines on blueprint blue), else null. */
  page: string | null;
  fills: Array<{ paint: string; chains: FittedChain[] }>;
  strokes: Array<{ paint: string; width: number; chain: FittedChain }>;
}

export type VectorDocument = FillDocument | CenterlineDocument;

/** One written element (or a run of them) and the colour it paints, for grouping by colour. */
export interface PaintedXml {
  paint: string;
  xml: string;
}

/** The root element's size attributes and whether colours become Inkscape layers. */
export interface SvgFrame {
  width: string;
  height: string;
  layers: boolean;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const INKSCAPE_NS = 'http://www.inkscape.org/namespaces/inkscape';

export function plainFrame(width: number, height: number): SvgFrame {
  return { width: String(width), height: String(height), layers: false };
}

/**
 * The SVG's lines: root, defs, then the elements; with layers, one `<g>` per colour holding its
 * elements in their order, the layers stacked by where their colour first appears (Inkscape lists
 * a layer per `inkscape:groupmode="layer"` group).
 */
export function assembleSvg(viewWidth: number, viewHeight: number, frame: SvgFrame, defs: string[], elements: PaintedXml[]): string[] {
  const ns = frame.layers ? `xmlns="${SVG_NS}" xmlns:inkscape="${INKSCAPE_NS}"` : `xmlns="${SVG_NS}"`;
  const out = [`<svg ${ns} viewBox="0 0 ${viewWidth} ${viewHeight}" width="${frame.width}" height="${frame.height}">`, ...defs];
  if (!frame.layers) {
    for (const e of elements) out.push(e.xml);
  } else {
    const byPaint = new Map<string, string[]>();
    for (const e of elements) {
      const members = byPaint.get(e.paint);
      if (members) members.push(e.xml);
      else byPaint.set(e.paint, [e.xml]);
    }
    let n = 0;
    for (const [paint, members] of byPaint) {
      n++;
      out.push(`<g id="layer${n}" inkscape:groupmode="layer" inkscape:label="${layerLabel(paint)}">`, ...members, '</g>');
    }
  }
  out.push('</svg>');
  return out;
}

/** A colour's layer is named by the colour ("#1a2b3c"); a gradient by its id. */
function layerLabel(paint: string): string {
  const gradient = /^url\(#([\w-]+)\)$/.exec(paint);
  return gradient ? `gradient ${gradient[1]}` : paint;
}
