/**
 * Skeleton → graph → strokes. Skeleton pixels with three or more neighbours are junction pixels;
 * touching junction pixels form one junction node, single-neighbour pixels are end nodes, and the
 * runs between nodes are edges. The graph is then cleaned (close junctions merged, spurs pruned) and
 * edges are chained through junctions into as few strokes as read naturally: at each junction the
 * straightest continuation of similar width and colour goes on, the rest end there.
 */

import { hypot, hypot3 } from '../hypot.js';
import { scratchSlots, scratchUint8 } from '../scratch.js';

interface SkeletonInput {
  /** Padded skeleton (1 = skeleton pixel), row stride `stride`, 1-pixel empty border. */
  skeleton: Uint8Array;
  /** The skeleton's pixels, increasing. */
  pixels: Int32Array;
  /** Padded distance from each ink pixel centre to the nearest paper pixel centre. */
  distance: Float32Array;
  stride: number;
  /** Unpadded colours of the image, 4 bytes a pixel (alpha ignored). */
  rgba: Uint8Array;
  /** Unpadded contrast to the page colour (where a line's true colour is strongest). */
  contrast: Uint8Array;
  width: number;
}

export interface Stroke {
  /** x0,y0,x1,y1,… in image coordinates (pixel centres at .5). */
  points: Float64Array;
  closed: boolean;
  /** Measured line width in px. */
  width: number;
  rgb: [number, number, number];
}

interface Edge {
  a: number;
  b: number;
  /** Padded pixel indices from node a to node b. */
  pixels: number[];
  alive: boolean;
  length: number;
  width: number;
  rgb: [number, number, number];
}

/**
 * A branch from a line end to a junction is a spur when its tip sticks out of the junction's
 * inscribed disc by at most SPUR_RADII junction radii (and at least SPUR_MIN px): the forks Zhang–Suen
 * grows into the corners of a square line end, and bumps of scan noise. Real short strokes (the
 * arms of small text) stick out further.
 */
const SPUR_RADII = 1.5;
const SPUR_MIN = 1.5;
/** Junctions closer than this many radii are one crossing seen twice (the X of thick lines). */
const MERGE_RADII = 1.2;
/** Strokes chained through a junction must agree in colour (RGB distance) and width (px). */
const JOIN_COLOUR = 60;

/** The skeleton as a graph: nodes (junction clusters, line ends, dots, one seed on each bare loop) and the pixel runs between them. */
interface Graph {
  nodeX: number[];
  nodeY: number[];
  nodeR: number[];
  nodePixels: number[][];
  edges: Edge[];
  /** Edge ids at each node. */
  incident: number[][];
}

// Each stage is its own function: one function holding them all took V8 a quarter of a second of
// compile time per trace and kept deoptimising on branches a page had not yet taken.
export function strokesFromSkeleton(input: SkeletonInput): Stroke[] {
  const graph = buildGraph(input);
  cleanGraph(graph, input);
  for (const e of graph.edges) if (e.alive) measureEdge(e, input, graph.nodeR);
  const partner = pairEnds(graph, input.stride);
  return traceStrokes(graph, partner, input);
}

