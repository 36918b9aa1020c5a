import t from 'tap';
import { fadeToBeneath, fitGradient, paintResidual } from '../../../engine/fit/gradient.js';
import type { RgbaImage } from '../../../engine/types.js';

function image(width: number, height: number, colour: (x: number, y: number) => [number, number, number]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colour(x + 0.5, y + 0.5);
      const i = 4 * (y * width + x);
      data[i] = Math.round(Math.max(0, Math.min(255, r)));
      data[i + 1] = Math.round(Math.max(0, Math.min(255, g)));
      data[i + 2] = Math.round(Math.max(0, Math.min(255, b)));
      data[i + 3] = 255;
    }
  return { width, height, data };
}

const all = (w: number, h: number) => Int32Array.from({ length: w * h }, (_, i) => i);
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Deterministic noise in [-1, 1]. */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

t.test('a synthetic linear ramp is recovered: direction and end colours', async (t) => {
  // red → blue along a 30° direction over an 80×60 region
  const w = 80,
    h = 60,
    angle = Math.PI / 6,
    dx = Math.cos(angle),
    dy = Math.sin(angle);
  const proj = (x: number, y: number) => x * dx + y * dy;
  const lo = proj(0, 0),
    hi = proj(w, h);
  const start = [220, 40, 30],
    end = [30, 60, 200];
  const img = image(w, h, (x, y) => {
    const f = (proj(x, y) - lo) / (hi - lo);
    return [0, 1, 2].map((c) => start[c] + f * (end[c] - start[c])) as [number, number, number];
  });
  const fill = fitGradient(img, all(w, h), { maxResidual: 6 });
  t.ok(fill, 'a gradient is returned');
  if (!fill || fill.type !== 'linear') return t.fail(`expected linear, got ${fill?.type}`);
  const fx = fill.x2 - fill.x1,
    fy = fill.y2 - fill.y1,
    len = Math.hypot(fx, fy);
  t.ok(Math.abs((fx * dx + fy * dy) / len) > Math.cos((3 * Math.PI) / 180), 'direction within 3°');
  t.ok(fill.stops.length >= 2 && fill.stops.length <= 4, `${fill.stops.length} stops`);
  // the colours at the gradient's ends match the ramp at the same points
  const at = (x: number, y: number) => {
    const f = Math.max(0, Math.min(1, (proj(x, y) - lo) / (hi - lo)));
    return [0, 1, 2].map((c) => start[c] + f * (end[c] - start[c]));
  };
  t.ok(dist(rgb(fill.stops[0].color), at(fill.x1, fill.y1)) < 12, `start colour ${fill.stops[0].color}`);
  t.ok(
    dist(rgb(fill.stops[fill.stops.length - 1].color), at(fill.x2, fill.y2)) < 12,
    `end colour ${fill.stops[fill.stops.length - 1].color}`,
  );
  t.equal(fill.stops[0].offset, 0);
  t.equal(fill.stops[fill.stops.length - 1].offset, 1);
});

t.test('a radial ramp is fitted as radial, centred where it was made', async (t) => {
  const w = 90,
    h = 90,
    cx = 40,
    cy = 50;
  const img = image(w, h, (x, y) => {
    const f = Math.min(1, Math.hypot(x - cx, y - cy) / 60);
    return [250 - 200 * f, 240 - 180 * f, 60 + 100 * f];
  });
  const fill = fitGradient(img, all(w, h), { maxResidual: 6 });
  if (!fill || fill.type !== 'radial') return t.fail(`expected radial, got ${fill?.type}`);
  t.ok(Math.hypot(fill.cx - cx, fill.cy - cy) < 3, `centre (${fill.cx}, ${fill.cy})`);
  t.ok(dist(rgb(fill.stops[0].color), [250, 240, 60]) < 15, `centre colour ${fill.stops[0].color}`);
});

