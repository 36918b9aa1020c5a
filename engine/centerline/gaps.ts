/**
 * Joins open strokes whose ends nearly touch. Where two free ends lie closer than the pen is wide,
 * their round caps already overlap on the page, so drawing them as one stroke paints (almost) the
 * same ink with one move fewer, and lets the fitter run one segment over what were two. Typical
 * sources: a line broken by a faint scan pixel, a glyph whose hairline fell under the threshold, a
 * dot right at a line end.
 */
import type { Stroke } from './graph.js';
import { hypot, hypot3 } from '../hypot.js';

/** Ends join when closer than this share of the thinner stroke's width (caps overlap below 1.0). */
const GAP_WIDTHS = 0.75;
/** Never bridge more than this (px), however wide the strokes. */
const GAP_MAX = 3;
/** Joined strokes must agree in colour (RGB distance)… */
const JOIN_COLOUR = 60;
/** …and in width: the thinner at least this share of the wider (they are drawn with one width). */
const JOIN_WIDTH_RATIO = 0.65;

export function joinAcrossGaps(strokes: Stroke[]): Stroke[] {
  const open: number[] = [];
  for (let i = 0; i < strokes.length; i++) if (!strokes[i].closed) open.push(i);
  if (open.length < 1) return strokes;

  // End e = 2*i + side (side 0 = first point, 1 = last point); coordinates in a flat array.
  const endX = new Float64Array(strokes.length * 2),
    endY = new Float64Array(strokes.length * 2);
  let cell = 1;
  for (const i of open) {
    const p = strokes[i].points,
      n = p.length;
    endX[2 * i] = p[0];
    endY[2 * i] = p[1];
    endX[2 * i + 1] = p[n - 2];
    endY[2 * i + 1] = p[n - 1];
    cell = Math.max(cell, Math.min(GAP_MAX, GAP_WIDTHS * strokes[i].width));
  }
  // Uniform grid over the ends (cell ≥ the largest reach, so the 3×3 cells around an end hold every
  // candidate), keyed by a number: one cell column of margin on each side keeps keys unique.
  let maxX = 0;
  for (const i of open) maxX = Math.max(maxX, endX[2 * i], endX[2 * i + 1]);
  const columns = Math.floor(maxX / cell) + 3;
  const key = (cx: number, cy: number) => (cy + 1) * columns + cx + 1;
  const grid = new Map<number, number[]>();
  for (const i of open)
    for (let side = 0; side < 2; side++) {
      const e = 2 * i + side;
      const k = key(Math.floor(endX[e] / cell), Math.floor(endY[e] / cell));
      let list = grid.get(k);
      if (!list) grid.set(k, (list = []));
      list.push(e);
    }

  // Candidate pairs, nearest first.
  const pairA: number[] = [],
    pairB: number[] = [],
    pairD: number[] = [];
  for (const i of open)
    for (let side = 0; side < 2; side++) {
      const e = 2 * i + side;
      // A single point has one end, not two.
      if (side === 1 && strokes[i].points.length === 2) continue;
      const cx = Math.floor(endX[e] / cell),
        cy = Math.floor(endY[e] / cell);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const list = grid.get(key(cx + dx, cy + dy));
          if (!list) continue;
          for (const f of list) {
            const j = f >> 1;
            if (f <= e || j === i) continue; // each pair once; a stroke's own two ends never close here
            if (f & 1 && strokes[j].points.length === 2) continue;
            if (!compatible(strokes[i], strokes[j])) continue;
            const d = hypot(endX[e] - endX[f], endY[e] - endY[f]);
            if (d > Math.min(GAP_MAX, GAP_WIDTHS * Math.min(strokes[i].width, strokes[j].width))) continue;
            pairA.push(e);
            pairB.push(f);
            pairD.push(d);
          }
        }
    }
  if (!pairA.length) return strokes;
  const order = pairA.map((_, k) => k).sort((a, b) => pairD[a] - pairD[b] || pairA[a] - pairA[b] || pairB[a] - pairB[b]);

  // partner[e] = the end e is joined to; a join that would close a chain into a ring is skipped
  // (the two ends of a chain are tracked so rings only come from the skeleton, where they are real).
  const partner = new Int32Array(strokes.length * 2).fill(-1);
  const farEnd = new Int32Array(strokes.length * 2);
  for (let e = 0; e < farEnd.length; e++) farEnd[e] = e ^ 1;
  for (const k of order) {
    const e = pairA[k],
      f = pairB[k];
    if (partner[e] >= 0 || partner[f] >= 0) continue;
    if (farEnd[e] === f) continue;
    partner[e] = f;
    partner[f] = e;
    const a = farEnd[e],
      b = farEnd[f];
    farEnd[a] = b;
    farEnd[b] = a;
  }

  const out: Stroke[] = [];
  const used = new Uint8Array(strokes.length);
  for (let i = 0; i < strokes.length; i++) {
    if (strokes[i].closed) {
      out.push(strokes[i]);
      used[i] = 1;
    }
  }
  for (const i of open) {
    if (used[i]) continue;
    // Start from a chain end: the end of i not joined (one exists, since chains never close).
    if (partner[2 * i] < 0 && partner[2 * i + 1] < 0) {
      out.push(strokes[i]);
      continue;
    } // joined to nothing
    const start = partner[2 * i] < 0 ? 2 * i : partner[2 * i + 1] < 0 ? 2 * i + 1 : -1;
    if (start < 0) continue; // inside a chain: it is emitted from that chain's end
    const pts: number[] = [];
    let weight = 0,
      width = 0,
      r = 0,
      g = 0,
      b = 0;
    for (let e = start; e >= 0;) {
      const j = e >> 1;
      used[j] = 1;
      const p = strokes[j].points,
        n = p.length / 2;
      const forward = (e & 1) === 0;
      for (let k = 0; k < n; k++) {
        const idx = forward ? k : n - 1 - k;
        pts.push(p[idx * 2], p[idx * 2 + 1]);
      }
      const w = Math.max(strokeLength(p), 1);
      weight += w;
      width += strokes[j].width * w;
      r += strokes[j].rgb[0] * w;
      g += strokes[j].rgb[1] * w;
      b += strokes[j].rgb[2] * w;
      const exit = e ^ 1;
      e = partner[exit];
    }
    out.push({
      points: new Float64Array(pts),
      closed: false,
      width: width / weight,
      rgb: [Math.round(r / weight), Math.round(g / weight), Math.round(b / weight)],
    });
  }
  return out;
}

function compatible(a: Stroke, b: Stroke): boolean {
  if (Math.min(a.width, b.width) < JOIN_WIDTH_RATIO * Math.max(a.width, b.width)) return false;
  return hypot3(a.rgb[0] - b.rgb[0], a.rgb[1] - b.rgb[1], a.rgb[2] - b.rgb[2]) <= JOIN_COLOUR;
}

function strokeLength(p: Float64Array): number {
  let len = 0;
  for (let k = 2; k < p.length; k += 2) len += hypot(p[k] - p[k - 2], p[k + 1] - p[k - 1]);
  return len;
}
