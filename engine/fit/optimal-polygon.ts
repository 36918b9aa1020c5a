/**
 * Potrace's polygon for hard edges (Selinger 2003, "Potrace: a polygon-based tracing algorithm",
 * section 2.2), built on the crack corners of a 1-bit outline rather than on its step middles.
 *
 * A run of corners is straight when a segment from its first corner passes within one pixel (per
 * axis) of every later corner, and its steps do not use all four directions; a polygon edge from
 * corner i to corner j must lie on a straight run that reaches one corner past each end. Both
 * sides of a 1-px line that jogs at different rows then pass the same test, where a corridor round
 * the step middles' least-squares line let one side through and not the other. Of all polygons
 * made of such edges the one with the fewest edges wins, ties going to the least deviation of the
 * corners from their edge. Each vertex then moves to where its two edges' least-squares lines
 * meet best, without leaving its corner's unit square (section 2.3.1): the outline stays on the
 * pixels the bitmap drew.
 */

export interface CrackPolygon {
  vx: Float64Array;
  vy: Float64Array;
  /** Corner index of each vertex, unrolled (closed chains may exceed the corner count). */
  at: Int32Array;
  m: number;
}

/** Half the side of the square a vertex may move in: the pixel corner's own unit square. */
const VERTEX_REACH = 0.5;
/**
 * Half the side of the square round each corner a straight run's segment must cross (Potrace's
 * test from the run's first corner: a line within half a pixel of every corner is within one of
 * the corner it starts on). Tighter follows the stairs: on bp-autotrace-lego-1bit 0.75 tripled the
 * nodes (2304).
 */
const CONE = 1;

export function crackPolygon(crack: Float64Array, closed: boolean): CrackPolygon {
  const corners = unitCorners(crack, closed);
  const n = corners.length >> 1;
  const lon = straightReach(corners, n, closed);
  const sums = cornerSums(corners, n, closed);
  const at = closed ? closedCover(corners, n, lon, sums) : openCover(n, lon, sums, corners);
  const m = at.length;
  const vx = new Float64Array(m),
    vy = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const q = at[k] % n;
    vx[k] = corners[2 * q];
    vy[k] = corners[2 * q + 1];
  }
  const poly = { vx, vy, at: Int32Array.from(at), m };
  settleVertices(poly, corners, n, closed);
  return poly;
}

/** The crack's corners, long axis steps split into unit steps so every pixel corner is a vertex. */
function unitCorners(crack: Float64Array, closed: boolean): Float64Array {
  const n = crack.length >> 1;
  const steps = closed ? n : n - 1;
  const out: number[] = [];
  for (let i = 0; i < steps; i++) {
    const j = (i + 1) % n;
    const x0 = crack[2 * i],
      y0 = crack[2 * i + 1];
    const dx = crack[2 * j] - x0,
      dy = crack[2 * j + 1] - y0;
    const length = Math.abs(dx) + Math.abs(dy);
    const units = (dx === 0 || dy === 0) && Number.isInteger(length) && length > 1 ? length : 1;
    for (let s = 0; s < units; s++) out.push(x0 + (dx * s) / units, y0 + (dy * s) / units);
  }
  if (!closed) out.push(crack[2 * n - 2], crack[2 * n - 1]);
  return Float64Array.from(out);
}

/**
 * lon[i]: the furthest corner (unrolled) such that every run starting at or after i and ending by
 * it is straight (Potrace's lon, through its pivots). Closed chains get 2n entries.
 */
function straightReach(c: Float64Array, n: number, closed: boolean): Int32Array {
  const pivot = new Int32Array(n);
  for (let i = 0; i < n; i++) pivot[i] = furthestStraight(c, n, closed, i);
  const len = closed ? 2 * n : n;
  const lon = new Int32Array(len);
  // a run inside a straight run is straight: the reach is the least pivot from here on
  let reach = closed ? pivot[n - 1] + n : n - 1;
  for (let i = len - 1; i >= 0; i--) {
    const own = i >= n ? pivot[i - n] + n : pivot[i];
    if (own < reach) reach = own;
    lon[i] = reach;
  }
  return lon;
}

