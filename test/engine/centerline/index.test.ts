import t from 'tap';
import { Resvg } from '@resvg/resvg-js';
import { traceCenterline } from '../../../engine/centerline/index.js';
import type { RgbaImage } from '../../../engine/types.js';

// ---------------------------------------------------------------- drawing fixtures (typed arrays)
type Rgb = [number, number, number];
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

function canvas(width: number, height: number, page: Rgb = WHITE): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([page[0], page[1], page[2], 255], i * 4);
  return { width, height, data };
}
function plot(img: RgbaImage, x: number, y: number, c: Rgb): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  img.data.set([c[0], c[1], c[2], 255], (y * img.width + x) * 4);
}
function rect(img: RgbaImage, x0: number, y0: number, w: number, h: number, c: Rgb = BLACK): void {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) plot(img, x, y, c);
}
/** Pixels whose centre lies within width/2 of the segment. */
function line(img: RgbaImage, ax: number, ay: number, bx: number, by: number, width: number, c: Rgb = BLACK): void {
  const r = width / 2,
    dx = bx - ax,
    dy = by - ay,
    len2 = dx * dx + dy * dy;
  for (let y = Math.floor(Math.min(ay, by) - r - 1); y <= Math.max(ay, by) + r + 1; y++) {
    for (let x = Math.floor(Math.min(ax, bx) - r - 1); x <= Math.max(ax, bx) + r + 1; x++) {
      const px = x + 0.5 - ax,
        py = y + 0.5 - ay;
      const s = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      if (Math.hypot(px - s * dx, py - s * dy) <= r) plot(img, x, y, c);
    }
  }
}
function disc(img: RgbaImage, cx: number, cy: number, radius: number, c: Rgb = BLACK): void {
  for (let y = cy - radius - 1; y <= cy + radius + 1; y++)
    for (let x = cx - radius - 1; x <= cx + radius + 1; x++) {
      if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius) plot(img, x, y, c);
    }
}

// ---------------------------------------------------------------- reading the SVG back
interface StrokeOut {
  d: string;
  width: number;
  colour: string;
  start: [number, number];
  end: [number, number];
  closed: boolean;
}

/** Start and end point of a path (M/m, L/l, H/h, V/v, C/c, Z/z as the tracer writes them). */
function endpoints(d: string): { start: [number, number]; end: [number, number]; closed: boolean } {
  const tokens = d.match(/[MmLlHhVvCcZz]|-?(?:\d*\.\d+|\d+\.?)/g) ?? [];
  let x = 0,
    y = 0,
    sx = 0,
    sy = 0,
    cmd = '',
    closed = false;
  const arity: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6 };
  let args: number[] = [];
  const apply = () => {
    const lower = cmd.toLowerCase(),
      rel = cmd === lower,
      n = arity[lower];
    while (n && args.length >= n) {
      const a = args.splice(0, n);
      if (lower === 'h') x = rel ? x + a[0] : a[0];
      else if (lower === 'v') y = rel ? y + a[0] : a[0];
      else {
        const ex = a[n - 2],
          ey = a[n - 1];
        x = rel ? x + ex : ex;
        y = rel ? y + ey : ey;
      }
      if (lower === 'm') {
        sx = x;
        sy = y;
        cmd = rel ? 'l' : 'L';
      }
    }
  };
  for (const tok of tokens) {
    if (/[A-Za-z]/.test(tok)) {
      apply();
      cmd = tok;
      args = [];
      if (tok === 'z' || tok === 'Z') {
        closed = true;
        x = sx;
        y = sy;
      }
    } else args.push(Number(tok));
  }
  apply();
  if (Math.hypot(x - sx, y - sy) < 0.05) closed = true;
  return { start: [sx, sy], end: [x, y], closed };
}

