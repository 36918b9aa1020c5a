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

const TOKEN = /([MmLlHhVvCcSsQqTtAaZz])|(-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)/g;

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
  let command = '';
  const args: number[] = [];

  const moveTo = (nx: number, ny: number) => {
    signedArea += x * startY - startX * y; // the open subpath closes back to its start
    x = startX = nx;
    y = startY = ny;
  };
  const lineTo = (nx: number, ny: number) => {
    signedArea += x * ny - nx * y;
    x = nx;
    y = ny;
  };
  const apply = () => {
    const lower = command.toLowerCase();
    const relative = command === lower;
    const ox = relative ? x : 0,
      oy = relative ? y : 0;
    nodes++;
    if (lower === 'm') moveTo(ox + args[0], oy + args[1]);
    else if (lower === 'h') lineTo(ox + args[0], y);
    else if (lower === 'v') lineTo(x, oy + args[0]);
    else if (lower === 'z') lineTo(startX, startY);
    else lineTo(ox + args[args.length - 2], oy + args[args.length - 1]);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    args.length = 0;
    // after a moveto, further pairs are linetos
    if (command === 'm') command = 'l';
    else if (command === 'M') command = 'L';
  };

  for (const match of d.matchAll(TOKEN)) {
    if (match[1] !== undefined) {
      command = match[1];
      if (command === 'z' || command === 'Z') apply();
      continue;
    }
    args.push(Number(match[2]));
    if (args.length === ARGUMENTS[command.toLowerCase()]) apply();
  }
  signedArea += x * startY - startX * y;
  if (nodes === 0) return { nodes, minX: 0, minY: 0, maxX: 0, maxY: 0, area: 0 };
  return { nodes, minX, minY, maxX, maxY, area: Math.abs(signedArea) / 2 };
}
