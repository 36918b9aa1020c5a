/**
 * Size and node counts of an SVG as a designer reads them: bytes on disk, number of shapes, and
 * nodes = path segments (lines and curves), the same count the engine's TraceStats and the
 * benchmark use, so the numbers in the app match the numbers in reports.
 */
export interface SvgStats {
  bytes: number;
  paths: number;
  nodes: number;
}

/** Numbers each path command consumes per segment; Z takes none and closes with one line. */
const ARITY: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };

const TOKEN = /([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;

/** Counts segments in one path `d`: every drawn piece counts once, moves do not. */
export function countPathSegments(d: string): number {
  let segments = 0;
  let command = '';
  let pending = 0;
  let firstPairOfMove = false;
  for (const match of d.matchAll(TOKEN)) {
    if (match[1]) {
      command = match[1].toLowerCase();
      pending = 0;
      if (command === 'z') segments += 1;
      firstPairOfMove = command === 'm';
      continue;
    }
    const arity = ARITY[command];
    if (!arity) continue;
    pending += 1;
    if (pending === arity) {
      pending = 0;
      // Pairs after the first one of a moveto are implicit linetos (SVG 1.1 §8.3.2).
      if (command === 'm' && firstPairOfMove) firstPairOfMove = false;
      else segments += 1;
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
    const points = Math.floor(numbers / 2);
    nodes += match[1] === 'polygon' ? points : Math.max(0, points - 1);
  }
  const paths = [...svg.matchAll(SHAPE)].length;
  return { bytes: new TextEncoder().encode(svg).length, paths, nodes };
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
