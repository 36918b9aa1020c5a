/**
 * Fill mode stacks its shapes (engine/svg/compose.ts): a shape whose hole holds only shapes painted
 * after it is written without that hole, and the later shapes cover it. The output controls that
 * change which shape is on top (group_by=color) or leave a shape out (background) must then cut
 * those holes after all, or the lower shape shows where the upper one was: a letter's counter
 * painted over by the letter, a removed counter filled with the letter's colour.
 *
 * A hole is cut by adding the upper shape's outline to the lower shape's path with
 * fill-rule="evenodd": inside the lower shape, inside the upper one is outside both. The upper
 * shape's outline is exactly the rim of the hole it sits in (both came from the same fitted
 * chains), so the cut meets it without a gap or an overlap.
 */
import type { Ellipse } from '../fit/ellipse.js';
import type { SvgItem } from './index.js';
import { grownPathData } from './offset.js';
import { doubleSignedArea, pathOutline, pathPolygons, windingAt } from './path-data.js';

interface Flattened {
  polygons: number[][];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** The lower shape's cut holes (rings wound against its largest ring). */
  holes: number[][];
}

/** Points around an ellipse for the inside tests; a tenth of a pixel off on a 40 px radius. */
const ELLIPSE_POINTS = 64;

function ellipsePolygon(e: Ellipse): number[] {
  const phi = (e.rotation * Math.PI) / 180;
  const points: number[] = [];
  for (let k = 0; k < ELLIPSE_POINTS; k++) {
    const a = (2 * Math.PI * k) / ELLIPSE_POINTS;
    const ex = e.rx * Math.cos(a),
      ey = e.ry * Math.sin(a);
    points.push(e.cx + ex * Math.cos(phi) - ey * Math.sin(phi), e.cy + ex * Math.sin(phi) + ey * Math.cos(phi));
  }
  return points;
}

function flatten(item: SvgItem): Flattened {
  const polygons = item.kind === 'fill' ? pathPolygons(item.d) : [ellipsePolygon(item)];
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const p of polygons)
    for (let i = 0; i < p.length; i += 2) {
      minX = Math.min(minX, p[i]);
      maxX = Math.max(maxX, p[i]);
      minY = Math.min(minY, p[i + 1]);
      maxY = Math.max(maxY, p[i + 1]);
    }
  const areas = polygons.map(doubleSignedArea);
  const outer = areas.reduce((best, a) => (Math.abs(a) > Math.abs(best) ? a : best), 0);
  const holes = polygons.filter((_, k) => areas[k] * outer < 0);
  return { polygons, minX, minY, maxX, maxY, holes };
}

/** The shape's path data: an ellipse as two arcs on the 0.1 px grid its element is written on. */
function pathDataOf(item: SvgItem): string {
  if (item.kind === 'fill') return item.d;
  const tenth = (v: number) => Math.round(v * 10) / 10;
  const [cx, cy, rx, ry] = [tenth(item.cx), tenth(item.cy), tenth(item.rx), tenth(item.ry)];
  const phi = (tenth(item.rotation) * Math.PI) / 180;
  const [dx, dy] = [rx * Math.cos(phi), rx * Math.sin(phi)];
  const text = (v: number) => String(Number(v.toFixed(2)));
  const arc = (x: number, y: number) => `A${rx} ${ry} ${tenth(item.rotation)} 0 1 ${text(x)} ${text(y)}`;
  return `M${text(cx + dx)} ${text(cy + dy)}${arc(cx - dx, cy - dy)}${arc(cx + dx, cy + dy)}z`;
}

/**
 * Whether `upper` lies inside what `lower` paints: every point of its outline is. A shape beside
 * `lower` that `lower` only runs under (the seam underlap) has outline points outside it, and one in
 * a hole `lower` cuts already holds that hole's ring.
 */
function liesInside(upper: Flattened, lower: Flattened): boolean {
  if (upper.minX < lower.minX || upper.maxX > lower.maxX || upper.minY < lower.minY || upper.maxY > lower.maxY) return false;
  for (const p of upper.polygons) for (let i = 0; i < p.length; i += 2) if (windingAt(lower.polygons, p[i], p[i + 1]) === 0) return false;
  for (const hole of lower.holes) if (windingAt(upper.polygons, hole[0], hole[1]) !== 0) return false;
  return true;
}

/**
 * How far (px) a shape lifted below the shapes it lay on runs under them: the trace's seam underlap
 * (engine/settings.ts, seams.overlapPx).
 */
const UNDERLAP = 0.75;