function buildGraph(input: SkeletonInput): Graph {
  const { skeleton, pixels, distance, stride } = input;
  const nb = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const count = pixels.length;
  const degree = new Uint8Array(skeleton.length);
  const [n0, n1, n2, n3, n4, n5, n6, n7] = nb;
  for (let k = 0; k < count; k++) {
    const p = pixels[k];
    degree[p] =
      skeleton[p + n0] +
      skeleton[p + n1] +
      skeleton[p + n2] +
      skeleton[p + n3] +
      skeleton[p + n4] +
      skeleton[p + n5] +
      skeleton[p + n6] +
      skeleton[p + n7];
  }

  // Nodes: junction clusters, line ends, isolated dots.
  const nodeOf = new Int32Array(skeleton.length).fill(-1);
  const nodeX: number[] = [],
    nodeY: number[] = [],
    nodeR: number[] = [];
  const nodePixels: number[][] = [];
  const addNode = (members: number[]) => {
    let sx = 0,
      sy = 0,
      r = 0;
    for (let k = 0; k < members.length; k++) {
      const p = members[k];
      sx += p % stride;
      sy += Math.floor(p / stride);
      if (distance[p] > r) r = distance[p];
      nodeOf[p] = nodePixels.length;
    }
    nodeX.push(sx / members.length - 0.5);
    nodeY.push(sy / members.length - 0.5);
    nodeR.push(r);
    nodePixels.push(members);
  };
  for (let k = 0; k < count; k++) {
    const p = pixels[k];
    if (degree[p] < 3 || nodeOf[p] >= 0) continue;
    const members = [p];
    nodeOf[p] = -2;
    for (let k = 0; k < members.length; k++) {
      for (let ko = 0; ko < 8; ko++) {
        const o = nb[ko];
        const q = members[k] + o;
        if (skeleton[q] && degree[q] >= 3 && nodeOf[q] === -1) {
          nodeOf[q] = -2;
          members.push(q);
        }
      }
    }
    addNode(members);
  }
  for (let k = 0; k < count; k++) if (degree[pixels[k]] <= 1) addNode([pixels[k]]);

  // Edges between nodes.
  const edges: Edge[] = [];
  const visited = new Uint8Array(skeleton.length);
  const seenDirect = new Set<number>();
  const walk = (from: number, first: number, startNode: number) => {
    const run = [from, first];
    let prev = from,
      cur = first;
    visited[cur] = 1;
    for (;;) {
      if (nodeOf[cur] >= 0) break;
      let next = -1;
      for (let ko = 0; ko < 8; ko++) {
        const o = nb[ko];
        const q = cur + o;
        if (q === prev || !skeleton[q]) continue;
        if (nodeOf[q] >= 0 && !(nodeOf[q] === startNode && run.length <= 2)) {
          next = q;
          break;
        }
        if (!visited[q] && nodeOf[q] < 0) next = q;
      }
      if (next < 0) break;
      run.push(next);
      if (nodeOf[next] < 0) visited[next] = 1;
      prev = cur;
      cur = next;
    }
    const end = nodeOf[cur] >= 0 ? nodeOf[cur] : -1;
    if (end < 0) return; // cannot happen on a proper skeleton; drop rather than invent a node
    edges.push(newEdge(startNode, end, run, stride));
  };
  for (let n = 0; n < nodePixels.length; n++) {
    const members = nodePixels[n];
    for (let k = 0; k < members.length; k++) {
      const p = members[k];
      for (let ko = 0; ko < 8; ko++) {
        const o = nb[ko];
        const q = p + o;
        if (!skeleton[q] || nodeOf[q] === n) continue;
        if (nodeOf[q] >= 0) {
          // Two nodes touching directly (a line end next to a junction): one zero-interior edge.
          const key =
            Math.min(p, q) * 4 +
            (Math.max(p, q) - Math.min(p, q) === 1
              ? 0
              : Math.max(p, q) - Math.min(p, q) === stride
                ? 1
                : Math.max(p, q) - Math.min(p, q) === stride + 1
                  ? 2
                  : 3);
          if (seenDirect.has(key)) continue;
          seenDirect.add(key);
          edges.push(newEdge(n, nodeOf[q], [p, q], stride));
          continue;
        }
        if (visited[q]) continue;
        walk(p, q, n);
      }
    }
  }
  // Closed loops with no node on them.
  for (let k = 0; k < count; k++) {
    const p = pixels[k];
    if (visited[p] || nodeOf[p] >= 0) continue;
    const run = [p];
    visited[p] = 1;
    let prev = -1,
      cur = p;
    for (;;) {
      let next = -1;
      for (let ko = 0; ko < 8; ko++) {
        const o = nb[ko];
        const q = cur + o;
        if (q !== prev && skeleton[q] && !visited[q]) {
          next = q;
          break;
        }
      }
      if (next < 0) break;
      visited[next] = 1;
      run.push(next);
      prev = cur;
      cur = next;
    }
    run.push(p);
    const n = nodePixels.length;
    addNode([p]);
    edges.push(newEdge(n, n, run, stride));
  }

  // Incident edge lists are tiny (a junction has a handful of edges): plain arrays, no duplicates.
  const incident: number[][] = nodePixels.map(() => []);
  edges.forEach((e, i) => {
    attach(incident, e.a, i);
    attach(incident, e.b, i);
  });
  return { nodeX, nodeY, nodeR, nodePixels, edges, incident };
}