function strokesOf(svg: string): StrokeOut[] {
  const out: StrokeOut[] = [];
  const groups = svg.matchAll(/<g fill="none" stroke="([^"]+)" stroke-width="([^"]+)"[^>]*>([\s\S]*?)<\/g>/g);
  for (const g of groups) {
    for (const p of g[3].matchAll(/<path d="([^"]+)"\/>/g)) out.push({ d: p[1], width: Number(g[2]), colour: g[1], ...endpoints(p[1]) });
  }
  return out;
}
const fillsOf = (svg: string) => [...svg.matchAll(/<path fill="([^"]+)" d="([^"]+)"\/>/g)].map((m) => ({ colour: m[1], d: m[2] }));
const near = (p: [number, number], q: [number, number], tol: number) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= tol;
/** Does the stroke run between a and b (either direction)? */
const joins = (s: StrokeOut, a: [number, number], b: [number, number], tol: number) =>
  (near(s.start, a, tol) && near(s.end, b, tol)) || (near(s.start, b, tol) && near(s.end, a, tol));

function rgbOf(hex: string): Rgb {
  const h =
    hex.length === 4
      ? hex
          .slice(1)
          .split('')
          .map((c) => c + c)
          .join('')
      : hex.slice(1);
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** Share of the input's ink (dark pixels) that the rendered SVG covers within `tol` px. */
function inkRecall(img: RgbaImage, svg: string, tol = 2): number {
  const rendered = new Resvg(svg, { background: 'white' }).render();
  const { width, height } = img;
  const out = rendered.pixels;
  const outInk = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) outInk[i] = out[i * 4] + out[i * 4 + 1] + out[i * 4 + 2] < 3 * 190 ? 1 : 0;
  let ink = 0,
    hit = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (img.data[i * 4] + img.data[i * 4 + 1] + img.data[i * 4 + 2] >= 3 * 128) continue;
      ink++;
      let found = false;
      for (let dy = -tol; dy <= tol && !found; dy++)
        for (let dx = -tol; dx <= tol && !found; dx++) {
          const xx = x + dx,
            yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height && dx * dx + dy * dy <= tol * tol && outInk[yy * width + xx]) found = true;
        }
      if (found) hit++;
    }
  return hit / ink;
}

/** Deterministic noise (mulberry32). */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let v = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    v = (v + Math.imul(v ^ (v >>> 7), 61 | v)) ^ v;
    return ((v ^ (v >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- tests

t.test('the SVG is a complete document of the image size', async (t) => {
  const img = canvas(64, 40);
  line(img, 8, 20, 56, 20, 3);
  const { svg, paths, nodes } = await traceCenterline(img, {});
  t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 64 40" width="64" height="40">/);
  t.match(svg, /<\/svg>\n$/);
  t.equal(paths, 1);
  t.ok(nodes >= 1);
});

t.test('lines of 1, 3 and 6 px get stroke widths within ±1 px of each', async (t) => {
  const img = canvas(240, 120);
  rect(img, 20, 20, 200, 1);
  rect(img, 20, 55, 200, 3);
  rect(img, 20, 90, 200, 6);
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 3, 'one stroke per line');
  for (const [y, width] of [
    [20.5, 1],
    [56.5, 3],
    [93, 6],
  ] as const) {
    const s = strokes.find((k) => Math.abs(k.start[1] - y) < 1.5);
    t.ok(s, `a stroke along y=${y}`);
    if (!s) continue;
    t.ok(Math.abs(s.width - width) <= 1, `${width}-px line drawn ${s.width} px wide`);
    t.equal(s.colour, '#000');
    t.match(s.d, /^M[\d.]+ [\d.]+h[\d.]+$/, 'a straight run is one straight segment');
  }
});

t.test('a filled disc beside thin lines stays one filled shape while the lines become strokes', async (t) => {
  const img = canvas(200, 120);
  disc(img, 60, 60, 30);
  line(img, 110, 20, 190, 20, 2);
  line(img, 110, 100, 190, 40, 2);
  const { svg } = await traceCenterline(img, {});
  const fills = fillsOf(svg);
  t.equal(fills.length, 1, 'the disc is one filled path');
  t.equal((fills[0].d.match(/M/g) ?? []).length, 1, 'with one outline');
  t.equal(strokesOf(svg).length, 2, 'the two lines are strokes');
  t.match(svg, /fill="none"[^>]*stroke-linecap="round" stroke-linejoin="round"/);
  t.ok(inkRecall(img, svg) > 0.99, 'rendered output covers the drawing');
});

t.test('a T junction: the bar is one stroke, the stem ends on it, no spur', async (t) => {
  const img = canvas(160, 120);
  line(img, 20, 30, 140, 30, 4);
  line(img, 80, 30, 80, 100, 4);
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 2);
  t.ok(
    strokes.some((s) => joins(s, [20, 30], [140, 30], 4)),
    'bar end to end',
  );
  t.ok(
    strokes.some((s) => joins(s, [80, 30], [80, 100], 4)),
    'stem from the bar to its end',
  );
});

t.test('an X junction gives two straight crossing strokes', async (t) => {
  const img = canvas(140, 140);
  line(img, 20, 20, 120, 120, 5);
  line(img, 20, 120, 120, 20, 5);
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 2);
  t.ok(strokes.some((s) => joins(s, [20, 20], [120, 120], 5)));
  t.ok(strokes.some((s) => joins(s, [20, 120], [120, 20], 5)));
});

