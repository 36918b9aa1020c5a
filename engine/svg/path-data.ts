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