function newEdge(a: number, b: number, run: number[], stride: number): Edge {
  let length = 0;
  for (let k = 1; k < run.length; k++) {
    const d = Math.abs(run[k] - run[k - 1]);
    length += d === 1 || d === stride ? 1 : Math.SQRT2;
  }
  return { a, b, pixels: run, alive: true, length, width: 0, rgb: [0, 0, 0] };
}

/** Incident edge lists are tiny (a junction has a handful of edges): plain arrays, no duplicates. */
function attach(incident: number[][], n: number, i: number): void {
  if (!incident[n].includes(i)) incident[n].push(i);
}

/** Merges near junctions, prunes spurs and dissolves degree-2 nodes until the graph is stable. */
function cleanGraph(graph: Graph, input: SkeletonInput): void {
  const { distance, stride } = input;
  const { nodeX, nodeY, nodeR, nodePixels, edges, incident } = graph;
  const attachHere = (n: number, i: number) => attach(incident, n, i);
  const degreeOf = (n: number) => {
    let d = 0;
    const inc = incident[n];
    for (let k = 0; k < inc.length; k++) {
      const e = edges[inc[k]];
      if (e.alive) d += e.a === e.b ? 2 : 1;
    }
    return d;
  };

  /** A branch from junction j to a line end whose tip barely leaves the junction's disc. */
  const isSpur = (e: Edge, j: number) => {
    const tip = e.a === j ? e.b : e.a;
    if (degreeOf(tip) !== 1) return false;
    const protrusion = hypot(nodeX[tip] - nodeX[j], nodeY[tip] - nodeY[j]) + distance[nodePixels[tip][0]] - nodeR[j];
    return protrusion <= Math.max(SPUR_MIN, SPUR_RADII * nodeR[j]);
  };

  /** Joins the two edges left at a node of degree 2 into one. */
  const dissolve = (n: number) => {
    const live = incident[n].filter((i) => edges[i].alive);
    if (live.length !== 2) return;
    const [i, j] = live;
    const e = edges[i],
      f = edges[j];
    const ePix = e.b === n ? e.pixels : e.pixels.slice().reverse();
    const fPix = f.a === n ? f.pixels : f.pixels.slice().reverse();
    const a = e.b === n ? e.a : e.b;
    const b = f.a === n ? f.b : f.a;
    e.alive = false;
    f.alive = false;
    const merged = newEdge(a, b, ePix.concat(fPix.slice(1)), stride);
    edges.push(merged);
    const id = edges.length - 1;
    attachHere(a, id);
    attachHere(b, id);
  };

  // Clean-up: merge near junctions, prune spurs, dissolve degree-2 nodes; repeat until stable.
  for (let round = 0; round < 50; round++) {
    let changed = false;
    const order: number[] = [];
    for (let i = 0; i < edges.length; i++) if (edges[i].alive) order.push(i);
    order.sort((i, j) => edges[i].length - edges[j].length || i - j);
    for (const i of order) {
      const e = edges[i];
      if (!e.alive || e.a === e.b) continue;
      const da = degreeOf(e.a),
        db = degreeOf(e.b);
      if (da >= 3 && db >= 3 && e.length <= MERGE_RADII * Math.max(nodeR[e.a], nodeR[e.b]) + 1) {
        // Contract: node b folds into node a.
        e.alive = false;
        const a = e.a,
          b = e.b;
        nodeX[a] = (nodeX[a] + nodeX[b]) / 2;
        nodeY[a] = (nodeY[a] + nodeY[b]) / 2;
        nodeR[a] = Math.max(nodeR[a], nodeR[b]);
        for (const k of incident[b]) {
          const g = edges[k];
          if (!g.alive) continue;
          if (g.a === b) g.a = a;
          if (g.b === b) g.b = a;
          attachHere(a, k);
        }
        incident[b] = [];
        changed = true;
        continue;
      }
      const endA = da === 1,
        endB = db === 1;
      if (endA !== endB) {
        const j = endA ? e.b : e.a;
        if (degreeOf(j) >= 3 && isSpur(e, j)) {
          // Every spur at this junction goes at once: the two forks Zhang–Suen grows into the
          // corners of a square line end would otherwise leave one fork behind as a hook.
          for (const k of incident[j].slice())
            if (edges[k].alive && edges[k].a !== edges[k].b && isSpur(edges[k], j)) edges[k].alive = false;
          if (degreeOf(j) === 2) dissolve(j);
          changed = true;
        }
      }
    }
    for (let n = 0; n < nodePixels.length; n++)
      if (degreeOf(n) === 2 && incident[n].filter((i) => edges[i].alive).length === 2) {
        dissolve(n);
        changed = true;
      }
    if (!changed) break;
  }

  if (process.env.CLDEBUG) {
    const xy = (p: number) => `${(p % stride) - 1},${Math.floor(p / stride) - 1}`;
    nodePixels.forEach((px, n) => console.error('node', n, px.map(xy).join(' '), 'deg', degreeOf(n)));
    edges.forEach((e, i) => console.error('edge', i, e.a, e.b, e.alive, e.pixels.map(xy).join(' ')));
  }
}

