/**
 * Offset copies of outlines: compose.ts moves the chains a shape runs under its neighbours along,
 * and stacking.ts grows a shape that the output controls lift below the shapes it lay on.
 */
import { hypot } from '../hypot.js';
import { scratchFloat64Buffer, scratchSlots } from '../scratch.js';
import type { Pen } from './underlap.js';

/**
 * Control points in walking order (start, then 1 per line or 3 per cubic) and which segments are
 * cubics, for `segments` segments (the arrays may be longer: reused buffers).
 */
export interface Walk {
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
  curve: ArrayLike<number>;
  segments: number;
}

/** Each segment's normals at its ends: compose offsets every chain a shape runs under, so these are reused. */
const NORMALS = scratchSlots('offset normals', Float64Array, ['startX', 'startY', 'endX', 'endY']);

/** Offset joins sharper than this stretch their miter no further (a spike would poke out of the shape above). */
const MITER_LIMIT = 2;

/**
 * Appends a walk of lines and cubics moved `distance` px to the left of it (negative: to the
 * right): compose.ts moves a chain towards the neighbour painted on top, so the shape runs under
 * it by that much. Every
 * control point moves along its segment's normal, and the point two segments share moves along
 * their mitred mean normal, so a smooth run stays smooth and a corner stays a corner; for offsets
 * this small against the curves' radii that is within a few hundredths of a pixel of the true
 * offset curve. The pen reaches the moved start with a line (or a move, first in the ring).
 */
export function appendOffsetWalk(writer: Pen, walk: Walk, continuing: boolean, distance: number, closed: boolean): void {
  const { xs, ys, curve, segments } = walk;
  if (segments === 0) return;
  // each segment's left normal at its start and at its end (from the control polygon's legs)
  const nsx = scratchFloat64Buffer(NORMALS.startX, segments),
    nsy = scratchFloat64Buffer(NORMALS.startY, segments),
    nex = scratchFloat64Buffer(NORMALS.endX, segments),
    ney = scratchFloat64Buffer(NORMALS.endY, segments);
  for (let s = 0, p = 0; s < segments; s++) {
    const last = p + (curve[s] ? 3 : 1);
    leftNormal(xs, ys, p, last, 1);
    nsx[s] = vector[0];
    nsy[s] = vector[1];
    leftNormal(xs, ys, last, p, -1);
    nex[s] = vector[0];
    ney[s] = vector[1];
    p = last;
  }
  let sx: number, sy: number;
  if (closed) {
    joint(nex[segments - 1], ney[segments - 1], nsx[0], nsy[0], distance);
    sx = vector[0];
    sy = vector[1];
  } else {
    sx = nsx[0] * distance;
    sy = nsy[0] * distance;
  }
  if (continuing) writer.lineTo(xs[0] + sx, ys[0] + sy);
  else writer.moveTo(xs[0] + sx, ys[0] + sy);
  for (let s = 0, p = 0; s < segments; s++) {
    const last = p + (curve[s] ? 3 : 1);
    let ex: number, ey: number;
    if (s + 1 < segments) {
      joint(nex[s], ney[s], nsx[s + 1], nsy[s + 1], distance);
      ex = vector[0];
      ey = vector[1];
    } else if (closed) {
      ex = sx;
      ey = sy;
    } else {
      ex = nex[s] * distance;
      ey = ney[s] * distance;
    }
    if (curve[s]) {
      writer.curveTo(
        xs[p + 1] + nsx[s] * distance,
        ys[p + 1] + nsy[s] * distance,
        xs[p + 2] + nex[s] * distance,
        ys[p + 2] + ney[s] * distance,
        xs[last] + ex,
        ys[last] + ey,
      );
    } else writer.lineTo(xs[last] + ex, ys[last] + ey);
    p = last;
  }
}

/** leftNormal's and joint's answer (x, y): a pair returned per segment was the offset's garbage. */
const vector = new Float64Array(2);

/**
 * The offset (into `vector`) of the point two segments share, `distance` px along their mitred mean
 * normal: the start normal `a` of one and the end normal `b` of the other.
 */
function joint(ax: number, ay: number, bx: number, by: number, distance: number): void {
  let mx = ax + bx,
    my = ay + by;
  const len = hypot(mx, my);
  if (len < 1e-9) {
    vector[0] = ax * distance;
    vector[1] = ay * distance;
    return;
  }
  mx /= len;
  my /= len;
  const cos = mx * ax + my * ay;
  const scale = distance / Math.max(cos, 1 / MITER_LIMIT);
  vector[0] = mx * scale;
  vector[1] = my * scale;
}

/**
 * The unit left normal (screen: (dy, −dx) of the walk; into `vector`) of the leg from point `from` towards `to`,
 * taking the next point over when the control point sits on the end point; `sign` −1 when `to`
 * lies before `from` on the walk.
 */