t.test('an L corner is one stroke from end to end', async (t) => {
  const img = canvas(140, 140);
  line(img, 20, 20, 20, 110, 4);
  line(img, 20, 110, 120, 110, 4);
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 1);
  t.ok(joins(strokes[0], [20, 20], [120, 110], 4));
});

t.test('a closed rectangle outline becomes one closed path', async (t) => {
  const img = canvas(160, 120);
  rect(img, 20, 20, 120, 3);
  rect(img, 20, 97, 120, 3);
  rect(img, 20, 20, 3, 80);
  rect(img, 137, 20, 3, 80);
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 1);
  t.ok(strokes[0].closed, 'the path closes on itself');
  t.ok(Math.abs(strokes[0].width - 3) <= 1);
});

t.test('white lines on blueprint blue trace like black on white', async (t) => {
  const blue: Rgb = [31, 78, 156];
  const draw = (img: RgbaImage, c: Rgb) => {
    line(img, 20, 30, 140, 30, 3, c);
    line(img, 80, 30, 80, 100, 3, c);
    rect(img, 150, 20, 40, 3, c);
    rect(img, 150, 80, 40, 3, c);
    rect(img, 150, 20, 3, 63, c);
    rect(img, 187, 20, 3, 63, c);
  };
  const dark = canvas(200, 120);
  draw(dark, BLACK);
  const bp = canvas(200, 120, blue);
  draw(bp, WHITE);
  const a = await traceCenterline(dark, {});
  const b = await traceCenterline(bp, {});
  const sa = strokesOf(a.svg),
    sb = strokesOf(b.svg);
  t.equal(sb.length, sa.length, 'same strokes');
  t.equal(sb.length, 3);
  t.same(
    sb.map((s) => [s.start, s.end, s.width]),
    sa.map((s) => [s.start, s.end, s.width]),
    'in the same places, at the same widths',
  );
  for (const s of sb)
    t.ok(
      rgbOf(s.colour).every((v) => v > 230),
      `white stroke (${s.colour})`,
    );
  t.match(b.svg, /<rect width="200" height="120" fill="#1f4e9c"\/>/, 'the blue page is kept');
  t.notMatch(a.svg, /<rect/, 'white paper is not drawn');
});