/**
 * Pairs edge ends at each node: the straightest compatible continuation goes through.
 * partner[2*i + end] = 2*j + end' (end 0 = at node a, 1 = at node b), -1 where the stroke stops.
 */
function pairEnds(graph: Graph, stride: number): Int32Array {
  const { nodeR, nodePixels, edges, incident } = graph;
  const partner = new Int32Array(2 * edges.length).fill(-1);
  // Per-junction scratch, reused (a junction has a handful of ends): plain arrays and loops, no
  // objects per end or pair, so this stays a small function for the compiler.
  const keys: number[] = [],
    dxs: number[] = [],
    dys: number[] = [],
    owners: Edge[] = [];
  const pairCos: number[] = [],
    pairS: number[] = [],
    pairT: number[] = [],
    order: number[] = [];
  const used: number[] = [];
  for (let n = 0; n < nodePixels.length; n++) {
    // Most nodes are line ends: nothing to pair.
    let live = 0;
    const inc = incident[n];
    for (let k = 0; k < inc.length; k++) {
      const e = edges[inc[k]];
      if (e.alive) live += e.a === e.b ? 2 : 1;
    }
    if (live < 2) continue;
    keys.length = 0;
    dxs.length = 0;
    dys.length = 0;
    owners.length = 0;
    for (let k = 0; k < inc.length; k++) {
      const i = inc[k],
        e = edges[i];
      if (!e.alive) continue;
      if (e.a === n) {
        direction(e, true, nodeR[n], stride);
        keys.push(2 * i);
        dxs.push(dirX);
        dys.push(dirY);
        owners.push(e);
      }
      if (e.b === n) {
        direction(e, false, nodeR[n], stride);
        keys.push(2 * i + 1);
        dxs.push(dirX);
        dys.push(dirY);
        owners.push(e);
      }
    }
    const m = keys.length;
    if (m < 2) continue;
    pairCos.length = 0;
    pairS.length = 0;
    pairT.length = 0;
    order.length = 0;
    for (let s = 0; s < m; s++)
      for (let t = s + 1; t < m; t++) {
        const u = owners[s],
          v = owners[t];
        if (colourDistance(u.rgb, v.rgb) > JOIN_COLOUR) continue;
        if (Math.abs(u.width - v.width) > Math.max(1.5, 0.35 * Math.max(u.width, v.width))) continue;
        order.push(pairCos.length);
        pairCos.push(-(dxs[s] * dxs[t] + dys[s] * dys[t]));
        pairS.push(s);
        pairT.push(t);
      }
    order.sort((a, b) => pairCos[b] - pairCos[a] || pairS[a] - pairS[b] || pairT[a] - pairT[b]);
    // Straightest pair first, sharpest turn last: straight continuations go through, then what is
    // left pairs up (with round caps and joins a stroke turning at the junction paints exactly what
    // two strokes ending there would, and saves a move). The stem of a T is never left with a
    // partner (its bar took both arms). (This order alone is what a separate "straight first" pass
    // with a 50° limit did: every pair it took came first in this order anyway.)
    used.length = 0;
    for (let k = 0; k < m; k++) used.push(0);
    for (let k = 0; k < order.length; k++) {
      const s = pairS[order[k]],
        t = pairT[order[k]];
      if (used[s] || used[t]) continue;
      used[s] = 1;
      used[t] = 1;
      partner[keys[s]] = keys[t];
      partner[keys[t]] = keys[s];
    }
  }

  return partner;
}