/**
 * The furthest corner k from corner i such that the segment i→k passes within one pixel per axis
 * of every corner between, and steps i..k do not go in all four directions. The directions the
 * segment may take form a cone, narrowed at each corner to the rays through the 2×2 square round it.
 */
function furthestStraight(c: Float64Array, n: number, closed: boolean, i: number): number {
  const ox = c[2 * i],
    oy = c[2 * i + 1];
  const limit = closed ? i + n - 1 : n - 1;
  // the cone's clockwise and counter-clockwise bounds; zero vectors bound nothing
  let cwX = 0,
    cwY = 0,
    ccwX = 0,
    ccwY = 0,
    directions = 0;
  let k = i;
  while (k < limit) {
    const p = k % n,
      q = (k + 1) % n;
    const sx = c[2 * q] - c[2 * p],
      sy = c[2 * q + 1] - c[2 * p + 1];
    directions |= (sx > 0 ? 1 : 0) | (sx < 0 ? 2 : 0) | (sy > 0 ? 4 : 0) | (sy < 0 ? 8 : 0);
    if (directions === 15) break;
    const ux = c[2 * q] - ox,
      uy = c[2 * q + 1] - oy;
    if (cwX * uy - cwY * ux < 0 || ccwX * uy - ccwY * ux > 0) break;
    if (Math.abs(ux) > CONE || Math.abs(uy) > CONE) {
      let bestCwX = 0,
        bestCwY = 0,
        bestCcwX = 0,
        bestCcwY = 0;
      // of the square's corners, the one every other lies counter-clockwise of bounds the cone clockwise
      for (let a = 0; a < 4; a++) {
        const ax = ux + (a & 1 ? CONE : -CONE),
          ay = uy + (a & 2 ? CONE : -CONE);
        let isCw = true,
          isCcw = true;
        for (let b = 0; b < 4; b++) {
          const cross = ax * (uy + (b & 2 ? CONE : -CONE)) - ay * (ux + (b & 1 ? CONE : -CONE));
          if (cross < 0) isCw = false;
          if (cross > 0) isCcw = false;
        }
        if (isCw) {
          bestCwX = ax;
          bestCwY = ay;
        }
        if (isCcw) {
          bestCcwX = ax;
          bestCcwY = ay;
        }
      }
      if (cwX * bestCwY - cwY * bestCwX >= 0) {
        cwX = bestCwX;
        cwY = bestCwY;
      }
      if (ccwX * bestCcwY - ccwY * bestCcwX <= 0) {
        ccwX = bestCcwX;
        ccwY = bestCcwY;
      }
    }
    k++;
  }
  return k;
}

/** Prefix sums of x, y, x², xy, y² over the corners (two laps when closed), about the first corner. */
interface CornerSums {
  x: Float64Array;
  y: Float64Array;
  xx: Float64Array;
  xy: Float64Array;
  yy: Float64Array;
}

function cornerSums(c: Float64Array, n: number, closed: boolean): CornerSums {
  const len = closed ? 2 * n : n;
  const s = {
    x: new Float64Array(len + 1),
    y: new Float64Array(len + 1),
    xx: new Float64Array(len + 1),
    xy: new Float64Array(len + 1),
    yy: new Float64Array(len + 1),
  };
  for (let i = 0; i < len; i++) {
    const q = i % n;
    const x = c[2 * q] - c[0],
      y = c[2 * q + 1] - c[1];
    s.x[i + 1] = s.x[i] + x;
    s.y[i + 1] = s.y[i] + y;
    s.xx[i + 1] = s.xx[i] + x * x;
    s.xy[i + 1] = s.xy[i] + x * y;
    s.yy[i + 1] = s.yy[i] + y * y;
  }
  return s;
}

/**
 * Potrace's edge penalty: the edge's length times the root mean square distance of corners i..j
 * (unrolled) from it, so a long edge that strays a little costs as much as a short one that strays more.
 */