/** The shape grown by UNDERLAP all round, as path data; null where it cannot be (an arc). */
function grownPathDataOf(item: SvgItem): string | null {
  if (item.kind === 'fill') return grownPathData(item.d, UNDERLAP);
  return pathDataOf({ ...item, rx: item.rx + UNDERLAP, ry: item.ry + UNDERLAP });
}

/**
 * The items with, for every shape, the shapes `uncovered(lower, upper)` names (by index, upper
 * painted after lower) cut out of it where it runs under them whole. Of nested ones only the
 * outermost is cut: inside it the lower shape no longer paints, and evenodd would fill it again.
 *
 * One anti-aliased edge per rim: where a shape is cut out of several, only the one drawn on top
 * (by `position`, the final paint order) is cut along its outline; the others are cut along the
 * outline grown by UNDERLAP, which the top one covers, and the shape itself, drawn below them, is
 * grown as well. As traced, the rim was the shape's one edge over the shape below it; two cut edges
 * on the same rim would each let the other's colour through, and so would the shape's own edge.
 */
function cutStackedHoles(
  items: SvgItem[],
  uncovered: (lower: number, upper: number) => boolean,
  position: (item: number) => number,
): SvgItem[] {
  const flat = new Map<number, Flattened>();
  const flattened = (i: number): Flattened => {
    let f = flat.get(i);
    if (f === undefined) flat.set(i, (f = flatten(items[i])));
    return f;
  };
  const cutsOf = items.map((item, lower) => {
    const cuts: number[] = [];
    if (item.kind !== 'fill') return cuts; // an ellipse has no hole
    for (let upper = lower + 1; upper < items.length; upper++) {
      if (!uncovered(lower, upper)) continue;
      if (!liesInside(flattened(upper), flattened(lower))) continue;
      if (cuts.some((outer) => liesInside(flattened(upper), flattened(outer)))) continue;
      cuts.push(upper);
    }
    return cuts;
  });
  // per cut shape, the shape it is cut out of that is drawn on top
  const topmost = new Map<number, number>();
  cutsOf.forEach((cuts, lower) => {
    for (const upper of cuts) {
      const top = topmost.get(upper);
      if (top === undefined || position(lower) > position(top)) topmost.set(upper, lower);
    }
  });
  const grown = new Map<number, string | null>();
  const grownOf = (i: number): string | null => {
    if (!grown.has(i)) grown.set(i, grownPathDataOf(items[i]));
    return grown.get(i) as string | null;
  };
  return items.map((item, i) => {
    let shape = item;
    if (topmost.has(i)) {
      const d = grownOf(i);
      if (item.kind === 'ellipse') shape = { ...item, rx: item.rx + UNDERLAP, ry: item.ry + UNDERLAP };
      else if (d !== null) shape = { ...item, d, nodes: pathOutline(d).nodes };
    }
    const cuts = cutsOf[i];
    if (cuts.length === 0 || shape.kind !== 'fill') return shape;
    const added = cuts.map((upper) => (topmost.get(upper) === i ? null : grownOf(upper)) ?? pathDataOf(items[upper]));
    const nodes = shape.nodes === undefined ? undefined : added.reduce((sum, d) => sum + pathOutline(d).nodes, shape.nodes);
    return { ...shape, d: [shape.d, ...added].join(''), rule: 'evenodd' as const, nodes };
  });
}

/**
 * A shape whose hidden outline takes shortcuts across the shapes painted after it
 * (engine/svg/underlap.ts) goes back to the outline it runs under them with once any of those is
 * uncovered: lifted below it or left out, that shape no longer hides the shortcut.
 */
function undoHiddenShortcuts(items: SvgItem[], uncovered: (lower: number, upper: number) => boolean): SvgItem[] {
  return items.map((item, lower) => {
    if (item.kind !== 'fill' || item.withoutShortcuts === undefined) return item;
    for (let upper = lower + 1; upper < items.length; upper++)
      if (uncovered(lower, upper)) {
        const { withoutShortcuts, ...shape } = item;
        return { ...shape, d: withoutShortcuts.d, nodes: withoutShortcuts.nodes };
      }
    return item;
  });
}

/**
 * The items drawn so that what the shapes `uncovered(lower, upper)` names (by index, upper painted
 * after lower) used to cover shows as it was traced: hidden outlines without their shortcuts, then
 * stacked holes cut. The shortcuts go first, so a hole is cut in the outline that is drawn.
 */
export function stackUncovered(
  items: SvgItem[],
  uncovered: (lower: number, upper: number) => boolean,
  position: (item: number) => number,
): SvgItem[] {
  return cutStackedHoles(undoHiddenShortcuts(items, uncovered), uncovered, position);
}