/** Follows paired ends into strokes: open ones from their free ends, then the rings left over, then lone dots. */
function traceStrokes(graph: Graph, partner: Int32Array, input: SkeletonInput): Stroke[] {
  const { distance } = input;
  const { nodeX, nodeY, nodePixels, edges, incident } = graph;
  const alive = edges.map((_, i) => i).filter((i) => edges[i].alive);
  const strokes: Stroke[] = [];
  const done = new Uint8Array(edges.length);
  const follow = (startKey: number): { keys: number[]; closed: boolean } => {
    // startKey names the edge end where the stroke begins.
    const keys: number[] = [];
    let key = startKey;
    for (;;) {
      const i = key >> 1;
      if (done[i]) return { keys, closed: true };
      done[i] = 1;
      keys.push(key);
      const farEnd = key ^ 1;
      const next = partner[farEnd];
      if (next < 0) return { keys, closed: false };
      if (next >> 1 === startKey >> 1 && next === startKey) return { keys, closed: true };
      key = next;
    }
  };
  const emit = (keys: number[], closed: boolean) => {
    // One array for the stroke, written edge by edge: each edge after the first starts on the point
    // the one before it ended on, so it skips that point.
    let count = 0;
    for (const key of keys) count += edges[key >> 1].pixels.length;
    count -= keys.length - 1;
    let pts = new Float64Array(2 * count);
    let at = 0,
      weight = 0,
      width = 0,
      red = 0,
      green = 0,
      blue = 0;
    for (const key of keys) {
      const e = edges[key >> 1];
      at = writeEdgePoints(e, (key & 1) === 0, at === 0, pts, at, input, nodeX, nodeY);
      const w = Math.max(e.length, 1);
      weight += w;
      width += e.width * w;
      red += e.rgb[0] * w;
      green += e.rgb[1] * w;
      blue += e.rgb[2] * w;
    }
    if (closed && pts.length >= 4) {
      // The walk returns to its start; keep the ring without the duplicate closing point.
      const last = pts.length - 2;
      if (Math.abs(pts[last] - pts[0]) < 1e-9 && Math.abs(pts[last + 1] - pts[1]) < 1e-9) pts = pts.slice(0, last);
    }
    if (!closed) {
      // Both ends: reversing the flat list turns x,y pairs into y,x pairs, which the projection does not mind.
      straightenEnd(pts, width / weight / 2);
      pts.reverse();
      straightenEnd(pts, width / weight / 2);
      pts.reverse();
    }
    strokes.push({
      points: pts,
      closed,
      width: width / weight,
      rgb: [Math.round(red / weight), Math.round(green / weight), Math.round(blue / weight)],
    });
  };
  for (const i of alive) {
    for (const end of [0, 1]) {
      if (done[i]) break;
      const key = 2 * i + end;
      if (partner[key] >= 0) continue;
      const { keys } = follow(key);
      emit(keys, false);
    }
  }
  for (const i of alive) {
    if (done[i]) continue;
    const { keys } = follow(2 * i);
    emit(keys, true);
  }
  // Isolated dots (a node with no edges at all).
  for (let n = 0; n < nodePixels.length; n++) {
    if (incident[n].length || nodePixels[n].length !== 1) continue;
    const p = nodePixels[n][0];
    const hw = Math.max(distance[p] - 0.5, 0.5);
    const j = pixelRgbIndex(p, input);
    strokes.push({
      points: new Float64Array([nodeX[n], nodeY[n]]),
      closed: false,
      width: 2 * hw,
      rgb: [input.rgba[j], input.rgba[j + 1], input.rgba[j + 2]],
    });
  }
  return strokes;
}

/** direction's answer (module scratch, as halfWidthAt's): the unit vector from the node down the edge. */
let dirX = 0,
  dirY = 0;