function edgePenalty(c: Float64Array, n: number, s: CornerSums, i: number, j: number): number {
  const qi = i % n,
    qj = j % n;
  const x0 = c[2 * qi] - c[0],
    y0 = c[2 * qi + 1] - c[1];
  const ex = c[2 * qj] - c[0] - x0,
    ey = c[2 * qj + 1] - c[1] - y0;
  const length = Math.sqrt(ex * ex + ey * ey);
  if (length === 0) return 0;
  // length·distance = a·x + b·y + d for the line through corner i along the edge, squared and summed in closed form
  const a = ey,
    b = -ex,
    d = -(a * x0 + b * y0);
  const count = j - i + 1;
  const sq =
    a * a * (s.xx[j + 1] - s.xx[i]) +
    2 * a * b * (s.xy[j + 1] - s.xy[i]) +
    b * b * (s.yy[j + 1] - s.yy[i]) +
    2 * a * d * (s.x[j + 1] - s.x[i]) +
    2 * b * d * (s.y[j + 1] - s.y[i]) +
    d * d * count;
  return Math.sqrt(Math.max(0, sq) / count);
}

/**
 * Fewest edges from corner `start` to corner `start + len` (unrolled), ties to the least penalty;
 * `furthest(i)` is the furthest corner an edge from corner i may reach.
 */
function fewestEdges(c: Float64Array, n: number, s: CornerSums, start: number, len: number, furthest: (i: number) => number): number[] {
  const edges = new Int32Array(len + 1).fill(0x7fffffff);
  const cost = new Float64Array(len + 1);
  const prev = new Int32Array(len + 1);
  edges[0] = 0;
  for (let a = 0; a < len; a++) {
    const next = edges[a] + 1;
    const reach = Math.min(len, Math.max(a + 1, furthest(start + a) - start));
    for (let b = a + 1; b <= reach; b++) {
      if (next > edges[b]) continue;
      const total = cost[a] + edgePenalty(c, n, s, start + a, start + b);
      if (next < edges[b] || total < cost[b]) {
        edges[b] = next;
        cost[b] = total;
        prev[b] = a;
      }
    }
  }
  const at: number[] = [];
  for (let b = len; b > 0; b = prev[b]) at.push(start + b);
  at.push(start);
  return at.reverse();
}

/** An open chain's ends are junctions shared with other chains: both are vertices. */
function openCover(n: number, lon: Int32Array, s: CornerSums, c: Float64Array): number[] {
  // an edge i→j needs the run from i - 1 to j + 1 straight, where the chain has those corners
  const furthest = (i: number): number => {
    const reach = lon[Math.max(0, i - 1)];
    return reach >= n - 1 ? n - 1 : reach - 1;
  };
  return fewestEdges(c, n, s, 0, n - 1, furthest);
}

/** A closed chain starts on its sharpest corner, where a vertex belongs whatever the cover. */
function closedCover(c: Float64Array, n: number, lon: Int32Array, s: CornerSums): number[] {
  const start = sharpestCorner(c, n);
  const reachOf = (a: number): number => {
    const q = ((a % n) + n) % n;
    return lon[q] + (a - q);
  };
  // no edge spans more than n - 3 steps, so the polygon has at least three vertices
  const furthest = (i: number): number => Math.min(reachOf(i - 1) - 1, i + n - 3);
  const at = fewestEdges(c, n, s, start, n, furthest);
  at.pop(); // the last vertex is the first one again
  return at;
}

function sharpestCorner(c: Float64Array, n: number): number {
  const r = n > 12 ? 3 : 1;
  let best = 0,
    bestTurn = -1;
  for (let k = 0; k < n; k++) {
    const a = (k - r + n) % n,
      b = (k + r) % n;
    const ux = c[2 * k] - c[2 * a],
      uy = c[2 * k + 1] - c[2 * a + 1],
      wx = c[2 * b] - c[2 * k],
      wy = c[2 * b + 1] - c[2 * k + 1];
    const turn = Math.abs(Math.atan2(ux * wy - uy * wx, ux * wx + uy * wy));
    if (turn > bestTurn + 1e-9) {
      bestTurn = turn;
      best = k;
    }
  }
  return best;
}

/**
 * Moves every free vertex to the point of its corner's unit square closest (least squares) to the
 * lines fitted through its two edges' corners.
 */
