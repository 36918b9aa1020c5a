import t from 'tap';
import { FIT_PRESETS, fitChain, reversePath, type FittedPath, type Segment } from '../../../engine/fit/index.js';
import { SMOOTHING_LEVELS } from '../../../engine/types.js';
import { boundaryChain, polygonChain, polygonContains, rasterise } from '../helpers/chains.js';
import { halfArcPoint, samplePath, type Point } from '../helpers/paths.js';

function endOf(path: FittedPath): Point {
  const last = path.segments[path.segments.length - 1];
  return { x: last.x, y: last.y };
}

/** Unit tangent at the start (leaving) and end (arriving) of a segment that begins at p. */
function tangents(p: Point, seg: Segment): { start: Point; end: Point } {
  const norm = (x: number, y: number) => {
    const l = Math.hypot(x, y) || 1;
    return { x: x / l, y: y / l };
  };
  if (seg.kind === 'L') {
    const d = norm(seg.x - p.x, seg.y - p.y);
    return { start: d, end: d };
  }
  if (seg.kind === 'A') {
    const a = halfArcPoint(p, seg, 1e-4),
      b = halfArcPoint(p, seg, 1 - 1e-4);
    return { start: norm(a.x - p.x, a.y - p.y), end: norm(seg.x - b.x, seg.y - b.y) };
  }
  const s = Math.hypot(seg.x1 - p.x, seg.y1 - p.y) > 1e-9 ? norm(seg.x1 - p.x, seg.y1 - p.y) : norm(seg.x2 - p.x, seg.y2 - p.y);
  const e = Math.hypot(seg.x - seg.x2, seg.y - seg.y2) > 1e-9 ? norm(seg.x - seg.x2, seg.y - seg.y2) : norm(seg.x - seg.x1, seg.y - seg.y1);
  return { start: s, end: e };
}

/** Joins (closed path: including the closing one) where the tangent turns by more than 5°. */
function countCorners(path: FittedPath): number {
  const segs = path.segments;
  const starts: Point[] = [path.start, ...segs.slice(0, -1).map((s) => ({ x: s.x, y: s.y }))];
  const tans = segs.map((s, i) => tangents(starts[i], s));
  let corners = 0;
  for (let i = 0; i < segs.length; i++) {
    const a = tans[i].end,
      b = tans[(i + 1) % segs.length].start;
    if (Math.acos(Math.max(-1, Math.min(1, a.x * b.x + a.y * b.y))) > (5 * Math.PI) / 180) corners++;
  }
  return corners;
}

const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

t.test('a 45° staircase fits to one straight segment with exact ends', async (t) => {
  const pts: number[] = [];
  for (let i = 0; i < 30; i++) pts.push(10 + i, 5 + i, 11 + i, 5 + i);
  pts.push(40, 35);
  for (const level of SMOOTHING_LEVELS) {
    const path = fitChain(Float64Array.from(pts), false, FIT_PRESETS[level]);
    t.same(path.segments, [{ kind: 'L', x: 40, y: 35 }], level);
    t.same(path.start, { x: 10, y: 5 }, level);
  }
});

t.test('a shallow digital line (1:3) is one line too', async (t) => {
  const pts: number[] = [];
  for (let i = 0; i < 12; i++) pts.push(3 * i, i, 3 * i + 3, i);
  pts.push(36, 12);
  const path = fitChain(Float64Array.from(pts), false, FIT_PRESETS.strong);
  t.same(path.segments, [{ kind: 'L', x: 36, y: 12 }]);
});

t.test('an axis-aligned rectangle gives 4 lines meeting in sharp corners on the pixel corners', async (t) => {
  const chain = boundaryChain(rasterise(40, 30, (x, y) => x > 5 && x < 35 && y > 4 && y < 24));
  const corners = new Set(['5,4', '35,4', '35,24', '5,24']);
  for (const level of ['off', 'light', 'strong'] as const) {
    const path = fitChain(chain, true, FIT_PRESETS[level]);
    t.equal(path.segments.length, 4, `${level}: 4 segments`);
    t.ok(
      path.segments.every((s) => s.kind === 'L'),
      `${level}: all lines`,
    );
    const got = new Set(path.segments.map((s) => `${s.x.toFixed(6).replace(/\.?0+$/, '')},${s.y.toFixed(6).replace(/\.?0+$/, '')}`));
    t.same(got, corners, `${level}: corners exactly on the rectangle`);
  }
  // maximum rounds right angles, but only a few pixels into each side: the sides stay straight lines
  const max = fitChain(chain, true, FIT_PRESETS.maximum);
  t.equal(max.segments.filter((s) => s.kind === 'L').length, 4, 'maximum keeps the 4 straight sides');
  t.ok(max.segments.filter((s) => s.kind === 'C').length <= 4, 'maximum: one rounding per corner');
  for (const p of samplePath(max)) {
    t.ok(p.x >= 5 - 1e-6 && p.x <= 35 + 1e-6 && p.y >= 4 - 1e-6 && p.y <= 24 + 1e-6, 'rounding stays inside the rectangle');
    const nearCorner = Math.min(
      Math.hypot(p.x - 5, p.y - 4),
      Math.hypot(p.x - 35, p.y - 4),
      Math.hypot(p.x - 35, p.y - 24),
      Math.hypot(p.x - 5, p.y - 24),
    );
    if (nearCorner > 8) t.ok(Math.min(p.x - 5, 35 - p.x, p.y - 4, 24 - p.y) < 1e-6, 'away from corners the outline is the rectangle');
  }
});

