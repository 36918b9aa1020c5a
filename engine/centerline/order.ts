/**
 * stroke_order=plotter: the centerline strokes in an order a pen plotter or a cutter draws with
 * little pen-up travel. The SVG writes one group per colour and width (a pen change), in the order
 * the groups first appear; inside each group the next stroke is the one whose nearer end is
 * closest to where the pen is (greedy nearest neighbour), entered from that end (the stroke is
 * reversed when that is its last point). A stroke that starts where the previous one ended is
 * joined onto it (one path, no pen lift); a stroke drawn twice, either way round, is drawn once.
 */
import type { CenterlineDocument } from '../svg/document.js';
import type { FittedChain } from './fit.js';

type Stroke = CenterlineDocument['strokes'][number];

/** Ends closer than this land on the same 0.1 px grid point in the SVG: the pen need not lift. */
const JOIN_DISTANCE = 0.05;

function endOf(chain: FittedChain): { x: number; y: number } {
  const segments = chain.segments;
  return segments.length === 0 ? { x: chain.startX, y: chain.startY } : segments[segments.length - 1];
}

/** The same curve drawn from its other end. */
export function reverseChain(chain: FittedChain): FittedChain {
  const segs = chain.segments;
  const end = endOf(chain);
  const reversed: FittedChain['segments'] = [];
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    const to = i > 0 ? segs[i - 1] : { x: chain.startX, y: chain.startY };
    reversed.push(
      s.kind === 'L' ? { kind: 'L', x: to.x, y: to.y } : { kind: 'C', x1: s.x2, y1: s.y2, x2: s.x1, y2: s.y1, x: to.x, y: to.y },
    );
  }
  return { startX: end.x, startY: end.y, segments: reversed, closed: chain.closed };
}

/** The strokes in the order the SVG draws them: grouped by colour and width, groups as they first appear. */
export function writtenOrder(strokes: Stroke[]): Stroke[][] {
  const groups = new Map<string, Stroke[]>();
  for (const s of strokes) {
    const key = `${s.paint} ${s.width}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return [...groups.values()];
}

/** Pen-up travel (px) drawing the strokes in this order, from the plotter's home at (0, 0). */
export function penUpTravel(strokes: Stroke[]): number {
  let x = 0,
    y = 0,
    travel = 0;
  for (const { chain } of strokes) {
    travel += Math.hypot(chain.startX - x, chain.startY - y);
    ({ x, y } = endOf(chain));
  }
  return travel;
}

/** A stroke's geometry as the SVG's 0.1 px grid sees it, the same text whichever way it is drawn. */
function geometryKey(stroke: Stroke): string {
  const text = (chain: FittedChain) => {
    const parts = [Math.round(chain.startX * 10), Math.round(chain.startY * 10)];
    for (const s of chain.segments) {
      if (s.kind === 'C') parts.push(Math.round(s.x1 * 10), Math.round(s.y1 * 10), Math.round(s.x2 * 10), Math.round(s.y2 * 10));
      parts.push(Math.round(s.x * 10), Math.round(s.y * 10));
    }
    return parts.join(',');
  };
  const forwards = text(stroke.chain),
    backwards = text(reverseChain(stroke.chain));
  return `${stroke.paint} ${stroke.width} ${forwards < backwards ? forwards : backwards}`;
}

/** The strokes reordered, reversed and joined for a plotter (see the header). */
export function plotterOrder(strokes: Stroke[]): Stroke[] {
  const seen = new Set<string>();
  const unique = strokes.filter((s) => {
    const key = geometryKey(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const out: Stroke[] = [];
  let x = 0,
    y = 0;
  for (const group of writtenOrder(unique)) {
    const n = group.length;
    const ends = new Float64Array(n * 4); // start x, y, end x, y
    group.forEach((s, i) => {
      const end = endOf(s.chain);
      ends.set([s.chain.startX, s.chain.startY, end.x, end.y], i * 4);
    });
    const used = new Uint8Array(n);
    let previous: Stroke | null = null;
    for (let placed = 0; placed < n; placed++) {
      let best = -1,
        bestDistance = Infinity,
        fromEnd = false;
      for (let i = 0; i < n; i++) {
        if (used[i]) continue;
        const toStart = (ends[i * 4] - x) ** 2 + (ends[i * 4 + 1] - y) ** 2;
        const toEnd = (ends[i * 4 + 2] - x) ** 2 + (ends[i * 4 + 3] - y) ** 2;
        if (toStart < bestDistance) [best, bestDistance, fromEnd] = [i, toStart, false];
        if (toEnd < bestDistance) [best, bestDistance, fromEnd] = [i, toEnd, true];
      }
      used[best] = 1;
      const stroke = group[best];
      const chain = fromEnd ? reverseChain(stroke.chain) : stroke.chain;
      if (previous !== null && !previous.chain.closed && !chain.closed && bestDistance <= JOIN_DISTANCE ** 2) {
        previous.chain = { ...previous.chain, segments: [...previous.chain.segments, ...chain.segments] };
      } else {
        previous = { ...stroke, chain };
        out.push(previous);
      }
      ({ x, y } = endOf(chain));
    }
  }
  return out;
}
