/**
 * The output controls (issue #17): what is done to a kept VectorDocument before it is written.
 * Each control is one function over the document; renderDocument (engine/svg/render.ts) applies them.
 */
import type { FittedChain } from '../centerline/fit.js';
import type { OutputControls, SizeUnit } from '../types.js';
import { hexToLab, labDistanceSquared, normalHex, type Lab } from './colour-space.js';
import type { SvgFrame, VectorDocument } from './document.js';
import type { SvgItem } from './index.js';
import { doubleSignedArea, pathOutline } from './path-data.js';
import { stackUncovered } from './stacking.js';

/** CSS units per inch: the root's width and height in mm, cm, in or pt come from px at `dpi`. */
const PER_INCH: Record<Exclude<SizeUnit, 'px'>, number> = { mm: 25.4, cm: 2.54, in: 1, pt: 72 };

/** A length in `unit` with at most 3 decimals (a micrometre in mm), no trailing zeros. */
function lengthText(value: number, unit: SizeUnit): string {
  const text = String(Number(value.toFixed(3)));
  return unit === 'px' ? text : `${text}${unit}`;
}

/**
 * The root's width and height: both given, as given; one given, the other from the drawing's aspect
 * (the viewBox never changes, so the drawing scales uniformly); none, the pixel size in `unit` at `dpi`.
 */
export function frameFor(document: VectorDocument, controls: OutputControls): SvgFrame {
  const { displayWidth, displayHeight } = document;
  const { unit } = controls;
  let { width, height } = controls;
  if (width === null && height === null) {
    const scale = unit === 'px' ? 1 : PER_INCH[unit] / controls.dpi;
    width = displayWidth * scale;
    height = displayHeight * scale;
  } else if (width === null) {
    width = ((height as number) * displayWidth) / displayHeight;
  } else if (height === null) {
    height = (width * displayHeight) / displayWidth;
  }
  return { width: lengthText(width, unit), height: lengthText(height as number, unit), layers: controls.groupBy === 'color' };
}

/** A colour the document paints and how much of the drawing it covers (px²). */
interface PaintedColour {
  hex: string;
  weight: number;
}

function pointsOfChain(chain: FittedChain): number[] {
  const points = [chain.startX, chain.startY];
  for (const s of chain.segments) points.push(s.x, s.y);
  return points;
}

function polylineLength(points: number[]): number {
  let length = 0;
  for (let i = 2; i < points.length; i += 2) length += Math.hypot(points[i] - points[i - 2], points[i + 1] - points[i - 1]);
  return length;
}

function itemArea(item: SvgItem): number {
  return item.kind === 'fill' ? pathOutline(item.d).area : Math.PI * item.rx * item.ry;
}

/**
 * Every colour painted, weighted by the area it covers: a gradient's stops share its shape's area,
 * a stroke covers its length times its width. Colours written twice ('#fff', '#ffffff') are one.
 */
export function paintedColours(document: VectorDocument): PaintedColour[] {
  const weights = new Map<string, number>();
  const add = (hex: string, weight: number) => {
    const key = normalHex(hex);
    weights.set(key, (weights.get(key) ?? 0) + weight);
  };
  if (document.style === 'centerline') {
    if (document.page !== null) add(document.page, document.width * document.height);
    for (const f of document.fills) add(f.paint, Math.abs(f.chains.reduce((sum, c) => sum + doubleSignedArea(pointsOfChain(c)), 0)) / 2);
    for (const s of document.strokes) add(s.paint, Math.max(1, polylineLength(pointsOfChain(s.chain))) * s.width);
  } else {
    const stops = new Map(document.gradients.map((g) => [`url(#${g.id})`, g.fill.stops]));
    for (const item of document.items) {
      const area = itemArea(item);
      const gradientStops = stops.get(item.paint);
      if (gradientStops === undefined) add(item.paint, area);
      else for (const stop of gradientStops) add(stop.color, area / gradientStops.length);
    }
  }
  return [...weights].map(([hex, weight]) => ({ hex, weight }));
}

