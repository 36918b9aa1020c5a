/**
 * Boundary graph: every boundary between two regions is traced ONCE on the pixel-crack grid (the
 * lines between pixels; vertices are pixel corners, (0,0) the image's top-left corner).
 *
 * - A junction is a corner where three or more boundary cracks meet (three or four labels, the
 *   image outside counting as a label, so a boundary that reaches the border ends there) or a
 *   checkerboard corner of two labels (four cracks).
 * - A chain runs from junction to junction; the region on its right (screen right, y down, facing
 *   along the chain) and on its left stay the same along it. A boundary with no junction is a
 *   closed loop.
 * - Each region's outline is a set of rings made of its chains, each used forward when the region is
 *   on the chain's right and reversed otherwise, so every ring keeps its region on the right: outer
 *   rings run clockwise on screen (positive area), holes anticlockwise. With the nonzero rule this
 *   fills the region exactly, and since both neighbours use the same fitted chain, they meet edge
 *   to edge.
 */
import { checkAbort, type StageContext } from '../stage.js';
import { crackMasksInKernel } from '../wasm/crack-masks.js';

/** Directions, clockwise on screen: east, south, west, north. */
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

interface Chain {
  /**
   * x0,y0,x1,y1,… the points the fitter follows; a closed loop does not repeat its first point.
   * Pixel corners as traced; sub-pixel points once placeSubpixelEdges (./subpixel.ts) has run.
   */
  points: Float64Array;
  /** The exact pixel-corner (crack) points, for the fallbacks that write a chain exactly. */
  cracks: Float64Array;
  closed: boolean;
  /** Region on the right / left when walking from the first point; -1 = outside the image. */
  right: number;
  left: number;
  firstDir: number;
  lastDir: number;
  /** Twice the shoelace sum of this chain's segments (for ring areas). */
  area2: number;
}

/** A chain used by a region: chain index × 2, +1 when walked backwards. */
export type ChainRef = number;

interface RegionOutline {
  rings: ChainRef[][];
  /** Signed pixel area enclosed by each ring: positive for outer rings, negative for holes. */
  ringArea: number[];
}

export interface BoundaryGraph {
  width: number;
  height: number;
  chains: Chain[];
  /** Outline per region label (empty for regions nobody asked for). */
  outlines: RegionOutline[];
}

export function buildBoundaryGraph(
  labels: Int32Array,
  width: number,
  height: number,
  regionCount: number,
  context: StageContext,
): BoundaryGraph {
  const chains = traceChains(labels, width, height, context);
  const outlines = linkOutlines(chains, width, height, regionCount);
  return { width, height, chains, outlines };
}

const NO_POINTS = new Float64Array(0);

/** Number of boundary cracks at a vertex, by its 4-bit crack mask. */
const DEGREE = Uint8Array.from({ length: 16 }, (_, m) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1));
/** Lowest set direction bit of a mask (the one way on at a degree-2 vertex once `back` is removed). */
const LOWEST = Uint8Array.from({ length: 16 }, (_, m) => (m & 1 ? 0 : m & 2 ? 1 : m & 4 ? 2 : m & 8 ? 3 : 0));

function traceChains(labels: Int32Array, width: number, height: number, context: StageContext): Chain[] {
  const W = width,
    H = height,
    V = W + 1;
  // Every vertex (pixel corner) as a 4-bit mask of the boundary cracks leaving it (bit d = direction
  // d), and a second mask of those not traced yet; a walk clears a crack's bit at both its ends.
  // The masks and the junctions come from WebAssembly (engine/wasm/assembly/crack-masks.ts): a
  // pass over every pixel that V8 made of TypeScript took half of this stage.
  const masks = crackMasksInKernel(labels, W, H);
  const { cracks, untraced, boundaryCracks, junctions } = masks;
  const vertices = V * (H + 1);
  // Every chain's points go into one growing buffer and become views of it at the end: a copy per
  // chain would give each its own backing store, which costs more than tracing a short chain.
  // It needs two numbers per boundary crack plus two per open chain (its last point); the chains
  // are not counted beforehand (a pass of its own over every vertex), a quarter more is a guess
  // that rarely has to grow.
  const t = walkState;
  t.width = W;
  t.height = H;
  t.labels = labels;
  t.cracks = cracks;
  t.untraced = untraced;
  t.step[0] = 1;
  t.step[1] = V;
  t.step[2] = -1;
  t.step[3] = -V;
  t.buffer = new Float64Array(Math.max(64, 2 * boundaryCracks + (boundaryCracks >> 1) + 4));
  t.used = 0;
  const chains: Chain[] = (t.chains = []);
  const ends: number[] = (t.ends = []);

  try {
    // Junctions in scan order.
    for (let i = 0; i < junctions.length; i++) {
      if ((i & 0xfff) === 0) checkAbort(context);
      const v = junctions[i];
      const y = (v / V) | 0,
        x = v - y * V;
      for (let d = 0; d < 4; d++) if (untraced[v] & (1 << d)) walk(t, x, y, d, false);
    }
    // What is left are loops without a junction; every loop has a horizontal crack, so starting on an
    // untraced horizontal boundary crack heading east finds each one once (in scan order: a walk
    // clears bits further on, so the next start is looked for after each walk).
    for (let v = masks.nextLoopStart(0), loops = 0; v < vertices; v = masks.nextLoopStart(v + 1), loops++) {
      if ((loops & 0xfff) === 0) checkAbort(context);
      const y = (v / V) | 0;
      walk(t, v - y * V, y, 0, true);
    }
  } finally {
    masks.release();
  }
  const buffer = t.buffer;
  for (let i = 0, from = 0; i < chains.length; i++) {
    chains[i].points = chains[i].cracks = buffer.subarray(from, ends[i]);
    from = ends[i];
  }
  // the trace's arrays are not kept alive by the state
  t.labels = NO_LABELS;
  t.cracks = t.untraced = NO_MASK;
  t.buffer = NO_POINTS;
  t.chains = [];
  t.ends = [];
  return chains;
}

