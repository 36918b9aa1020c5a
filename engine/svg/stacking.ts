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
 * The items with, for every shape, the shapes `uncovered(lower, upper)` names (by index, upper
 * painted after lower) cut out of it where it runs under them whole. Of nested ones only the
 * outermost is cut: inside it the lower shape no longer paints, and evenodd would fill it again.
 */
function cutStackedHoles(items: SvgItem[], uncovered: (lower: number, upper: number) => boolean): SvgItem[] {
  const flat = new Map<number, Flattened>();
  const flattened = (i: number): Flattened => {
    let f = flat.get(i);
    if (f === undefined) flat.set(i, (f = flatten(items[i])));
    return f;
  };
  return items.map((item, lower) => {
    if (item.kind !== 'fill') return item; // an ellipse has no hole
    const cuts: number[] = [];
    for (let upper = lower + 1; upper < items.length; upper++) {
      if (!uncovered(lower, upper)) continue;
      if (!liesInside(flattened(upper), flattened(lower))) continue;
      if (cuts.some((outer) => liesInside(flattened(upper), flattened(outer)))) continue;
      cuts.push(upper);
    }
    if (cuts.length === 0) return item;
    const added = cuts.map((upper) => pathDataOf(items[upper]));
    const nodes = item.nodes === undefined ? undefined : added.reduce((sum, d) => sum + pathOutline(d).nodes, item.nodes);
    return { ...item, d: [item.d, ...added].join(''), rule: 'evenodd' as const, nodes };
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
export function stackUncovered(items: SvgItem[], uncovered: (lower: number, upper: number) => boolean): SvgItem[] {
  return cutStackedHoles(undoHiddenShortcuts(items, uncovered), uncovered);
}
