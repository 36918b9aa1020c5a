/**
 * Write stage: compact, valid SVG 1.1 that renders the same in browsers, Inkscape and resvg.
 *
 * - viewBox at the input's pixel size, width/height the same, so 1 user unit = 1 input pixel.
 * - Coordinates are snapped to a 0.1 px grid (finer than the eye sees at 400 % zoom) in integer
 *   tenths, and written relative to the previous snapped point, so shared boundaries written by two
 *   shapes land on exactly the same numbers and rounding never drifts along a path.
 * - Axis-aligned lines use h/v; a repeated command letter is left out; leading zeros are dropped.
 * - Colours are short hex; gradients go to <defs> with short ids.
 */
import type { FittedChains } from '../fit/chain.js';
import type { FittedPath } from '../fit/index.js';
import type { GradientFill } from '../fit/gradient.js';
import { ellipseXml, type SvgEllipse } from './ellipse.js';
import { assembleSvg, plainFrame, type SvgFrame } from './document.js';

interface SvgFill {
  kind: 'fill';
  paint: string;
  d: string;
  /** evenodd where the output controls cut a stacked hole (engine/svg/stacking.ts); the trace writes nonzero. */
  rule?: 'evenodd';
  /** Nodes in `d` as PathWriter counted them (stats without reading `d` back); absent in older kept documents. */
  nodes?: number;
  /**
   * The shape with its hidden outline runs as collected, where `d` takes shortcuts across the
   * shapes painted after it (engine/svg/underlap.ts): drawn instead of `d` when an output control
   * lifts one of those below it or leaves one out, which would show the shortcut.
   */
  withoutShortcuts?: { d: string; nodes: number };
}

/** Fill mode writes filled outlines only (contract: no stroke-only element); seams close by geometry (compose.ts). */
export type SvgItem = SvgFill | SvgEllipse;

export interface SvgDocument {
  width: number;
  height: number;
  gradients: Array<{ id: string; fill: GradientFill }>;
  items: SvgItem[];
}

const SCALE = 10; // 0.1 px grid

/** Number in tenths → shortest SVG number text. */
function tenthsText(v: number): string {
  if (v % SCALE === 0) return String(v / SCALE);
  const neg = v < 0;
  const a = neg ? -v : v;
  const whole = Math.floor(a / SCALE);
  const frac = a % SCALE;
  return (neg ? '-' : '') + (whole === 0 ? '' : String(whole)) + '.' + String(frac);
}

/**
 * Path numbers are mostly small steps between neighbouring points: their text is looked up, not
 * built (formatting numbers was a tenth of composing), with whether it has a '.' beside it. Each
 * entry is written on its first use: filling all of them when the module loaded cost a cold
 * `vectorize convert` about 20 ms, for the few hundred one image uses.
 */
const TABLE_LIMIT = 8192;
const TENTHS_TABLE: string[] = new Array<string>(2 * TABLE_LIMIT + 1).fill('');
/** Per entry: 0 not written yet, 1 written without a '.', 2 with one. */
const TENTHS_KIND = new Uint8Array(2 * TABLE_LIMIT + 1);
const WITHOUT_DOT = 1,
  WITH_DOT = 2;
const MINUS = 45,
  DOT = 46;

function number(v: number, digits = 2): string {
  const s = Number(v.toFixed(digits)).toString();
  return s.startsWith('0.') ? s.slice(1) : s.startsWith('-0.') ? '-' + s.slice(2) : s;
}

/**
 * Builds one path's `d` text from fitted chains. Counts segments the way the benchmark and an
 * editor's node count do (each moveto, line, curve, arc and close is one), so the reported
 * stats match the SVG.
 */
export class PathWriter {
  private parts: string[] = [];
  private last = ''; // previous command letter, for implicit repetition
  private lastHadDot = false;
  private cx = 0; // current point in tenths
  private cy = 0;
  private sx = 0; // subpath start in tenths
  private sy = 0;
  private started = false;
  /** Where the current subpath's moveto is in `parts`. */
  private subpathParts = 0;
  /** The writer's state before the last line it wrote: `close` may take that line back. */
  private lineBefore: { parts: number; last: string; lastHadDot: boolean } | null = null;
  /**
   * The straight run the last line belongs to: where it started and the points inside it (tenths),
   * so a line that carries on in the same direction replaces the run's last line instead of adding
   * a node. Chains meet at junctions, and a straight edge that many regions touch is many chains.
   */
  private run: { x: number; y: number; inner: number[]; before: { parts: number; last: string; lastHadDot: boolean } } | null = null;
  segments = 0;

