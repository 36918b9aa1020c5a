import t from 'tap';
import { fitBoundaryChain, simplifiedPolyline, type ChainFitSettings } from '../../../engine/fit/chain.js';
import type { FittedPath } from '../../../engine/fit/index.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { DEFAULT_TRACE_OPTIONS, type ImageClass } from '../../../engine/types.js';
import { boundaryChain, polygonContains, rasterise } from '../helpers/chains.js';
import { distanceToPolyline, samplePath } from '../helpers/paths.js';

/** The chain settings a trace of that class uses (guarded, as drawn shapes and line art are). */
function chainSettings(mode: ImageClass): ChainFitSettings {
  const s = engineSettingsFor(DEFAULT_TRACE_OPTIONS, mode);
  return { fit: s.fit, guardChains: s.exactness.guardChains, guardSlack: s.exactness.guardSlack, exactCracks: s.exactness.exactCracks };
}

/** Longest run of consecutive unit-length axis-aligned lines: a pixel staircase. */
function longestStaircase(path: FittedPath): number {
  let x = path.start.x,
    y = path.start.y,
    run = 0,
    longest = 0;
  for (const s of path.segments) {
    const unit = s.kind === 'L' && ((Math.abs(s.x - x) === 1 && s.y === y) || (Math.abs(s.y - y) === 1 && s.x === x));
    run = unit ? run + 1 : 0;
    longest = Math.max(longest, run);
    x = s.x;
    y = s.y;
  }
  return longest;
}

/**
 * The crack chain between two regions split by the line through (x0,y0) at `angle`: the pixel-centre test, walked as an
 * open chain across a w×h window.
 */
function digitalEdge(w: number, h: number, angleDeg: number): Float64Array {
  const a = (angleDeg * Math.PI) / 180,
    nx = -Math.sin(a),
    ny = Math.cos(a);
  const cx = w / 2 + 0.31,
    cy = h / 2 + 0.17;
  const mask = rasterise(w, h, (x, y) => (x - cx) * nx + (y - cy) * ny > 0 && x > 2 && y > 2 && x < w - 2 && y < h - 2);
  // the blob's boundary, cut to the part along the slanted edge (away from the window's sides)
  const ring = boundaryChain(mask);
  const keep: number[] = [];
  let best: number[] = [];
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i],
      y = ring[i + 1];
    const onEdge = Math.abs((x - cx) * nx + (y - cy) * ny) < 1.5 && x > 4 && y > 4 && x < w - 4 && y < h - 4;
    if (onEdge) keep.push(x, y);
    else {
      if (keep.length > best.length) best = keep.slice();
      keep.length = 0;
    }
  }
  if (keep.length > best.length) best = keep.slice();
  return Float64Array.from(best);
}

t.test('a 1-bit straight edge at any angle fits one line', async (t) => {
  for (const mode of ['clipart', 'blueprint'] as const) {
    for (const angle of [0, 7, 18.4, 26.6, 33, 45, 52, 63.4, 71, 84, 90, 117, 135, 160]) {
      const chain = digitalEdge(80, 80, angle);
      t.ok(chain.length >= 40, `${angle}°: an edge of ${chain.length / 2} points`);
      const path = fitBoundaryChain(chain, false, false, chainSettings(mode));
      t.equal(path.segments.length, 1, `${mode} ${angle}°: ${path.segments.length} segment(s)`);
      t.equal(path.segments[0].kind, 'L', `${mode} ${angle}°: a line`);
    }
  }
});

t.test('an anti-aliased (sub-pixel) straight edge at any angle fits one line', async (t) => {
  // where coverage crosses one half: points on the true line, one per pixel column or row, with the
  // few-hundredths jitter that estimating coverage from 8-bit values leaves
  for (const angle of [3, 15, 30, 45, 60, 75, 88, 100, 150]) {
    const a = (angle * Math.PI) / 180,
      dx = Math.cos(a),
      dy = Math.sin(a);
    const pts: number[] = [];
    for (let i = 0; i <= 60; i++) {
      const jitter = 0.08 * Math.sin(i * 2.3);
      pts.push(10.4 + i * dx - jitter * dy, 12.7 + i * dy + jitter * dx);
    }
    const path = fitBoundaryChain(Float64Array.from(pts), false, false, chainSettings('clipart'));
    t.same(
      path.segments.map((s) => s.kind),
      ['L'],
      `${angle}°: one line`,
    );
  }
});

t.test('a square keeps four sharp corners, axis-aligned or turned', async (t) => {
  for (const turn of [0, 20, 37]) {
    const a = (turn * Math.PI) / 180,
      c = 40.3,
      h = 22;
    const corners: Array<[number, number]> = [
      [-h, -h],
      [h, -h],
      [h, h],
      [-h, h],
    ].map(([x, y]) => [c + x * Math.cos(a) - y * Math.sin(a), c + x * Math.sin(a) + y * Math.cos(a)]);
    const chain = boundaryChain(rasterise(81, 81, polygonContains(corners)));
    const path = fitBoundaryChain(chain, true, false, chainSettings('clipart'));
    t.equal(path.segments.length, 4, `${turn}°: four segments`);
    t.ok(
      path.segments.every((s) => s.kind === 'L'),
      `${turn}°: all straight`,
    );
    for (const s of path.segments) {
      const off = Math.min(...corners.map(([x, y]) => Math.hypot(s.x - x, s.y - y)));
      t.ok(off < 1, `${turn}°: vertex ${off.toFixed(2)} px from a true corner`);
    }
  }
});

