/**
 * SVG writing for centerline output: filled shapes first, then strokes grouped by colour and width
 * (one <g> carries fill/stroke attributes so each path is just its `d`). Path data is relative with
 * one decimal, measured from the rounded previous point so rounding never drifts.
 */
import type { FittedChain } from './fit.js';
import { assembleSvg, plainFrame, type CenterlineDocument, type PaintedXml, type SvgFrame } from '../svg/document.js';

export type Rgb = [number, number, number];

interface WrittenSvg {
  svg: string;
  paths: number;
  nodes: number;
}

/** The document's SVG, at the frame's size (by default its traced size) and with its colour layers. */
export function writeSvg(doc: CenterlineDocument, frame: SvgFrame = plainFrame(doc.width, doc.height)): WrittenSvg {
  const { width, height } = doc;
  const elements: PaintedXml[] = [];
  let paths = 0,
    nodes = 0;
  // Nodes as the benchmark counts the SVG: a shape element is four, a path's moveto one.
  if (doc.page !== null) {
    elements.push({ paint: doc.page, xml: `<rect width="${width}" height="${height}" fill="${doc.page}"/>` });
    nodes += 4;
  }
  for (const shape of doc.fills) {
    let d = '';
    for (const chain of shape.chains) {
      const w = pathData(chain);
      d += w.d;
      nodes += w.nodes;
    }
    elements.push({ paint: shape.paint, xml: `<path fill="${shape.paint}" d="${d}"/>` });
    paths++;
  }
  const groups = new Map<string, { paint: string; width: string; lines: string[] }>();
  for (const s of doc.strokes) {
    const strokeWidth = num(s.width);
    const key = `${s.paint} ${strokeWidth}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { paint: s.paint, width: strokeWidth, lines: [] }));
    const pd = pathData(s.chain);
    g.lines.push(`<path d="${pd.d}"/>`);
    paths++;
    nodes += pd.nodes;
  }
  for (const g of groups.values()) {
    const open = `<g fill="none" stroke="${g.paint}" stroke-width="${g.width}" stroke-linecap="round" stroke-linejoin="round">`;
    elements.push({ paint: g.paint, xml: [open, ...g.lines, '</g>'].join('\n') });
  }
  return { svg: assembleSvg(width, height, frame, [], elements).join('\n') + '\n', paths, nodes };
}

function pathData(chain: FittedChain): { d: string; nodes: number } {
  const r = (v: number) => Math.round(v * 10);
  let cx = r(chain.startX),
    cy = r(chain.startY);
  let d = `M${num(cx / 10)} ${num(cy / 10)}`;
  let nodes = 0;
  const segs = chain.segments;
  // A closed chain that ends on a straight segment lets `z` draw that segment.
  const last = chain.closed && segs.length > 1 && segs[segs.length - 1].kind === 'L' ? segs.length - 1 : segs.length;
  // The last arguments written: whether the next may drop its separator depends only on how they end,
  // and looking at them (not at `d`) keeps charCodeAt from flattening the growing string each segment.
  let prevCmd = '',
    prevArgs = '';
  for (let i = 0; i < last; i++) {
    const s = segs[i];
    if (s.kind === 'L') {
      const x = r(s.x),
        y = r(s.y);
      if (x === cx && y === cy && segs.length > 1) continue;
      const dx = x - cx,
        dy = y - cy;
      let cmd: string, args: string;
      if (dy === 0 && dx !== 0) {
        cmd = 'h';
        args = num(dx / 10);
      } else if (dx === 0 && dy !== 0) {
        cmd = 'v';
        args = num(dy / 10);
      } else {
        cmd = 'l';
        args = join([dx / 10, dy / 10]);
      }
      d += (cmd === prevCmd ? sep(args, prevArgs) : cmd) + args;
      prevCmd = cmd;
      prevArgs = args;
      cx = x;
      cy = y;
    } else {
      const x1 = r(s.x1) - cx,
        y1 = r(s.y1) - cy,
        x2 = r(s.x2) - cx,
        y2 = r(s.y2) - cy,
        x = r(s.x),
        y = r(s.y);
      const args = join([x1 / 10, y1 / 10, x2 / 10, y2 / 10, (x - cx) / 10, (y - cy) / 10]);
      d += (prevCmd === 'c' ? sep(args, prevArgs) : 'c') + args;
      prevCmd = 'c';
      prevArgs = args;
      cx = x;
      cy = y;
    }
    nodes++;
  }
  if (nodes === 0) {
    d += 'h0';
    nodes = 1;
  } // a dot: a zero-length stroke that round caps paint as a disc
  // A ring whose last segment is a curve already ends on its start; with round caps and joins an
  // explicit close would only add a node that draws nothing.
  if (chain.closed && last < segs.length) {
    d += 'z';
    nodes++;
  }
  return { d, nodes: nodes + 1 }; // and the moveto
}

/** Shortest decimal form: 0.5 → .5, -0.5 → -.5, 2.0 → 2. */
function num(v: number): string {
  // Built from the integer tenths (no toString + regex per number: a page writes tens of thousands).
  const tenths = Math.round(v * 10);
  if (tenths === 0) return '0';
  const abs = tenths < 0 ? -tenths : tenths;
  const whole = Math.floor(abs / 10),
    frac = abs - whole * 10;
  const s = frac ? (whole ? `${whole}.${frac}` : `.${frac}`) : `${whole}`;
  return tenths < 0 ? `-${s}` : s;
}

/** Joins numbers, omitting a separator where a sign or a leading dot already separates them. */
function join(values: number[]): string {
  let out = '';
  for (const v of values) {
    const s = num(v);
    out += out ? sep(s, out) + s : s;
  }
  return out;
}

function sep(next: string, before = 'x'): string {
  if (next.startsWith('-')) return '';
  if (next.startsWith('.') && endsInFraction(before)) return '';
  return ' ';
}

/** True when the text ends in a number with a decimal point ("1.5", ".5", "3."): looks back over the last digits only. */
function endsInFraction(text: string): boolean {
  let i = text.length - 1;
  while (i >= 0) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i--;
  }
  return i >= 0 && text.charCodeAt(i) === 46;
}

export function hex(c: Rgb): string {
  const h = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  const s = h(c[0]) + h(c[1]) + h(c[2]);
  return s[0] === s[1] && s[2] === s[3] && s[4] === s[5] ? `#${s[0]}${s[2]}${s[4]}` : `#${s}`;
}