  /** A writer with this one's text and pen, to carry on differently from here. */
  fork(): PathWriter {
    const copy = new PathWriter();
    copy.parts = this.parts.slice();
    copy.last = this.last;
    copy.lastHadDot = this.lastHadDot;
    copy.cx = this.cx;
    copy.cy = this.cy;
    copy.sx = this.sx;
    copy.sy = this.sy;
    copy.started = this.started;
    copy.subpathParts = this.subpathParts;
    copy.lineBefore = this.lineBefore;
    // the run's inner points grow in place; its `before` is never changed, so it may be shared
    copy.run = this.run === null ? null : { x: this.run.x, y: this.run.y, inner: this.run.inner.slice(), before: this.run.before };
    copy.segments = this.segments;
    return copy;
  }

  get empty(): boolean {
    return this.parts.length === 0;
  }

  // A repeated command letter may be left out (SVG's implicit repetition); numbers then need a
  // separator unless the next one starts with '-', or with '.' after a number that has its own '.'.
  // The emitters take their numbers one by one (no array per command: this runs for every segment).

  /** The command letter, or '' when it repeats the previous one. */
  private command(command: string): string {
    if (command === this.last) return '';
    // After a moveto, further pairs are linetos.
    this.last = command === 'M' ? 'L' : command === 'm' ? 'l' : command;
    return command;
  }

  /** `v`'s text, after a space when it needs one (`separated`: right after a command letter). */
  private value(v: number, separated: boolean): string {
    let s: string, dot: boolean;
    if (v >= -TABLE_LIMIT && v <= TABLE_LIMIT) {
      const k = v + TABLE_LIMIT;
      let kind = TENTHS_KIND[k];
      if (kind === 0) {
        const text = tenthsText(v);
        TENTHS_TABLE[k] = text;
        kind = TENTHS_KIND[k] = text.includes('.') ? WITH_DOT : WITHOUT_DOT;
      }
      s = TENTHS_TABLE[k];
      dot = kind === WITH_DOT;
    } else {
      s = tenthsText(v);
      dot = s.includes('.');
    }
    const first = s.charCodeAt(0);
    const spaced = !separated && !(first === MINUS || (first === DOT && this.lastHadDot));
    this.lastHadDot = dot;
    return spaced ? ' ' + s : s;
  }

  private emit1(command: string, a: number): void {
    const letter = this.command(command);
    this.parts.push(letter + this.value(a, letter !== ''));
  }

  private emit2(command: string, a: number, b: number): void {
    const letter = this.command(command);
    const first = letter + this.value(a, letter !== '');
    this.parts.push(first + this.value(b, false));
  }

  private emit6(command: string, a: number, b: number, c: number, d: number, e: number, f: number): void {
    const letter = this.command(command);
    const first = letter + this.value(a, letter !== '');
    const bText = this.value(b, false),
      cText = this.value(c, false),
      dText = this.value(d, false),
      eText = this.value(e, false);
    this.parts.push(first + bText + cText + dText + eText + this.value(f, false));
  }

  moveTo(x: number, y: number): void {
    const tx = Math.round(x * SCALE),
      ty = Math.round(y * SCALE);
    this.subpathParts = this.parts.length;
    this.segments++;
    if (!this.started) {
      this.emit2('M', tx, ty);
      this.started = true;
    } else {
      this.last = '';
      this.emit2('m', tx - this.cx, ty - this.cy);
    }
    this.cx = this.sx = tx;
    this.cy = this.sy = ty;
    this.run = null;
  }

  lineTo(x: number, y: number): void {
    const tx = Math.round(x * SCALE),
      ty = Math.round(y * SCALE);
    const dx = tx - this.cx,
      dy = ty - this.cy;
    if (dx === 0 && dy === 0) return;
    const run = this.run;
    if (run !== null && run.before.parts === this.parts.length - 1 && this.continuesRun(run, tx, ty)) {
      // the run's last line is taken back and the whole run written as one line to the new end
      this.parts.pop();
      this.last = run.before.last;
      this.lastHadDot = run.before.lastHadDot;
      run.inner.push(this.cx, this.cy);
      this.cx = run.x;
      this.cy = run.y;
      this.segments--;
      this.emitLine(tx, ty, run.before);
      this.run = run;
      return;
    }
    const startX = this.cx,
      startY = this.cy;
    const before = { parts: this.parts.length, last: this.last, lastHadDot: this.lastHadDot };
    this.emitLine(tx, ty, before);
    this.run = { x: startX, y: startY, inner: [], before };
  }

  private emitLine(tx: number, ty: number, before: { parts: number; last: string; lastHadDot: boolean }): void {
    const dx = tx - this.cx,
      dy = ty - this.cy;
    this.lineBefore = before;
    if (dy === 0) this.emit1('h', dx);
    else if (dx === 0) this.emit1('v', dy);
    else this.emit2('l', dx, dy);
    this.cx = tx;
    this.cy = ty;
    this.segments++;
  }

