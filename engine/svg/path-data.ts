/**
 * Reads back the path data this engine writes (engine/svg/index.ts PathWriter): how many nodes it
 * has, counted as PathWriter and the benchmark count them (each moveto, line, curve, arc and close),
 * its end points' bounding box and the area they enclose. The output controls need these for kept
 * paths they did not write (a colour's painted area, which shapes touch the border).
 */

/** Numbers each command takes; a command letter followed by more numbers repeats. */
const ARGUMENTS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };

export interface PathOutline {
  nodes: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Enclosed area (px²) of the polygon through the segments' end points, holes subtracted by winding. */
  area: number;
}

const PLUS = 43,
  MINUS = 45,
  DOT = 46,
  ZERO = 48,
  NINE = 57,
  LOWER_E = 101,
  UPPER_E = 69;

/** A char-code scanner, not a regex: a photo's SVG has megabytes of path data and this runs on every draw. */
export function pathOutline(d: string): PathOutline {
  let nodes = 0;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  let x = 0,
    y = 0,
    startX = 0,
    startY = 0;
  let signedArea = 0; // twice the shoelace sum
  let command = 0; // lower-case char code
  let relative = true;
  let arity = 0;
  const args = [0, 0, 0, 0, 0, 0, 0];
  let count = 0;

  const finish = () => {
    const ox = relative ? x : 0,
      oy = relative ? y : 0;
    let nx: number, ny: number;
    nodes++;
    if (command === 109 /* m */) {
      signedArea += x * startY - startX * y; // the open subpath closes back to its start
      x = startX = ox + args[0];
      y = startY = oy + args[1];
      command = 108; // further pairs are linetos
      arity = 2;
    } else {
      if (command === 104 /* h */) [nx, ny] = [ox + args[0], y];
      else if (command === 118 /* v */) [nx, ny] = [x, oy + args[0]];
      else if (command === 122 /* z */) [nx, ny] = [startX, startY];
      else [nx, ny] = [ox + args[arity - 2], oy + args[arity - 1]];
      signedArea += x * ny - nx * y;
      x = nx;
      y = ny;
    }
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    count = 0;
  };

  const n = d.length;
  let i = 0;
  while (i < n) {
    const c = d.charCodeAt(i);
    const isNumber = (c >= ZERO && c <= NINE) || c === DOT || c === MINUS || c === PLUS;
    if (!isNumber) {
      const lower = c | 32;
      if (lower >= 97 && lower <= 122 && ARGUMENTS[String.fromCharCode(lower)] !== undefined) {
        command = lower;
        relative = c === lower;
        arity = ARGUMENTS[String.fromCharCode(lower)];
        count = 0;
        if (lower === 122) finish();
      }
      i++;
      continue;
    }
    // one number: sign, digits, at most one dot, an exponent
    const start = i;
    if (c === MINUS || c === PLUS) i++;
    let seenDot = false;
    while (i < n) {
      const k = d.charCodeAt(i);
      if (k >= ZERO && k <= NINE) i++;
      else if (k === DOT && !seenDot) {
        seenDot = true;
        i++;
      } else if ((k === LOWER_E || k === UPPER_E) && i > start) {
        i++;
        const sign = d.charCodeAt(i);
        if (sign === MINUS || sign === PLUS) i++;
      } else break;
    }
    args[count++] = Number(d.slice(start, i));
    if (count === arity) finish();
  }
  signedArea += x * startY - startX * y;
  if (nodes === 0) return { nodes, minX: 0, minY: 0, maxX: 0, maxY: 0, area: 0 };
  return { nodes, minX, minY, maxX, maxY, area: Math.abs(signedArea) / 2 };
}

/** Lines per curve or arc when a path is flattened: a cubic of 100 px bends under 0.1 px from its chords. */
const CURVE_STEPS = 16;

/**
 * The path's subpaths as polygons (absolute x, y pairs), its curves and arcs cut into short lines:
 * enough to say which shapes lie inside which (engine/svg/stacking.ts), never written out.
 */