/** The document with every colour (flat paints and gradient stops) passed through `map`. */
export function recolour(document: VectorDocument, map: (hex: string) => string): VectorDocument {
  const paint = (p: string) => (p.startsWith('#') ? map(p) : p);
  if (document.style === 'centerline') {
    return {
      ...document,
      page: document.page === null ? null : paint(document.page),
      fills: document.fills.map((f) => ({ ...f, paint: paint(f.paint) })),
      strokes: document.strokes.map((s) => ({ ...s, paint: paint(s.paint) })),
    };
  }
  return {
    ...document,
    gradients: document.gradients.map((g) => ({
      id: g.id,
      fill: { ...g.fill, stops: g.fill.stops.map((s) => ({ ...s, color: map(s.color) })) },
    })),
    items: document.items.map((item) => ({ ...item, paint: paint(item.paint) })),
  };
}

/** Lloyd rounds at most; clusters of a few hundred colours settle in far fewer. */
const MAX_CLUSTER_ROUNDS = 40;

/**
 * max_colors: the painted colours clustered into `count` groups in OKLab, each colour weighted by
 * the area it paints (k-means; seeds picked farthest-first from the most-painted colour, so the
 * result is deterministic and a small accent colour far from the rest keeps its own cluster). Each
 * colour becomes its cluster's area-weighted mean.
 */
export function reduceColours(document: VectorDocument, count: number): VectorDocument {
  const colours = paintedColours(document);
  if (colours.length <= count) return document;
  const labs = colours.map((c) => hexToLab(c.hex));
  const weights = colours.map((c) => Math.max(c.weight, 1e-6));
  const heaviest = weights.indexOf(Math.max(...weights));
  const centres: Lab[] = [[...labs[heaviest]]];
  const nearest = labs.map((lab) => labDistanceSquared(lab, centres[0]));
  while (centres.length < count) {
    let pick = 0;
    for (let i = 1; i < labs.length; i++) if (weights[i] * nearest[i] > weights[pick] * nearest[pick]) pick = i;
    centres.push([...labs[pick]]);
    for (let i = 0; i < labs.length; i++) nearest[i] = Math.min(nearest[i], labDistanceSquared(labs[i], labs[pick]));
  }
  const cluster = new Int32Array(labs.length).fill(-1);
  for (let round = 0; round < MAX_CLUSTER_ROUNDS; round++) {
    let moved = false;
    for (let i = 0; i < labs.length; i++) {
      const best = nearestIndex(labs[i], centres);
      if (best !== cluster[i]) {
        cluster[i] = best;
        moved = true;
      }
    }
    if (!moved) break;
    const sums = centres.map(() => [0, 0, 0, 0]);
    for (let i = 0; i < labs.length; i++) {
      const sum = sums[cluster[i]];
      for (let k = 0; k < 3; k++) sum[k] += labs[i][k] * weights[i];
      sum[3] += weights[i];
    }
    sums.forEach((sum, c) => {
      if (sum[3] > 0) centres[c] = [sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3]];
    });
  }
  // each cluster takes the traced colour nearest its mean: a logo's white stays #ffffff, not the
  // mean of the white and its anti-aliased edges
  const representative = centres.map(() => -1);
  for (let i = 0; i < labs.length; i++) {
    const c = cluster[i],
      current = representative[c];
    if (current < 0 || labDistanceSquared(labs[i], centres[c]) < labDistanceSquared(labs[current], centres[c])) representative[c] = i;
  }
  const replacement = new Map(colours.map((c, i) => [c.hex, colours[representative[cluster[i]]].hex]));
  return recolour(document, (hex) => replacement.get(normalHex(hex)) ?? hex);
}

function nearestIndex(lab: Lab, choices: Lab[]): number {
  let best = 0;
  for (let c = 1; c < choices.length; c++) if (labDistanceSquared(lab, choices[c]) < labDistanceSquared(lab, choices[best])) best = c;
  return best;
}