  /**
   * Whether the line from the run's start to (tx, ty) passes within half a tenth of every point
   * the run went through (the current one included), each further along than the one before: the
   * points it drops are the same to the 0.1 px grid, so shapes sharing them still meet.
   */
  private continuesRun(run: { x: number; y: number; inner: number[] }, tx: number, ty: number): boolean {
    const ux = tx - run.x,
      uy = ty - run.y;
    const length2 = ux * ux + uy * uy;
    // each point's distance along the line, which must grow; no closure (a double it kept would be garbage)
    let along = 0;
    const inner = run.inner;
    for (let i = 0; i <= inner.length; i += 2) {
      const px = i < inner.length ? inner[i] : this.cx,
        py = i < inner.length ? inner[i + 1] : this.cy;
      const cross = (px - run.x) * uy - (py - run.y) * ux;
      const dot = (px - run.x) * ux + (py - run.y) * uy;
      if (4 * cross * cross > length2 || dot <= along || dot >= length2) return false;
      along = dot;
    }
    return true;
  }

  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    const tx = Math.round(x * SCALE),
      ty = Math.round(y * SCALE);
    const ax = Math.round(x1 * SCALE),
      ay = Math.round(y1 * SCALE);
    const bx = Math.round(x2 * SCALE),
      by = Math.round(y2 * SCALE);
    const straight =
      (ax - this.cx) * (ty - this.cy) === (ay - this.cy) * (tx - this.cx) &&
      (bx - this.cx) * (ty - this.cy) === (by - this.cy) * (tx - this.cx);
    if (straight) {
      this.lineTo(x, y);
      return;
    }
    this.emit6('c', ax - this.cx, ay - this.cy, bx - this.cx, by - this.cy, tx - this.cx, ty - this.cy);
    this.cx = tx;
    this.cy = ty;
    this.segments++;
    this.run = null;
  }

  /**
   * Elliptical arc (SVG's `a`): radii and the end point on the 0.1 px grid, the rotation in tenths
   * of a degree (a tenth of a degree moves a 100 px radius by 0.2 px), never a large arc.
   */
  arcTo(rx: number, ry: number, rotation: number, sweep: number, x: number, y: number): void {
    const tx = Math.round(x * SCALE),
      ty = Math.round(y * SCALE);
    if (tx === this.cx && ty === this.cy) return;
    const letter = this.command('a');
    const text =
      letter +
      this.value(Math.round(rx * SCALE), letter !== '') +
      this.value(Math.round(ry * SCALE), false) +
      this.value(Math.round(rotation * SCALE), false);
    // the flags as separate 0/1 numbers (some parsers do not split '11')
    this.parts.push(
      text +
        this.value(0, false) +
        this.value(sweep ? SCALE : 0, false) +
        this.value(tx - this.cx, false) +
        this.value(ty - this.cy, false),
    );
    this.cx = tx;
    this.cy = ty;
    this.segments++;
    this.run = null;
  }

  /** Appends a fitted chain; starts a subpath at its start unless the pen is already there. */
  append(path: FittedPath, continuing: boolean): void {
    if (!continuing) this.moveTo(path.start.x, path.start.y);
    for (const s of path.segments) {
      if (s.kind === 'L') this.lineTo(s.x, s.y);
      else if (s.kind === 'A') this.arcTo(s.rx, s.ry, s.rotation, s.sweep, s.x, s.y);
      else this.curveTo(s.x1, s.y1, s.x2, s.y2, s.x, s.y);
    }
  }

  /**
   * Appends a fitted chain walked backwards: the same pen moves as append(reversePath(path)),
   * without building the reversed copy (half of all chain uses are backwards).
   */
  appendReversed(path: FittedPath, continuing: boolean): void {
    const segs = path.segments;
    if (segs.length === 0) {
      if (!continuing) this.moveTo(path.start.x, path.start.y);
      return;
    }
    const last = segs[segs.length - 1];
    if (!continuing) this.moveTo(last.x, last.y);
    for (let i = segs.length - 1; i >= 0; i--) {
      const s = segs[i];
      const prev = i > 0 ? segs[i - 1] : path.start;
      if (s.kind === 'L') this.lineTo(prev.x, prev.y);
      else if (s.kind === 'A') this.arcTo(s.rx, s.ry, s.rotation, 1 - s.sweep, prev.x, prev.y);
      else this.curveTo(s.x2, s.y2, s.x1, s.y1, prev.x, prev.y);
    }
  }

  /**
   * Appends chain c of packed fits, forwards or walked backwards: the same pen moves as append()
   * and appendReversed() of that chain's path.
   */
  appendChain(fitted: FittedChains, c: number, reversed: boolean, continuing: boolean): void {
    const { coords, kinds } = fitted;
    const k0 = fitted.kindAt[c],
      n = fitted.count[c];
    let p = fitted.coordAt[c];
    if (!reversed) {
      if (!continuing) this.moveTo(coords[p], coords[p + 1]);
      p += 2;
      for (let i = 0; i < n; i++) {
        const kind = kinds[k0 + i];
        if (kind === 0) {
          this.lineTo(coords[p], coords[p + 1]);
          p += 2;
        } else {
          if (kind === 2) this.arcTo(coords[p], coords[p + 1], coords[p + 2], coords[p + 3], coords[p + 4], coords[p + 5]);
          else this.curveTo(coords[p], coords[p + 1], coords[p + 2], coords[p + 3], coords[p + 4], coords[p + 5]);
          p += 6;
        }
      }
      return;
    }
    if (n === 0) {
      if (!continuing) this.moveTo(coords[p], coords[p + 1]);
      return;
    }
    p += 2;
    for (let i = 0; i < n; i++) p += kinds[k0 + i] === 0 ? 2 : 6;
    if (!continuing) this.moveTo(coords[p - 2], coords[p - 1]);
    for (let i = n - 1; i >= 0; i--) {
      // the previous segment's end (or the start) sits just before this segment's numbers
      const kind = kinds[k0 + i];
      if (kind === 0) {
        p -= 2;
        this.lineTo(coords[p - 2], coords[p - 1]);
      } else {
        p -= 6;
        if (kind === 2) this.arcTo(coords[p], coords[p + 1], coords[p + 2], 1 - coords[p + 3], coords[p - 2], coords[p - 1]);
        else this.curveTo(coords[p + 2], coords[p + 3], coords[p], coords[p + 1], coords[p - 2], coords[p - 1]);
      }
    }
  }

  close(): void {
    // `z` draws the line back to the start itself: a last line that ends there is left out
    const line = this.lineBefore;
    if (
      line !== null &&
      line.parts === this.parts.length - 1 &&
      line.parts > this.subpathParts + 1 &&
      this.cx === this.sx &&
      this.cy === this.sy
    ) {
      this.parts.pop();
      this.last = line.last;
      this.lastHadDot = line.lastHadDot;
      this.segments--;
    }
    this.parts.push('z');
    this.run = null;
    this.last = 'z';
    this.cx = this.sx;
    this.cy = this.sy;
    this.segments++;
  }

  toString(): string {
    return this.parts.join('');
  }
}