t.test('a 1-bit round blob traces to curves, not stairs', async (t) => {
  // a wobbly (non-elliptic) round shape: the curve fitter, not the ellipse, has to do it
  const blob = (x: number, y: number) => {
    const dx = x - 50,
      dy = y - 50,
      r = Math.hypot(dx, dy),
      th = Math.atan2(dy, dx);
    return r <= 30 + 5 * Math.sin(3 * th);
  };
  for (const mode of ['clipart', 'scan', 'blueprint'] as const) {
    const path = fitBoundaryChain(boundaryChain(rasterise(100, 100, blob)), true, false, chainSettings(mode));
    t.ok(path.segments.filter((s) => s.kind === 'C').length >= 3, `${mode}: curves`);
    t.ok(path.segments.length <= 24, `${mode}: ${path.segments.length} segments`);
    t.ok(longestStaircase(path) <= 1, `${mode}: no pixel staircase`);
  }
});

t.test('a thin 1-px diagonal line in line art stays within its guard and is not written as stairs', async (t) => {
  // a long 1-px stroke at a steep angle (the lego drawing's kind): two sides a pixel apart
  const stroke = (x: number, y: number) => Math.abs((x - 10) * 0.894 - (y - 5) * 0.447) <= 0.75 && y > 5 && y < 95;
  const chain = boundaryChain(rasterise(60, 100, stroke));
  const settings = chainSettings('blueprint');
  const path = fitBoundaryChain(chain, true, false, settings);
  t.ok(longestStaircase(path) <= 3, `longest unit-step run ${longestStaircase(path)}`);
  t.ok(path.segments.length < chain.length / 2 / 4, `${path.segments.length} segments for ${chain.length / 2} cracks`);
  // every crack corner stays near the fit (the guard's promise)
  const samples = samplePath(path, 16);
  samples.push(path.start);
  const limit = settings.fit.tolerance + settings.guardSlack;
  let worst = 0;
  for (let i = 0; i < chain.length; i += 2) worst = Math.max(worst, distanceToPolyline(chain[i], chain[i + 1], samples));
  t.ok(worst <= limit, `worst crack distance ${worst.toFixed(2)} px (limit ${limit})`);
});

t.test('exactCracks (true pixel art) writes the crack polyline', async (t) => {
  const chain = boundaryChain(rasterise(40, 40, (x, y) => (x - 20) ** 2 + (y - 20) ** 2 < 100));
  const path = fitBoundaryChain(chain, true, false, { ...chainSettings('clipart'), exactCracks: true });
  t.ok(
    path.segments.every((s) => s.kind === 'L' && Number.isInteger(s.x) && Number.isInteger(s.y)),
    'on pixel corners',
  );
  t.ok(longestStaircase(path) >= 2, 'the pixel steps are kept');
});

t.test('a simplified polyline keeps only the vertices it needs and stays within its tolerance', async (t) => {
  // the sub-pixel points of a 1-px diagonal line (one point a crack, moved by the coverage): out
  // along one side of a thin sliver, back along the other, each side wobbling by a quarter pixel
  const points: number[] = [];
  for (let i = 0; i < 20; i++) points.push(i + 0.5, i, i + 1.25, i + 0.5);
  for (let i = 20; i > 0; i--) points.push(i, i + 1, i - 0.75, i + 0.5);
  const ring = Float64Array.from(points);
  const path = simplifiedPolyline(ring, true, 0.5);
  t.ok(path.segments.length <= 6, `a few lines, not the stairs (${path.segments.length})`);
  t.equal(longestStaircase(path), 0);
  const line = samplePath(path);
  let worst = 0;
  for (let i = 0; i < ring.length; i += 2) worst = Math.max(worst, distanceToPolyline(ring[i], ring[i + 1], line));
  t.ok(worst <= 0.5 + 1e-9, `every point within half a pixel (${worst.toFixed(3)})`);
  const open = simplifiedPolyline(Float64Array.from([0, 0, 1, 0.1, 2, 0, 3, 2, 4, 4]), false, 0.5);
  t.same(
    open,
    {
      start: { x: 0, y: 0 },
      segments: [
        { kind: 'L', x: 2, y: 0 },
        { kind: 'L', x: 4, y: 4 },
      ],
    },
    'an open chain keeps its ends and its corner',
  );
});

t.test('line art: a dot of a few pixels is drawn round, a short dash of the same size is not', async (t) => {
  const dot = boundaryChain(rasterise(20, 20, (x, y) => Math.hypot(x - 10, y - 10) <= 2.4));
  const path = fitBoundaryChain(dot, true, false, chainSettings('scan'));
  t.same(
    path.segments.map((s) => s.kind),
    ['A', 'A'],
    'two half-ellipse arcs',
  );
  const arc = path.segments[0] as Extract<FittedPath['segments'][number], { kind: 'A' }>;
  t.ok(
    Math.abs(arc.rx - arc.ry) < 0.3 && Math.abs(Math.PI * arc.rx * arc.ry - 16) < 2,
    `a circle of the dot's area (rx ${arc.rx.toFixed(2)}, ry ${arc.ry.toFixed(2)})`,
  );
  const dash = boundaryChain(rasterise(20, 20, (x, y) => x >= 5 && x < 13 && y >= 9 && y < 11));
  t.notOk(
    fitBoundaryChain(dash, true, false, chainSettings('scan')).segments.some((s) => s.kind === 'A'),
    'an 8 x 2 dash keeps its corners',
  );
});