export function pathPolygons(d: string): number[][] {
  const tokens = d.match(/[a-zA-Z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  const polygons: number[][] = [];
  let points: number[] = [];
  let x = 0,
    y = 0,
    startX = 0,
    startY = 0;
  let letter = '';
  let t = 0;
  const next = () => Number(tokens[t++]);
  while (t < tokens.length) {
    if (/[a-zA-Z]/.test(tokens[t])) letter = tokens[t++];
    const lower = letter.toLowerCase();
    const ox = letter === lower ? x : 0,
      oy = letter === lower ? y : 0;
    if (lower === 'z') {
      x = startX;
      y = startY;
      continue;
    }
    if (ARGUMENTS[lower] === undefined) throw new Error(`path data: unknown command ${letter}`);
    if (lower === 'm') {
      if (points.length > 2) polygons.push(points);
      x = startX = ox + next();
      y = startY = oy + next();
      points = [x, y];
      letter = letter === 'm' ? 'l' : 'L';
      continue;
    }
    let nx: number, ny: number;
    if (lower === 'h') [nx, ny] = [ox + next(), y];
    else if (lower === 'v') [nx, ny] = [x, oy + next()];
    else if (lower === 'c') {
      const [ax, ay, bx, by] = [ox + next(), oy + next(), ox + next(), oy + next()];
      [nx, ny] = [ox + next(), oy + next()];
      for (let k = 1; k < CURVE_STEPS; k++) {
        points.push(...cubicPoint(x, y, ax, ay, bx, by, nx, ny, k / CURVE_STEPS));
      }
    } else if (lower === 'a') {
      const [rx, ry, rotation, large, sweep] = [next(), next(), next(), next(), next()];
      [nx, ny] = [ox + next(), oy + next()];
      points.push(...arcPoints(x, y, rx, ry, rotation, large !== 0, sweep !== 0, nx, ny));
    } else {
      // l, and the commands this engine never writes (s, q, t) by their end points only
      for (let k = 0; k < ARGUMENTS[lower] - 2; k++) next();
      [nx, ny] = [ox + next(), oy + next()];
    }
    points.push(nx, ny);
    x = nx;
    y = ny;
  }
  if (points.length > 2) polygons.push(points);
  return polygons;
}

/** The inner points of an SVG arc, from its centre form (SVG 1.1 appendix F.6.5). */
function arcPoints(
  x1: number,
  y1: number,
  rx: number,
  ry: number,
  degrees: number,
  large: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
) {
  rx = Math.abs(rx);
  ry = Math.abs(ry);
  if (rx === 0 || ry === 0) return [];
  const phi = (degrees * Math.PI) / 180,
    cos = Math.cos(phi),
    sin = Math.sin(phi);
  const hx = (x1 - x2) / 2,
    hy = (y1 - y2) / 2;
  const px = cos * hx + sin * hy,
    py = -sin * hx + cos * hy;
  // radii too small to reach the end point grow until they do
  const scale = (px * px) / (rx * rx) + (py * py) / (ry * ry);
  if (scale > 1) {
    rx *= Math.sqrt(scale);
    ry *= Math.sqrt(scale);
  }
  const numerator = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px;
  const root = Math.sqrt(Math.max(0, numerator / (rx * rx * py * py + ry * ry * px * px))) * (large === sweep ? -1 : 1);
  const qx = (root * rx * py) / ry,
    qy = (-root * ry * px) / rx;
  const cx = cos * qx - sin * qy + (x1 + x2) / 2,
    cy = sin * qx + cos * qy + (y1 + y2) / 2;
  const angle = (ux: number, uy: number) => Math.atan2(uy, ux);
  const start = angle((px - qx) / rx, (py - qy) / ry);
  let span = angle((-px - qx) / rx, (-py - qy) / ry) - start;
  if (sweep && span < 0) span += 2 * Math.PI;
  if (!sweep && span > 0) span -= 2 * Math.PI;
  const out: number[] = [];
  for (let k = 1; k < CURVE_STEPS; k++) {
    const a = start + (span * k) / CURVE_STEPS;
    const ex = rx * Math.cos(a),
      ey = ry * Math.sin(a);
    out.push(cos * ex - sin * ey + cx, sin * ex + cos * ey + cy);
  }
  return out;
}

/** Twice the signed area of the polygon through `points` (x, y pairs), closed back to its start. */
export function doubleSignedArea(points: number[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i += 2) {
    const j = (i + 2) % points.length;
    sum += points[i] * points[j + 1] - points[j] * points[i + 1];
  }
  return sum;
}

/** Nonzero winding of the polygons around (x, y): 0 outside the shape they fill. */
export function windingAt(polygons: number[][], x: number, y: number): number {
  let winding = 0;
  for (const p of polygons) {
    for (let i = 0; i < p.length; i += 2) {
      const j = (i + 2) % p.length;
      const [ax, ay, bx, by] = [p[i], p[i + 1], p[j], p[j + 1]];
      if (ay <= y) {
        if (by > y && (bx - ax) * (y - ay) - (x - ax) * (by - ay) > 0) winding++;
      } else if (by <= y && (bx - ax) * (y - ay) - (x - ax) * (by - ay) < 0) winding--;
    }
  }
  return winding;
}

/** The point at `t` on the cubic from (x0, y0) through controls (x1, y1), (x2, y2) to (x3, y3). */
export function cubicPoint(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
  t: number,
): [number, number] {
  const u = 1 - t;
  const b0 = u * u * u,
    b1 = 3 * u * u * t,
    b2 = 3 * u * t * t,
    b3 = t * t * t;
  return [b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3, b0 * y0 + b1 * y1 + b2 * y2 + b3 * y3];
}