t.test('a rasterised circle fits to at most 8 cubics within 0.5 px of the true circle', async (t) => {
  for (const r of [12, 20, 45]) {
    const size = 2 * r + 10,
      c = size / 2;
    const chain = boundaryChain(rasterise(size, size, disc(c, c, r)));
    for (const level of ['light', 'strong', 'maximum'] as const) {
      const path = fitChain(chain, true, FIT_PRESETS[level]);
      t.ok(path.segments.length <= 8, `r=${r} ${level}: ${path.segments.length} segments`);
      t.ok(
        path.segments.every((s) => s.kind === 'C'),
        `r=${r} ${level}: only curves`,
      );
      let worst = 0;
      for (const p of samplePath(path, 40)) worst = Math.max(worst, Math.abs(Math.hypot(p.x - c, p.y - c) - r));
      // maximum trades closeness for fewer nodes: its own tolerance bounds it
      const bound = level === 'maximum' ? FIT_PRESETS.maximum.tolerance : 0.5;
      t.ok(worst <= bound, `r=${r} ${level}: worst radial error ${worst.toFixed(3)} px`);
      t.equal(countCorners(path), 0, `r=${r} ${level}: no corners (tangent-continuous)`);
    }
  }
});

t.test('open chains keep their end points exactly', async (t) => {
  // a wavy open boundary from a junction at (3,7) to one at (61,22)
  const pts: number[] = [3, 7];
  let x = 3,
    y = 7;
  for (let i = 0; i < 58; i++) {
    const target = Math.round(7 + 15 * (i / 57) + 4 * Math.sin(i / 6));
    while (y !== target) {
      y += Math.sign(target - y);
      pts.push(x, y);
    }
    x += 1;
    pts.push(x, y);
  }
  while (y !== 22) {
    y += Math.sign(22 - y);
    pts.push(x, y);
  }
  for (const level of SMOOTHING_LEVELS) {
    const path = fitChain(Float64Array.from(pts), false, FIT_PRESETS[level]);
    t.same(path.start, { x: 3, y: 7 }, `${level}: start`);
    t.same(endOf(path), { x: 61, y: 22 }, `${level}: end`);
  }
});

t.test('closed paths end exactly where they start', async (t) => {
  const chain = boundaryChain(rasterise(60, 60, disc(30, 30, 17)));
  for (const level of SMOOTHING_LEVELS) {
    const path = fitChain(chain, true, FIT_PRESETS[level]);
    t.same(endOf(path), path.start, level);
  }
});

t.test('reversePath(reversePath(p)) equals p, and reversal walks the same points backwards', async (t) => {
  const chain = polygonChain(80, 80, [
    [10, 10],
    [70, 18],
    [55, 70],
    [20, 50],
  ]);
  const round = boundaryChain(rasterise(60, 60, disc(30, 30, 20)));
  for (const [name, path] of [
    ['polygon', fitChain(chain, true, FIT_PRESETS.strong)],
    ['circle', fitChain(round, true, FIT_PRESETS.strong)],
  ] as const) {
    t.same(reversePath(reversePath(path)), path, name);
    const forward = samplePath(path, 8),
      backward = samplePath(reversePath(path), 8).reverse();
    t.equal(backward.length, forward.length);
    for (let i = 0; i < forward.length; i++) t.ok(Math.hypot(forward[i].x - backward[i].x, forward[i].y - backward[i].y) < 1e-9);
  }
});

t.test('smoothing levels order by corner count on polygons with mild angles', async (t) => {
  const regular = (sides: number, r: number): Array<[number, number]> =>
    Array.from(
      { length: sides },
      (_, k) =>
        [100 + r * Math.cos((2 * Math.PI * k) / sides + 0.1), 100 + r * Math.sin((2 * Math.PI * k) / sides + 0.1)] as [number, number],
    );
  // 12-gon: 150° interior angles on 41 px sides; 16-gon: 157.5° on 23 px sides
  for (const [sides, r] of [
    [12, 80],
    [16, 60],
  ] as const) {
    const chain = boundaryChain(rasterise(200, 200, polygonContains(regular(sides, r))));
    const counts = SMOOTHING_LEVELS.map((level) => countCorners(fitChain(chain, true, FIT_PRESETS[level])));
    t.equal(counts[0], sides, `${sides}-gon: off keeps every vertex sharp (${counts.join(', ')})`);
    for (let i = 1; i < counts.length; i++)
      t.ok(
        counts[i] <= counts[i - 1],
        `${sides}-gon: ${SMOOTHING_LEVELS[i]} has no more corners than ${SMOOTHING_LEVELS[i - 1]}: ${counts.join(', ')}`,
      );
    t.equal(counts[3], 0, `${sides}-gon: maximum rounds every mild angle`);
  }
});

t.test('a triangle keeps its three sharp corners and straight sides below maximum', async (t) => {
  const chain = polygonChain(60, 60, [
    [5, 5],
    [55, 20],
    [15, 50],
  ]);
  for (const level of ['off', 'light', 'strong'] as const) {
    const path = fitChain(chain, true, FIT_PRESETS[level]);
    t.equal(path.segments.length, 3, level);
    t.ok(
      path.segments.every((s) => s.kind === 'L'),
      level,
    );
  }
});

t.test('degenerate chains do not throw', async (t) => {
  t.same(fitChain(new Float64Array(0), true, FIT_PRESETS.strong).segments, []);
  t.same(fitChain(Float64Array.from([2, 3, 2, 4]), false, FIT_PRESETS.strong), {
    start: { x: 2, y: 3 },
    segments: [{ kind: 'L', x: 2, y: 4 }],
  });
  const pixel = fitChain(Float64Array.from([0, 0, 1, 0, 1, 1, 0, 1]), true, FIT_PRESETS.strong);
  t.ok(pixel.segments.length >= 1);
  t.same(endOf(pixel), pixel.start);
});