export function hexColour(r: number, g: number, b: number): string {
  const hex = ((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1);
  if (hex[0] === hex[1] && hex[2] === hex[3] && hex[4] === hex[5]) return `#${hex[0]}${hex[2]}${hex[4]}`;
  return `#${hex}`;
}

function gradientXml(id: string, fill: GradientFill): string {
  const stops = fill.stops
    .map((s) => {
      const opacity = s.opacity !== undefined && s.opacity < 1 ? ` stop-opacity="${number(s.opacity, 3)}"` : '';
      return `<stop offset="${number(s.offset, 3)}" stop-color="${s.color}"${opacity}/>`;
    })
    .join('');
  if (fill.type === 'linear') {
    const ends = `x1="${number(fill.x1, 1)}" y1="${number(fill.y1, 1)}" x2="${number(fill.x2, 1)}" y2="${number(fill.y2, 1)}"`;
    return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" ${ends}>${stops}</linearGradient>`;
  }
  // elliptical rings: a circle of radius r at the origin, stretched and turned onto the centre
  const centre = `${number(fill.cx, 1)} ${number(fill.cy, 1)}`;
  const circle = fill.ellipse
    ? `cx="0" cy="0" r="${number(fill.r, 1)}" ` +
      `gradientTransform="translate(${centre})${fill.ellipse.angle === 0 ? '' : ` rotate(${number(fill.ellipse.angle, 1)})`} ` +
      `scale(1 ${number(fill.ellipse.ratio, 3)})"`
    : `cx="${number(fill.cx, 1)}" cy="${number(fill.cy, 1)}" r="${number(fill.r, 1)}"`;
  return `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" ${circle}>${stops}</radialGradient>`;
}

/** The document's SVG; `frame` sets the root's size and the colour layers (engine/svg/controls.ts). */
export function writeSvg(doc: SvgDocument, frame: SvgFrame = plainFrame(doc.width, doc.height)): string {
  const defs = doc.gradients.length > 0 ? ['<defs>', ...doc.gradients.map((g) => gradientXml(g.id, g.fill)), '</defs>'] : [];
  const elements = doc.items.map((item) => ({
    paint: item.paint,
    xml:
      item.kind !== 'fill'
        ? ellipseXml(item)
        : item.rule === undefined
          ? `<path fill="${item.paint}" d="${item.d}"/>`
          : `<path fill="${item.paint}" fill-rule="${item.rule}" d="${item.d}"/>`,
  }));
  return assembleSvg(doc.width, doc.height, frame, defs, elements).join('\n');
}