t.test('a noisy, blurred scan of a line gives one stroke and no spurs', async (t) => {
  const W = 200,
    H = 80;
  const img = canvas(W, H);
  line(img, 15, 42, 185, 38, 4);
  // 3×3 box blur (scanner optics), then salt-and-pepper noise (dust and paper grain).
  const src = img.data.slice();
  for (let y = 1; y < H - 1; y++)
    for (let x = 1; x < W - 1; x++) {
      let s = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s += src[((y + dy) * W + x + dx) * 4];
      const v = Math.round(s / 9);
      img.data.set([v, v, v, 255], (y * W + x) * 4);
    }
  const rand = prng(7);
  for (let i = 0; i < W * H; i++) {
    const r = rand();
    if (r < 0.01) img.data.set([0, 0, 0], i * 4);
    else if (r < 0.02) img.data.set([255, 255, 255], i * 4);
    const g = Math.max(0, Math.min(255, img.data[i * 4] + Math.round((rand() - 0.5) * 30)));
    img.data.set([g, g, g], i * 4);
  }
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 1, 'one stroke, no spur and no dust');
  t.ok(joins(strokes[0], [15, 42], [185, 38], 5), 'end to end');
  t.ok(Math.abs(strokes[0].width - 4) <= 1.5, `width ${strokes[0].width}`);
});

t.test('a coloured line keeps its colour', async (t) => {
  const img = canvas(160, 100);
  line(img, 20, 30, 140, 30, 3, [210, 30, 40]);
  line(img, 20, 70, 140, 70, 3, [20, 60, 200]);
  const strokes = strokesOf((await traceCenterline(img, {})).svg);
  t.equal(strokes.length, 2);
  const byY = strokes.sort((a, b) => a.start[1] - b.start[1]).map((s) => rgbOf(s.colour));
  t.ok(Math.hypot(byY[0][0] - 210, byY[0][1] - 30, byY[0][2] - 40) < 20, `red stays red (${byY[0]})`);
  t.ok(Math.hypot(byY[1][0] - 20, byY[1][1] - 60, byY[1][2] - 200) < 20, `blue stays blue (${byY[1]})`);
});

t.test('the same image always gives the same SVG', async (t) => {
  const img = canvas(120, 120);
  line(img, 10, 10, 110, 100, 3);
  disc(img, 40, 80, 14);
  line(img, 60, 20, 100, 20, 2, [200, 0, 0]);
  const a = await traceCenterline(img, {});
  const b = await traceCenterline({ ...img, data: img.data.slice() }, {});
  t.equal(a.svg, b.svg);
});

t.test('progress runs from 0 to 1 and abort rejects with canceled', async (t) => {
  const img = canvas(100, 60);
  line(img, 10, 30, 90, 30, 3);
  const seen: number[] = [];
  await traceCenterline(img, { onProgress: (f) => seen.push(f) });
  t.equal(seen[0], 0);
  t.equal(seen[seen.length - 1], 1);
  t.ok(
    seen.every((f, i) => i === 0 || f >= seen[i - 1]),
    'never goes back',
  );

  const before = new AbortController();
  before.abort();
  await t.rejects(traceCenterline(img, { signal: before.signal }), { code: 'canceled' });

  const during = new AbortController();
  await t.rejects(
    traceCenterline(img, {
      signal: during.signal,
      onProgress: (f) => {
        if (f > 0) during.abort();
      },
    }),
    { code: 'canceled' },
  );
});

t.test('a drawing with text-like strokes is covered by its rendered strokes', async (t) => {
  const img = canvas(220, 120);
  // A few glyph-like shapes: a ring, an arc, crossing strokes, a dot.
  for (let a = 0; a < 360; a += 1) {
    const r = (a * Math.PI) / 180;
    plot(img, Math.round(40 + 18 * Math.cos(r)), Math.round(50 + 18 * Math.sin(r)), BLACK);
    plot(img, Math.round(40 + 19 * Math.cos(r)), Math.round(50 + 19 * Math.sin(r)), BLACK);
  }
  for (let a = 0; a < 180; a += 0.5) {
    const r = (a * Math.PI) / 180;
    line(img, 110 + 25 * Math.cos(r), 60 - 25 * Math.sin(r), 110 + 25 * Math.cos(r), 60 - 25 * Math.sin(r), 3);
  }
  line(img, 150, 20, 200, 90, 2);
  line(img, 150, 90, 200, 20, 2);
  disc(img, 175, 105, 3);
  const { svg } = await traceCenterline(img, {});
  t.ok(inkRecall(img, svg) > 0.98, 'ink recall within 2 px');
});