const NO_LABELS = new Int32Array(0);
const NO_MASK = new Uint8Array(0);
/**
 * What walk reads and fills, one object for every trace on this thread; walk and the label
 * lookups are module functions, not closures made per trace, whose optimised code was lost
 * between traces (docs/performance.md, round 15).
 */
interface WalkState {
  width: number;
  height: number;
  labels: Int32Array;
  /** Per vertex (pixel corner): the boundary cracks leaving it, and those not traced yet (bit d: direction d). */
  cracks: Uint8Array;
  untraced: Uint8Array;
  /** A vertex's index step in each direction. */
  step: Int32Array;
  /** The chains' points end to end (`used` of them so far), and where each chain's end. */
  buffer: Float64Array;
  used: number;
  chains: Chain[];
  ends: number[];
}
const walkState: WalkState = {
  width: 0,
  height: 0,
  labels: NO_LABELS,
  cracks: NO_MASK,
  untraced: NO_MASK,
  step: new Int32Array(4),
  buffer: NO_POINTS,
  used: 0,
  chains: [],
  ends: [],
};

/** The label of pixel (x, y), -1 outside the image. */
function labelAt(t: WalkState, x: number, y: number): number {
  return x < 0 || y < 0 || x >= t.width || y >= t.height ? -1 : t.labels[y * t.width + x];
}

/** The region on the right of the crack leaving vertex (x, y) in direction d. */
function rightOf(t: WalkState, x: number, y: number, d: number): number {
  switch (d) {
    case 0:
      return labelAt(t, x, y);
    case 2:
      return labelAt(t, x - 1, y - 1);
    case 1:
      return labelAt(t, x - 1, y);
    default:
      return labelAt(t, x, y - 1);
  }
}

/** The region on the left of the crack leaving vertex (x, y) in direction d. */
function leftOf(t: WalkState, x: number, y: number, d: number): number {
  switch (d) {
    case 0:
      return labelAt(t, x, y - 1);
    case 2:
      return labelAt(t, x - 1, y);
    case 1:
      return labelAt(t, x, y);
    default:
      return labelAt(t, x - 1, y - 1);
  }
}

/** Traces one chain from vertex (sx, sy) in direction startDir to the next junction (or round its loop). */
function walk(t: WalkState, sx: number, sy: number, startDir: number, closedLoop: boolean): void {
  const { cracks, untraced, step } = t;
  let buffer = t.buffer;
  let x = sx,
    y = sy,
    d = startDir,
    len = t.used,
    area2 = 0;
  let v = sy * (t.width + 1) + sx;
  const sv = v;
  const right = rightOf(t, x, y, d),
    left = leftOf(t, x, y, d);
  for (;;) {
    if (len + 4 > buffer.length) {
      const bigger = new Float64Array(buffer.length * 2);
      bigger.set(buffer);
      buffer = t.buffer = bigger;
    }
    buffer[len++] = x;
    buffer[len++] = y;
    const back = (d + 2) & 3;
    untraced[v] &= ~(1 << d);
    v += step[d];
    untraced[v] &= ~(1 << back);
    const nx = x + DX[d],
      ny = y + DY[d];
    area2 += x * ny - nx * y;
    x = nx;
    y = ny;
    const mask = cracks[v];
    if (closedLoop ? v === sv : DEGREE[mask] !== 2) break;
    // Degree 2: continue along the other boundary crack (never straight back).
    d = LOWEST[mask & ~(1 << back)];
  }
  if (!closedLoop) {
    buffer[len++] = x;
    buffer[len++] = y;
  }
  t.chains.push({ points: NO_POINTS, cracks: NO_POINTS, closed: closedLoop, right, left, firstDir: startDir, lastDir: d, area2 });
  t.ends.push(len);
  t.used = len;
}