/** palette: every colour, gradient stops too, becomes the palette colour nearest to it in OKLab. */
export function snapToPalette(document: VectorDocument, palette: string[]): VectorDocument {
  const labs = palette.map(hexToLab);
  return recolour(document, (hex) => palette[nearestIndex(hexToLab(hex), labs)]);
}

/**
 * Colours this close in OKLab count as the background's (a traced white is often #fefefe); well
 * under the distance between any two colours a designer would set apart.
 */
const BACKGROUND_TOLERANCE = 0.03;

function nearColour(hex: string, target: Lab): boolean {
  return hex.startsWith('#') && labDistanceSquared(hexToLab(hex), target) <= BACKGROUND_TOLERANCE ** 2;
}

/**
 * background=remove: the colour of the lowest shape that reaches the border is the background, and
 * the shapes of that colour that reach the border are left out (transparent there). '#rrggbb':
 * every shape of that colour is left out. A shape left out that sat in a hole of a shape below it
 * (a letter's counter) takes that hole with it, so the page shows there, not the letter's colour.
 */
export function dropBackground(document: VectorDocument, background: string): VectorDocument {
  if (background === 'keep') return document;
  if (document.style === 'centerline') {
    // the page is the only shape at the border; the lines on it stay unless they are that colour
    if (background === 'remove') return { ...document, page: null };
    const target = hexToLab(background);
    return {
      ...document,
      page: document.page !== null && nearColour(document.page, target) ? null : document.page,
      fills: document.fills.filter((f) => !nearColour(f.paint, target)),
      strokes: document.strokes.filter((s) => !nearColour(s.paint, target)),
    };
  }
  let removed: boolean[];
  if (background === 'remove') {
    const atBorder = document.items.map((item) => reachesBorder(item, document.width, document.height));
    const lowest = atBorder.indexOf(true);
    if (lowest < 0) return document;
    const paint = document.items[lowest].paint;
    const target = paint.startsWith('#') ? hexToLab(paint) : null;
    removed = document.items.map((item, i) => atBorder[i] && (item.paint === paint || (target !== null && nearColour(item.paint, target))));
  } else {
    const target = hexToLab(background);
    removed = document.items.map((item) => nearColour(item.paint, target));
  }
  const cut = stackUncovered(
    document.items,
    (lower, upper) => !removed[lower] && removed[upper],
    (i) => i,
  );
  const items = cut.filter((_, i) => !removed[i]);
  const used = new Set(items.map((item) => item.paint));
  return { ...document, items, gradients: document.gradients.filter((g) => used.has(`url(#${g.id})`)) };
}

/**
 * group_by=color: one layer per colour, stacked where the colour is first painted, so a shape can
 * land under one it was painted over. Where it sat in that shape's hole, the hole is cut: the
 * picture stays as traced (the seam underlap along shared edges stays on the side it was).
 */
export function layerSafe(document: VectorDocument): VectorDocument {
  if (document.style === 'centerline') return document;
  const layerOf = new Map<string, number>();
  for (const item of document.items) if (!layerOf.has(item.paint)) layerOf.set(item.paint, layerOf.size);
  const layer = document.items.map((item) => layerOf.get(item.paint) as number);
  const count = document.items.length;
  return {
    ...document,
    items: stackUncovered(
      document.items,
      (lower, upper) => layer[upper] < layer[lower],
      (i) => layer[i] * count + i,
    ),
  };
}

/** Within half a pixel of the frame's edge. */
function reachesBorder(item: SvgItem, width: number, height: number): boolean {
  let minX: number, minY: number, maxX: number, maxY: number;
  if (item.kind === 'fill') ({ minX, minY, maxX, maxY } = pathOutline(item.d));
  else {
    const r = Math.max(item.rx, item.ry);
    [minX, minY, maxX, maxY] = [item.cx - r, item.cy - r, item.cx + r, item.cy + r];
  }
  return minX <= 0.5 || minY <= 0.5 || maxX >= width - 0.5 || maxY >= height - 0.5;
}
