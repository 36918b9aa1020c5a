/**
 * Size and node counts of an SVG as a designer reads them: bytes on disk, number of shapes, and
 * nodes counted as the benchmark (`measure.mjs`, `clean.cjs`) and the engine's TraceStats count
 * them: every path command's segment (a moveto and a close included), a polygon's points, a line
 * one, any other shape element (circle, ellipse, rect) four. So the numbers in the app, the API's
 * stats and the published benchmark agree.
 */
export interface SvgStats {
  bytes: number;
  paths: number;
  nodes: number;
}

/** Numbers each path command consumes per segment; Z takes none and closes with one line. */
const ARITY: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };

const TOKEN = /([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;

/** Counts segments in one path `d`: the moveto and every drawn piece count once. */
export function countPathSegments(d: string): number {
  let segments = 0;
  let command = '';
  let pending = 0;
  for (const match of d.matchAll(TOKEN)) {
    if (match[1]) {
      command = match[1].toLowerCase();
      pending = 0;
      if (command === 'z') segments += 1;
      continue;
    }
    const arity = ARITY[command];
    if (!arity) continue;
    pending += 1;
    if (pending === arity) {
      pending = 0;
      segments += 1;
    }
  }
  return segments;
}

const PATH_D = /<path\b[^>]*?\sd\s*=\s*("([^"]*)"|'([^']*)')/g;
const SHAPE = /<(path|polygon|polyline|rect|circle|ellipse|line)\b/g;
const POINTS = /<(polygon|polyline)\b[^>]*?\spoints\s*=\s*("([^"]*)"|'([^']*)')/g;

export function svgStats(svg: string): SvgStats {
  let nodes = 0;
  for (const match of svg.matchAll(PATH_D)) nodes += countPathSegments(match[2] ?? match[3] ?? '');
  for (const match of svg.matchAll(POINTS)) {
    const numbers = (match[3] ?? match[4] ?? '')
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean).length;
    nodes += Math.floor(numbers / 2);
  }
  const shapes = [...svg.matchAll(SHAPE)];
  for (const [, tag] of shapes)
    if (tag === 'line') nodes += 1;
    else if (tag !== 'path' && tag !== 'polygon' && tag !== 'polyline') nodes += 4;
  return { bytes: new TextEncoder().encode(svg).length, paths: shapes.length, nodes };
}

/** Binary units, named as such: the upload limit is 50 MiB, so a file's size reads in the same unit. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