function leftNormal(xs: ArrayLike<number>, ys: ArrayLike<number>, from: number, to: number, sign: number): void {
  const step = to > from ? 1 : -1;
  for (let q = to; ; q -= step) {
    const dx = (xs[q] - xs[from]) * sign,
      dy = (ys[q] - ys[from]) * sign;
    const len = hypot(dx, dy);
    if (len > 1e-9) {
      vector[0] = dy / len;
      vector[1] = -dx / len;
      return;
    }
    if (q === from + step) {
      vector[0] = 0;
      vector[1] = 0;
      return;
    }
  }
}

/** A closed ring of path data as a walk, in absolute coordinates. */
interface Ring {
  xs: number[];
  ys: number[];
  curve: number[];
}

/**
 * The rings of path data this engine writes (PathWriter: m, l, h, v, c, z, absolute or relative),
 * each closed back to its start; null when it holds anything else (an arc: its offset is no arc).
 */
function pathRings(d: string): Ring[] | null {
  const tokens = d.match(/[a-zA-Z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  const rings: Ring[] = [];
  let ring: Ring | null = null;
  let x = 0,
    y = 0,
    letter = '',
    t = 0;
  const next = () => Number(tokens[t++]);
  const lineTo = (nx: number, ny: number) => {
    if (ring === null || (nx === x && ny === y)) return;
    ring.xs.push(nx);
    ring.ys.push(ny);
    ring.curve.push(0);
    x = nx;
    y = ny;
  };
  const close = () => {
    if (ring === null) return;
    lineTo(ring.xs[0], ring.ys[0]);
    if (ring.curve.length > 1) rings.push(ring);
    x = ring.xs[0];
    y = ring.ys[0];
    ring = null;
  };
  while (t < tokens.length) {
    if (/[a-zA-Z]/.test(tokens[t])) letter = tokens[t++];
    const lower = letter.toLowerCase();
    const ox = letter === lower ? x : 0,
      oy = letter === lower ? y : 0;
    if (lower === 'z') close();
    else if (lower === 'm') {
      close();
      x = ox + next();
      y = oy + next();
      ring = { xs: [x], ys: [y], curve: [] };
      letter = letter === 'm' ? 'l' : 'L';
    } else if (lower === 'l') lineTo(ox + next(), oy + next());
    else if (lower === 'h') lineTo(ox + next(), y);
    else if (lower === 'v') lineTo(x, oy + next());
    else if (lower === 'c' && ring !== null) {
      const points = [ox + next(), oy + next(), ox + next(), oy + next(), ox + next(), oy + next()];
      const r: Ring = ring;
      for (let k = 0; k < 6; k += 2) {
        r.xs.push(points[k]);
        r.ys.push(points[k + 1]);
      }
      r.curve.push(1);
      x = points[4];
      y = points[5];
    } else return null;
  }
  close();
  return rings;
}

/** Writes absolute path data on the 0.01 px grid. */
class PathText implements Pen {
  private readonly parts: string[] = [];
  private static n(v: number): string {
    return String(Number(v.toFixed(2)));
  }
  moveTo(x: number, y: number): void {
    if (this.parts.length > 0) this.parts.push('z');
    this.parts.push(`M${PathText.n(x)} ${PathText.n(y)}`);
  }
  lineTo(x: number, y: number): void {
    this.parts.push(`L${PathText.n(x)} ${PathText.n(y)}`);
  }
  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.parts.push(`C${[x1, y1, x2, y2, x, y].map(PathText.n).join(' ')}`);
  }
  toString(): string {
    return this.parts.length === 0 ? '' : `${this.parts.join('')}z`;
  }
}

/**
 * The shape `d` fills, grown by `distance` px all round (its holes shrink): every ring moved to
 * the side away from the shape's inside, which is the same side of the walk for the outer rings
 * and the holes (they wind the other way). Null when the path holds an arc.
 */
export function grownPathData(d: string, distance: number): string | null {
  const rings = pathRings(d);
  if (rings === null || rings.length === 0) return null;
  // the largest ring is an outline, not a hole: its signed area says which side of the walk is out
  let outerArea = 0;
  for (const ring of rings) {
    let area = 0;
    const n = ring.xs.length;
    for (let i = 0; i < n; i++) area += ring.xs[i] * ring.ys[(i + 1) % n] - ring.xs[(i + 1) % n] * ring.ys[i];
    if (Math.abs(area) > Math.abs(outerArea)) outerArea = area;
  }
  // on screen (y down) a positive area walks clockwise, with the inside on its right
  const left = outerArea > 0 ? distance : -distance;
  const out = new PathText();
  for (const ring of rings) appendOffsetWalk(out, { ...ring, segments: ring.curve.length }, false, left, true);
  return out.toString();
}
