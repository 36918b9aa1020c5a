/**
 * Long straight stretches of sub-pixel points are written as lines (engine/fit/straight-runs.ts).
 */
import t from 'tap';
import { fitChain, fitSettingsFor } from '../../../engine/fit/index.js';
import { straightRuns } from '../../../engine/fit/straight-runs.js';
import { distanceToPolyline, samplePath } from '../helpers/paths.js';

const light = { ...fitSettingsFor('light'), followEdges: true };

/** Points about a pixel apart round a rounded rectangle, each off it by a deterministic ±0.02 px. */
function roundedRectPoints(x0: number, y0: number, w: number, h: number, r: number): Float64Array {
  const out: number[] = [];
  const straight = (ax: number, ay: number, bx: number, by: number) => {
    const length = Math.hypot(bx - ax, by - ay);
    for (let s = 0; s < length; s += 1) out.push(ax + ((bx - ax) * s) / length, ay + ((by - ay) * s) / length);
  };
  const arc = (cx: number, cy: number, from: number) => {
    const steps = Math.round((Math.PI / 2) * r);
    for (let i = 0; i < steps; i++) {
      const angle = from + ((Math.PI / 2) * i) / steps;
      out.push(cx + r * Math.cos(angle), cy + r * Math.sin(angle));
    }
  };
  straight(x0 + r, y0, x0 + w - r, y0);
  arc(x0 + w - r, y0 + r, -Math.PI / 2);
  straight(x0 + w, y0 + r, x0 + w, y0 + h - r);
  arc(x0 + w - r, y0 + h - r, 0);
  straight(x0 + w - r, y0 + h, x0 + r, y0 + h);
  arc(x0 + r, y0 + h - r, Math.PI / 2);
  straight(x0, y0 + h - r, x0, y0 + r);
  arc(x0 + r, y0 + r, Math.PI);
  // the noise runs along each point's normal-ish direction; either axis serves at this size
  for (let i = 0; i < out.length; i += 2) {
    out[i] += 0.02 * Math.sin(i * 1.7);
    out[i + 1] += 0.02 * Math.cos(i * 2.3);
  }
  return Float64Array.from(out);
}

t.test('a rounded rectangle: each long side is one line on the side, the fit stays on the points', async (t) => {
  const [x0, y0, w, h, r] = [20.25, 30.5, 140, 90, 12];
  const points = roundedRectPoints(x0, y0, w, h, r);
  const fit = fitChain(points, true, light);
  const sides = [
    { name: 'top', on: (x: number, y: number) => Math.abs(y - y0), length: w - 2 * r },
    { name: 'right', on: (x: number) => Math.abs(x - (x0 + w)), length: h - 2 * r },
    { name: 'bottom', on: (x: number, y: number) => Math.abs(y - (y0 + h)), length: w - 2 * r },
    { name: 'left', on: (x: number) => Math.abs(x - x0), length: h - 2 * r },
  ];
  let p = fit.start;
  const lines: Array<{ ax: number; ay: number; bx: number; by: number }> = [];
  for (const s of fit.segments) {
    if (s.kind === 'L') lines.push({ ax: p.x, ay: p.y, bx: s.x, by: s.y });
    p = s;
  }
  for (const side of sides) {
    // a line lying on the side (both ends within the points' noise) covering most of it
    const covering = lines.filter(
      (l) => side.on(l.ax, l.ay) <= 0.06 && side.on(l.bx, l.by) <= 0.06 && Math.hypot(l.bx - l.ax, l.by - l.ay) >= 0.8 * side.length,
    );
    t.equal(covering.length, 1, `${side.name}: one line along it`);
  }
  const drawn = samplePath(fit, 48);
  let worst = 0;
  for (let i = 0; i < points.length; i += 2) worst = Math.max(worst, distanceToPolyline(points[i], points[i + 1], drawn));
  t.ok(worst <= 0.25, `the fit stays within ${worst.toFixed(3)} px of the points`);
  t.ok(fit.segments.length <= 12, `${fit.segments.length} segments`);
});

t.test('a large circle has no straight run: it stays curves', async (t) => {
  const radius = 150;
  const out: number[] = [];
  const steps = Math.round(2 * Math.PI * radius);
  for (let i = 0; i < steps; i++) {
    const angle = (2 * Math.PI * i) / steps;
    out.push(200.3 + radius * Math.cos(angle), 199.6 + radius * Math.sin(angle));
  }
  const points = Float64Array.from(out);
  const xs = points.filter((_, i) => i % 2 === 0),
    ys = points.filter((_, i) => i % 2 === 1);
  t.same(straightRuns(xs, ys), [], 'no run found');
  t.ok(
    fitChain(points, true, light).segments.every((s) => s.kind !== 'L'),
    'no line in the fit',
  );
});

t.test('straightRuns: a run needs its length, and ends where the points leave the line', async (t) => {
  // 30 points along y = 5, then bending away from it (0.05 px after one step, 5 px after ten)
  const xs = Array.from({ length: 40 }, (_, i) => i);
  const ys = xs.map((x) => (x < 30 ? 5 : 5 + 0.05 * (x - 29) ** 2));
  t.same(straightRuns(xs, ys), [[0, 30]], 'the line and its first point off it, within the tolerance');
  t.same(straightRuns(xs.slice(0, 12), ys.slice(0, 12)), [], 'eleven pixels are too short to call straight');
});

t.test('straightRuns: the same runs as testing every point against every chord, on long noisy lines and gentle arcs', async (t) => {
  // The definition, point by point: a chord from..to holds when every point between lies within
  // 0.05 px of it; a run grows while it holds and is kept from 16 px.
  const plainRuns = (xs: ArrayLike<number>, ys: ArrayLike<number>): Array<[number, number]> => {
    const holds = (from: number, to: number): boolean => {
      const dx = xs[to] - xs[from],
        dy = ys[to] - ys[from];
      const len = Math.hypot(dx, dy);
      if (len < 1e-9) return false;
      for (let i = from + 1; i < to; i++) if (Math.abs((xs[i] - xs[from]) * dy - (ys[i] - ys[from]) * dx) > 0.05 * len) return false;
      return true;
    };
    const runs: Array<[number, number]> = [];
    let from = 0;
    while (from < xs.length - 2) {
      let to = from + 1;
      while (to + 1 < xs.length && holds(from, to + 1)) to++;
      if (to - from >= 2 && Math.hypot(xs[to] - xs[from], ys[to] - ys[from]) >= 16) {
        runs.push([from, to]);
        from = to;
      } else from++;
    }
    return runs;
  };
  // a deterministic pseudo-random sequence, so a failure names its case
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let longest = 0;
  for (let c = 0; c < 300; c++) {
    const angle = random() * 2 * Math.PI,
      bend = (random() - 0.5) * 0.0008,
      noise = random() * 0.04,
      step = 0.5 + random();
    const n = 40 + Math.floor(random() * 400);
    const xs = new Float64Array(n),
      ys = new Float64Array(n);
    let x = 100 * random(),
      y = 100 * random(),
      heading = angle;
    for (let i = 0; i < n; i++) {
      xs[i] = x + noise * (random() - 0.5);
      ys[i] = y + noise * (random() - 0.5);
      heading += bend;
      x += step * Math.cos(heading);
      y += step * Math.sin(heading);
    }
    const expected = plainRuns(xs, ys);
    for (const [from, to] of expected) longest = Math.max(longest, to - from);
    t.strictSame(straightRuns(xs, ys), expected, `case ${c}`);
  }
  t.ok(longest > 100, `some runs are long enough for the sleeve (longest ${longest} points)`);
});
