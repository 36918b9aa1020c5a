/**
 * Chains with sub-pixel points are fitted to the points themselves (engine/fit/data-fit.ts).
 */
import t from 'tap';
import { fitChain, fitSettingsFor } from '../../../engine/fit/index.js';
import { boundaryChain, rasterise } from '../helpers/chains.js';
import { distanceToPolyline, samplePath } from '../helpers/paths.js';

/** Points about a pixel apart along r(θ) = radius·(1 + bulge·sin(lobes·θ)), each off it by a deterministic ±0.03 px. */
function blobPoints(cx: number, cy: number, radius: number, bulge: number, lobes: number): Float64Array {
  const out: number[] = [];
  const steps = Math.round(2 * Math.PI * radius);
  for (let i = 0; i < steps; i++) {
    const angle = (2 * Math.PI * i) / steps;
    const r = radius * (1 + bulge * Math.sin(lobes * angle)) + 0.03 * Math.sin(i * 2.7);
    out.push(cx + r * Math.cos(angle), cy + r * Math.sin(angle));
  }
  return Float64Array.from(out);
}

const strong = { ...fitSettingsFor('strong'), followEdges: true };

t.test('a smooth blob of sub-pixel points: the fit follows them within the tolerance, with few cubics', async (t) => {
  for (const [radius, bulge, lobes] of [
    [40, 0.15, 3],
    [25, 0.2, 4],
  ]) {
    const points = blobPoints(60.3, 59.6, radius, bulge, lobes);
    const fit = fitChain(points, true, strong);
    const line = samplePath(fit, 48);
    let worst = 0;
    for (let i = 0; i < points.length; i += 2) worst = Math.max(worst, distanceToPolyline(points[i], points[i + 1], line));
    // the polygon-and-rounding fit strays about a pixel from these points
    t.ok(worst <= 0.4, `r=${radius}: the fit stays within ${worst.toFixed(2)} px of the points`);
    t.ok(fit.segments.length <= 12, `r=${radius}: ${fit.segments.length} segments`);
    t.ok(
      fit.segments.every((s) => s.kind === 'C'),
      `r=${radius}: curves only`,
    );
  }
});

t.test('a square of sub-pixel points with blurred corners keeps four sharp corners and straight sides', async (t) => {
  const corners: Array<[number, number]> = [
    [10.3, 10.6],
    [40.7, 10.6],
    [40.7, 41.2],
    [10.3, 41.2],
  ];
  const out: number[] = [];
  for (let k = 0; k < 4; k++) {
    const [ax, ay] = corners[k],
      [bx, by] = corners[(k + 1) % 4];
    const length = Math.hypot(bx - ax, by - ay);
    for (let s = 0.5; s < length; s += 1) {
      // anti-aliasing cuts a corner: the points within a pixel of it move inwards
      const inset = Math.max(0, 1 - Math.min(s, length - s)) * 0.4;
      const x = ax + ((bx - ax) * s) / length,
        y = ay + ((by - ay) * s) / length;
      out.push(x + (x < 25 ? inset : -inset) * (k % 2 === 0 ? 0 : 1), y + (y < 25 ? inset : -inset) * (k % 2 === 0 ? 1 : 0));
    }
  }
  const fit = fitChain(Float64Array.from(out), true, strong);
  t.equal(fit.segments.length, 4, 'four sides');
  t.ok(
    fit.segments.every((s) => s.kind === 'L'),
    'all straight',
  );
  for (const s of fit.segments) {
    const near = Math.min(...corners.map(([x, y]) => Math.hypot(s.x - x, s.y - y)));
    t.ok(near <= 0.25, `a corner within ${near.toFixed(2)} px of the true one`);
  }
});

t.test('a hard edge (points on the pixel cracks) is fitted as before: its staircase is smoothed', async (t) => {
  const points = boundaryChain(rasterise(60, 60, (x, y) => Math.hypot(x - 30.2, y - 29.7) < 18.4));
  t.same(fitChain(points, true, strong), fitChain(points, true, fitSettingsFor('strong')), 'the same fit with or without followEdges');
});