t.test('a quarter ring of a cone-shaded ramp: radial around the true centre, its stops over the radii it covers', async (t) => {
  // colour linear in the distance from (10, 10); the region is the ring 40..52 px out, one quadrant
  const w = 70,
    h = 70,
    cx = 10,
    cy = 10;
  const img = image(w, h, (x, y) => {
    const f = Math.hypot(x - cx, y - cy) / 60;
    return [250 - 200 * f, 240 - 180 * f, 60 + 100 * f];
  });
  const ring: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      if (d >= 40 && d < 52) ring.push(y * w + x);
    }
  const fill = fitGradient(img, Int32Array.from(ring), { maxResidual: 1 });
  if (!fill || fill.type !== 'radial') return t.fail(`expected radial, got ${fill?.type}`);
  t.ok(Math.hypot(fill.cx - cx, fill.cy - cy) < 2, `centre (${fill.cx}, ${fill.cy})`);
  t.ok(fill.stops[0].offset > 0.7, `the first stop sits at the ring's inner radius (${fill.stops[0].offset})`);
  const inner = [250 - (200 * 40) / 60, 240 - (180 * 40) / 60, 60 + (100 * 40) / 60];
  t.ok(dist(rgb(fill.stops[0].color), inner) < 8, `inner colour ${fill.stops[0].color}`);
});

t.test('elliptical rings are fitted as an ellipse: centre, the long axis turned, the axes in proportion', async (t) => {
  const w = 100,
    h = 80,
    cx = 52.4,
    cy = 38.7,
    along = 40,
    across = 16,
    turn = (25 * Math.PI) / 180;
  const img = image(w, h, (x, y) => {
    const u = (x - cx) * Math.cos(turn) + (y - cy) * Math.sin(turn),
      v = -(x - cx) * Math.sin(turn) + (y - cy) * Math.cos(turn);
    const f = Math.hypot(u / along, v / across);
    return [50 + 100 * f, 40 + 110 * f, 60 + 90 * f];
  });
  const fill = fitGradient(img, all(w, h), { maxResidual: 1 });
  if (!fill || fill.type !== 'radial' || !fill.ellipse)
    return t.fail(`expected an elliptical radial gradient, got ${JSON.stringify(fill)}`);
  t.ok(Math.hypot(fill.cx - cx, fill.cy - cy) < 0.5, `centre (${fill.cx}, ${fill.cy})`);
  t.ok(Math.abs(fill.ellipse.angle - 25) < 2, `long axis at ${fill.ellipse.angle}°`);
  t.ok(Math.abs(fill.ellipse.ratio - across / along) < 0.03, `axes ${fill.ellipse.ratio}`);
});

t.test('a round ramp stays a circle: no ellipse for rings that are round', async (t) => {
  const img = image(80, 80, (x, y) => {
    const f = Math.min(1, Math.hypot(x - 41, y - 37) / 45);
    return [250 - 200 * f, 240 - 180 * f, 60 + 100 * f];
  });
  const fill = fitGradient(img, all(80, 80), { maxResidual: 1 });
  if (!fill || fill.type !== 'radial') return t.fail(`expected radial, got ${fill?.type}`);
  t.equal(fill.ellipse, undefined);
});

t.test('a ramp towards the colour beneath fades one colour to transparent; any other ramp is left', async (t) => {
  const ground = '#eaefe0';
  // 30 % and 70 % of the way from the ground to #40404a
  const mixed = (share: number) =>
    '#' +
    [0xea + share * (0x40 - 0xea), 0xef + share * (0x40 - 0xef), 0xe0 + share * (0x4a - 0xe0)]
      .map((v) => Math.round(v).toString(16).padStart(2, '0'))
      .join('');
  const shadow = {
    type: 'radial' as const,
    cx: 20,
    cy: 30,
    r: 10,
    stops: [
      { offset: 0, color: '#40404a' },
      { offset: 0.5, color: mixed(0.7) },
      { offset: 1, color: mixed(0.3) },
    ],
  };
  const faded = fadeToBeneath(shadow, ground);
  if (!faded || faded.type !== 'radial') return t.fail('expected a fade');
  t.ok(
    faded.stops.every((stop) => stop.color === '#40404a'),
    'one colour',
  );
  // (the mixed stops are rounded to whole levels, so the shares come back within a hundredth)
  const near = (got: number[], want: number[], within: number) =>
    got.length === want.length && got.every((v, i) => Math.abs(v - want[i]) <= within);
  const opacities = faded.stops.map((stop) => stop.opacity ?? 1);
  t.ok(near(opacities, [1, 0.7, 0.3, 0], 0.01), `opacity falls to 0: ${opacities}`);
  // 0.7 at 0.5 and 0.3 at 1 reach 0 at 1.375 of the old radius
  t.ok(Math.abs(faded.r - 13.75) < 0.1, `radius ${faded.r}`);
  const offsets = faded.stops.map((stop) => stop.offset);
  t.ok(near(offsets, [0, 0.364, 0.727, 1], 0.005), `offsets ${offsets}`);
  t.equal(fadeToBeneath({ ...shadow, stops: [shadow.stops[0], { offset: 1, color: '#ff0000' }] }, ground), null, 'not towards the ground');
  t.equal(
    fadeToBeneath({ ...shadow, stops: [shadow.stops[0], { offset: 1, color: mixed(0.6) }] }, ground),
    null,
    'ends far from the ground',
  );
});