function direction(e: Edge, fromA: boolean, radius: number, stride: number): void {
  // Look a few radii down the edge: the first pixels near a junction bend towards it.
  const px = e.pixels;
  const reach = Math.max(4, Math.round(2.5 * radius));
  const s = fromA ? px[0] : px[px.length - 1];
  const k = Math.min(reach, px.length - 1);
  const t = fromA ? px[k] : px[px.length - 1 - k];
  const dx = (t % stride) - (s % stride),
    dy = Math.floor(t / stride) - Math.floor(s / stride);
  const len = hypot(dx, dy) || 1;
  dirX = dx / len;
  dirY = dy / len;
}

function pixelRgbIndex(p: number, input: SkeletonInput): number {
  const x = (p % input.stride) - 1,
    y = Math.floor(p / input.stride) - 1;
  return (y * input.width + x) * 4;
}

/**
 * The pixel of the 3×3 around a skeleton pixel that differs most from the paper: on thin
 * anti-aliased lines the skeleton often sits on a blended edge pixel, not on the ink itself.
 */
function inkiestNear(p: number, input: SkeletonInput): number {
  const { contrast, stride } = input;
  const x = (p % stride) - 1,
    y = (p - x - 1) / stride - 1;
  const w = input.width,
    h = contrast.length / w;
  let best = y * w + x,
    top = -1;
  const y0 = y > 0 ? y - 1 : 0,
    y1 = y + 1 < h ? y + 1 : h - 1,
    x0 = x > 0 ? x - 1 : 0,
    x1 = x + 1 < w ? x + 1 : w - 1;
  for (let yy = y0; yy <= y1; yy++) {
    for (let xx = x0, i = yy * w + x0; xx <= x1; xx++, i++) {
      const c = contrast[i];
      if (c > top) {
        top = c;
        best = i;
      }
    }
  }
  return best;
}