/** Turns tried at a ring's corner, sharpest right first. */
const TURN_ORDER = [1, 0, 3];
const NO_CANDIDATES: number[] = [];
/** Up to this many chains, a region's outline is linked by scanning its chains instead of a map. */
const SMALL_OUTLINE = 12;

function linkOutlines(chains: Chain[], width: number, height: number, regionCount: number): RegionOutline[] {
  const vertexId = (x: number, y: number) => y * (width + 1) + x;
  // Bucket the chain refs by region (CSR), every region on either side of a chain.
  const counts = new Int32Array(regionCount + 1);
  for (const c of chains) {
    if (c.right >= 0) counts[c.right + 1]++;
    if (c.left >= 0) counts[c.left + 1]++;
  }
  for (let r = 0; r < regionCount; r++) counts[r + 1] += counts[r];
  const refs = new Int32Array(counts[regionCount]);
  const fill = counts.slice(0, regionCount);
  chains.forEach((c, i) => {
    if (c.right >= 0) refs[fill[c.right]++] = i * 2;
    if (c.left >= 0) refs[fill[c.left]++] = i * 2 + 1;
  });

  const startVertex = (ref: ChainRef): number => {
    const p = chains[ref >> 1].points;
    return ref & 1 ? vertexId(p[p.length - 2], p[p.length - 1]) : vertexId(p[0], p[1]);
  };
  const endVertex = (ref: ChainRef): number => {
    const p = chains[ref >> 1].points;
    return ref & 1 ? vertexId(p[0], p[1]) : vertexId(p[p.length - 2], p[p.length - 1]);
  };
  const firstDir = (ref: ChainRef): number => {
    const c = chains[ref >> 1];
    return ref & 1 ? (c.lastDir + 2) & 3 : c.firstDir;
  };
  const lastDir = (ref: ChainRef): number => {
    const c = chains[ref >> 1];
    return ref & 1 ? (c.firstDir + 2) & 3 : c.lastDir;
  };
  const area2 = (ref: ChainRef): number => (ref & 1 ? -chains[ref >> 1].area2 : chains[ref >> 1].area2);

  const outlines: RegionOutline[] = [];
  let startOf = new Float64Array(64);
  for (let r = 0; r < regionCount; r++) {
    const mine = refs.subarray(counts[r], counts[r + 1]);
    const rings: ChainRef[][] = [];
    const ringArea: number[] = [];
    const used = new Uint8Array(mine.length);
    // Chains by start vertex. Most regions have a handful of chains: those are searched in order
    // (the same order the map's lists keep) instead of building a map per region.
    const small = mine.length <= SMALL_OUTLINE;
    if (startOf.length < mine.length) startOf = new Float64Array(2 * mine.length);
    const byStart = small ? null : new Map<number, number[]>();
    for (let k = 0; k < mine.length; k++) {
      if (chains[mine[k] >> 1].closed) {
        startOf[k] = -1;
        continue;
      }
      const v = startVertex(mine[k]);
      startOf[k] = v;
      if (!byStart) continue;
      const list = byStart.get(v);
      if (list) list.push(k);
      else byStart.set(v, [k]);
    }
    for (let k = 0; k < mine.length; k++) {
      if (used[k]) continue;
      used[k] = 1;
      const ring: ChainRef[] = [mine[k]];
      let a2 = area2(mine[k]);
      if (!chains[mine[k] >> 1].closed) {
        const first = startVertex(mine[k]);
        let current = mine[k];
        for (;;) {
          const v = endVertex(current);
          const inDir = lastDir(current);
          const candidates = byStart ? (byStart.get(v) ?? NO_CANDIDATES) : NO_CANDIDATES;
          // Prefer the sharpest right turn: it keeps diagonal pixels of the region apart at a
          // checkerboard corner (4-connectivity), so each ring is a simple outer ring or hole.
          let chosen = -1,
            closes = false;
          for (let t = 0; t < 3; t++) {
            const want = (inDir + TURN_ORDER[t]) & 3;
            const count = byStart ? candidates.length : mine.length;
            for (let i = 0; i < count; i++) {
              const c = byStart ? candidates[i] : i;
              if (!byStart && startOf[c] !== v) continue;
              if (firstDir(mine[c]) !== want) continue;
              if (!used[c]) {
                chosen = c;
                break;
              }
              if (c === k) {
                closes = true;
                break;
              }
            }
            if (chosen >= 0 || closes) break;
          }
          if (closes || chosen < 0 || (v === first && chosen < 0)) break;
          used[chosen] = 1;
          ring.push(mine[chosen]);
          a2 += area2(mine[chosen]);
          current = mine[chosen];
        }
      }
      rings.push(ring);
      ringArea.push(a2 / 2);
    }
    outlines.push({ rings, ringArea });
  }
  return outlines;
}