t.test('only the given pixels count', async (t) => {
  // left half ramps, right half is a different flat colour that must not leak into the fit
  const w = 60,
    h = 40;
  const img = image(w, h, (x) => (x < 30 ? [x * 8, 100, 100] : [0, 255, 0]));
  const left = Int32Array.from({ length: 30 * h }, (_, i) => Math.floor(i / 30) * w + (i % 30));
  const fill = fitGradient(img, left, { maxResidual: 6 });
  if (!fill || fill.type !== 'linear') return t.fail('expected linear');
  for (const stop of fill.stops) t.ok(rgb(stop.color)[1] < 130, `stop ${stop.color} has no green from outside`);
});

t.test('a flat region gives null', async (t) => {
  const img = image(50, 50, () => [120, 130, 140]);
  t.equal(fitGradient(img, all(50, 50), { maxResidual: 6 }), null);
});

t.test('a noisy region without a ramp gives null', async (t) => {
  const rnd = noise(7);
  const img = image(60, 60, () => [128 + 40 * rnd(), 100 + 40 * rnd(), 90 + 40 * rnd()]);
  t.equal(fitGradient(img, all(60, 60), { maxResidual: 6 }), null);
});

t.test('a ramp too weak to see gives null', async (t) => {
  const img = image(60, 60, (x) => [100 + x * 0.08, 100, 100]);
  t.equal(fitGradient(img, all(60, 60), { maxResidual: 1 }), null);
});

t.test('a ramp within the allowed residual of a flat fill gives null', async (t) => {
  const img = image(60, 60, (x) => [100 + x * 0.3, 100, 100]);
  t.equal(fitGradient(img, all(60, 60), { maxResidual: 10 }), null);
});

t.test('a tiny region gives null', async (t) => {
  const img = image(4, 2, (x) => [x * 60, 0, 0]);
  t.equal(fitGradient(img, all(4, 2), { maxResidual: 1 }), null);
});

t.test('paintResidual with a bound: the exact residual at or under it, a number above it otherwise', async (t) => {
  // a noisy ramp a gradient paints (the flat fill does not): its residual is the noise's
  const w = 80,
    h = 60;
  const jitter = noise(7);
  const img = image(w, h, (x) => [40 + 2 * x + 3 * jitter(), 200 - x + 3 * jitter(), 90 + 3 * jitter()]);
  const settings = { maxResidual: 6 };
  const fill = fitGradient(img, all(w, h), settings);
  const exact = paintResidual(img, all(w, h), settings);
  t.ok(exact > 1 && exact < 5, `a gradient paints it to ${exact.toFixed(2)}`);
  t.equal(paintResidual(img, all(w, h), settings, exact), exact, 'a bound at the residual: exact');
  t.equal(paintResidual(img, all(w, h), settings, exact + 0.5), exact, 'a bound above it: exact');
  for (const bound of [exact / 2, exact - 0.01]) {
    t.ok(paintResidual(img, all(w, h), settings, bound) > bound, `a bound of ${bound.toFixed(2)}: above it`);
  }
  t.same(fitGradient(img, all(w, h), settings), fill, 'the fill after bounded calls is the one before them');
});