function colourDistance(a: [number, number, number], b: [number, number, number]): number {
  return hypot3(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * Half-width at a skeleton pixel. The distance transform runs between pixel centres, so a line of
 * odd width w has its centre pixel at distance (w+1)/2 and half-width d − 0.5; an even-width line
 * has two centre pixels at the same distance, its centre lies between them and its half-width is d.
 */
/** halfWidthAt's answer (module scratch: it runs for every skeleton pixel, twice, so no object per call). */
let hwAt = 0,
  oxAt = 0,
  oyAt = 0;
function halfWidthAt(p: number, input: SkeletonInput): void {
  const { distance, skeleton, stride } = input;
  const d = distance[p];
  let ox = 0,
    oy = 0,
    twins = 0;
  // The four edge-neighbours off the skeleton with the same depth (no closure: this runs per pixel).
  if (!skeleton[p - 1] && Math.abs(distance[p - 1] - d) < 0.01) {
    ox -= 1;
    twins++;
  }
  if (!skeleton[p + 1] && Math.abs(distance[p + 1] - d) < 0.01) {
    ox += 1;
    twins++;
  }
  if (!skeleton[p - stride] && Math.abs(distance[p - stride] - d) < 0.01) {
    oy -= 1;
    twins++;
  }
  if (!skeleton[p + stride] && Math.abs(distance[p + stride] - d) < 0.01) {
    oy += 1;
    twins++;
  }
  if (twins === 1) {
    hwAt = d;
    oxAt = ox * 0.5;
    oyAt = oy * 0.5;
    return;
  }
  hwAt = d - 0.5;
  oxAt = 0;
  oyAt = 0;
}

/** Per-edge colour samples, reused across edges. */
const SAMPLE = scratchSlots('centerline edge colour', Uint8Array, ['r', 'g', 'b']);

function measureEdge(e: Edge, input: SkeletonInput, nodeR: number[]): void {
  const px = e.pixels;
  // Skip the stretch inside a junction, where the distance transform bulges.
  const skipA = Math.ceil(nodeR[e.a]),
    skipB = Math.ceil(nodeR[e.b]);
  let from = Math.min(skipA, px.length >> 1),
    to = Math.max(px.length - skipB, from + 1);
  if (to > px.length) to = px.length;
  if (to - from < 1) {
    from = 0;
    to = px.length;
  }
  const count = to - from;
  const sampleR = scratchUint8(SAMPLE.r, count),
    sampleG = scratchUint8(SAMPLE.g, count),
    sampleB = scratchUint8(SAMPLE.b, count);
  // Mean width, not median: on a 2-px line only some skeleton pixels see their twin, and the mean keeps both.
  let sum = 0;
  for (let k = from; k < to; k++) {
    const p = px[k];
    halfWidthAt(p, input);
    sum += 2 * hwAt;
    const j = inkiestNear(p, input) * 4;
    sampleR[k - from] = input.rgba[j];
    sampleG[k - from] = input.rgba[j + 1];
    sampleB[k - from] = input.rgba[j + 2];
  }
  e.width = sum / count;
  e.rgb = [median(sampleR, count), median(sampleG, count), median(sampleB, count)];
}

/**
 * Median of the first `count` values (sorts them in place, numerically). Most edges are a few pixels long:
 * insertion sort, no view object per call.
 */
function median(values: Uint8Array, count: number): number {
  if (count > 32) values.subarray(0, count).sort();
  else {
    for (let i = 1; i < count; i++) {
      const v = values[i];
      let j = i - 1;
      while (j >= 0 && values[j] > v) {
        values[j + 1] = values[j];
        j--;
      }
      values[j + 1] = v;
    }
  }
  const m = count >> 1;
  return count % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
}

/**
 * Writes an edge's points into `out` from point index `at` (forwards from node a, or backwards from
 * node b), leaving out its first point unless `withFirst`; returns the next free point index. Each
 * pixel's centre is shifted half a pixel towards its twin on even-width lines; the end points are the
 * nodes' positions, so every stroke meeting at a node meets at one point.
 */
function writeEdgePoints(
  e: Edge,
  forward: boolean,
  withFirst: boolean,
  out: Float64Array,
  at: number,
  input: SkeletonInput,
  nodeX: number[],
  nodeY: number[],
): number {
  const { stride } = input;
  const px = e.pixels,
    n = px.length;
  for (let k = withFirst ? 0 : 1; k < n; k++, at++) {
    const idx = forward ? k : n - 1 - k;
    if (idx === 0) {
      out[at * 2] = nodeX[e.a];
      out[at * 2 + 1] = nodeY[e.a];
      continue;
    }
    if (idx === n - 1) {
      out[at * 2] = nodeX[e.b];
      out[at * 2 + 1] = nodeY[e.b];
      continue;
    }
    const p = px[idx];
    halfWidthAt(p, input);
    out[at * 2] = (p % stride) - 0.5 + oxAt;
    out[at * 2 + 1] = Math.floor(p / stride) - 0.5 + oyAt;
  }
  return at;
}

/**
 * Thinning bends the last pixels of a blunt or blurred line end towards one corner (a hook as long
 * as the line is wide). Within the last line-width of an open stroke, points are put back on the
 * line through the stroke's body. Works on the last end of an interleaved coordinate list.
 */
function straightenEnd(flat: Float64Array, halfWidth: number): void {
  const n = flat.length / 2;
  const cap = Math.max(2, 2 * halfWidth);
  // Arc length from the end (the last pair) inwards.
  let arc = 0,
    capIndex = n - 1,
    bodyIndex = -1;
  for (let k = n - 1; k > 0; k--) {
    arc += hypot(flat[k * 2] - flat[k * 2 - 2], flat[k * 2 + 1] - flat[k * 2 - 1]);
    if (arc <= cap) capIndex = k - 1;
    if (arc >= 3 * cap) {
      bodyIndex = k - 1;
      break;
    }
  }
  if (bodyIndex < 0 || capIndex >= n - 1) return;
  const bx = flat[bodyIndex * 2],
    by = flat[bodyIndex * 2 + 1];
  let dx = flat[capIndex * 2] - bx,
    dy = flat[capIndex * 2 + 1] - by;
  const len = hypot(dx, dy);
  if (!len) return;
  dx /= len;
  dy /= len;
  for (let k = capIndex + 1; k < n; k++) {
    const t = (flat[k * 2] - bx) * dx + (flat[k * 2 + 1] - by) * dy;
    flat[k * 2] = bx + t * dx;
    flat[k * 2 + 1] = by + t * dy;
  }
}