function settleVertices(poly: CrackPolygon, c: Float64Array, n: number, closed: boolean): void {
  const { m, at } = poly;
  const edges = closed ? m : m - 1;
  if (edges < 2) return;
  // each edge's line as a·x + b·y + d = 0 with (a, b) a unit normal
  const la = new Float64Array(edges),
    lb = new Float64Array(edges),
    ld = new Float64Array(edges);
  for (let e = 0; e < edges; e++) {
    const from = at[e],
      to = e + 1 < m ? at[e + 1] : at[0] + n;
    let sx = 0,
      sy = 0;
    for (let i = from; i <= to; i++) {
      sx += c[2 * (i % n)];
      sy += c[2 * (i % n) + 1];
    }
    const count = to - from + 1;
    const cx = sx / count,
      cy = sy / count;
    let vxx = 0,
      vxy = 0,
      vyy = 0;
    for (let i = from; i <= to; i++) {
      const dx = c[2 * (i % n)] - cx,
        dy = c[2 * (i % n) + 1] - cy;
      vxx += dx * dx;
      vxy += dx * dy;
      vyy += dy * dy;
    }
    const angle = 0.5 * Math.atan2(2 * vxy, vxx - vyy);
    la[e] = -Math.sin(angle);
    lb[e] = Math.cos(angle);
    ld[e] = -(la[e] * cx + lb[e] * cy);
  }
  const nx = Float64Array.from(poly.vx),
    ny = Float64Array.from(poly.vy);
  for (let v = closed ? 0 : 1; v <= (closed ? m - 1 : m - 2); v++) {
    const p = (v + edges - 1) % edges,
      q = v % edges;
    const best = closestInSquare(poly.vx[v], poly.vy[v], [la[p], la[q]], [lb[p], lb[q]], [ld[p], ld[q]]);
    nx[v] = best[0];
    ny[v] = best[1];
  }
  poly.vx.set(nx);
  poly.vy.set(ny);
}

/** The point of the square of half-side VERTEX_REACH round (x0, y0) with the least summed squared distance to the lines. */
function closestInSquare(x0: number, y0: number, a: number[], b: number[], d: number[]): [number, number] {
  const cost = (x: number, y: number): number => {
    let total = 0;
    for (let k = 0; k < a.length; k++) total += (a[k] * x + b[k] * y + d[k]) ** 2;
    return total;
  };
  // normal equations of the summed squared distances: [axx axy; axy ayy]·p = -[bx; by]
  let axx = 0,
    axy = 0,
    ayy = 0,
    bx = 0,
    by = 0;
  for (let k = 0; k < a.length; k++) {
    axx += a[k] * a[k];
    axy += a[k] * b[k];
    ayy += b[k] * b[k];
    bx += a[k] * d[k];
    by += b[k] * d[k];
  }
  const det = axx * ayy - axy * axy;
  const lo = (t: number) => t - VERTEX_REACH,
    hi = (t: number) => t + VERTEX_REACH;
  if (Math.abs(det) > 1e-9) {
    const x = (-bx * ayy + by * axy) / det,
      y = (-by * axx + bx * axy) / det;
    if (Math.abs(x - x0) <= VERTEX_REACH && Math.abs(y - y0) <= VERTEX_REACH) return [x, y];
  }
  // the least lies on the square's border: the best point of each side, each side a parabola
  let bestX = x0,
    bestY = y0,
    bestCost = cost(x0, y0);
  const candidates: [number, number][] = [];
  for (const side of [lo(x0), hi(x0)]) candidates.push([side, ayy > 1e-12 ? clampTo(-(by + axy * side) / ayy, lo(y0), hi(y0)) : y0]);
  for (const side of [lo(y0), hi(y0)]) candidates.push([axx > 1e-12 ? clampTo(-(bx + axy * side) / axx, lo(x0), hi(x0)) : x0, side]);
  for (const [x, y] of candidates) {
    const c = cost(x, y);
    if (c < bestCost) {
      bestCost = c;
      bestX = x;
      bestY = y;
    }
  }
  return [bestX, bestY];
}

function clampTo(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
