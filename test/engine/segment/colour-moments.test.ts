import t from 'tap';
import { addShifted, MOMENTS, surfaceResidual } from '../../../engine/segment/colour-moments.js';
import { addRun } from '../helpers/colour-moments.js';

type Colour = (x: number, y: number) => [number, number, number];

/** The sums of the pixels (x, y) of `rows` (each [y, x0, x1)), about (refX, refY), one run per row. */
function sumsOf(rows: Array<[number, number, number]>, colour: Colour, refX: number, refY: number): Float64Array {
  const sums = new Float64Array(MOMENTS);
  for (const [y, x0, x1] of rows) {
    const data = new Uint8Array(3 * (x1 - x0));
    for (let x = x0; x < x1; x++) data.set(colour(x, y), 3 * (x - x0));
    addRun(sums, 0, x0 - refX, y - refY, x1 - x0, data, 3, 0);
  }
  return sums;
}

/** A disc-ish blob: rows of varying extent around (cx, cy). */
function blob(cx: number, cy: number, radius: number): Array<[number, number, number]> {
  const rows: Array<[number, number, number]> = [];
  for (let y = cy - radius; y <= cy + radius; y++) {
    const half = Math.round(Math.sqrt(radius * radius - (y - cy) ** 2));
    rows.push([y, cx - half, cx + half + 1]);
  }
  return rows;
}

/** A smooth cubic colour field (no 8-bit rounding). */
const cubicField: Colour = (x, y) => {
  const u = (x - 40) / 20,
    v = (y - 30) / 20;
  return [100 + 40 * u + 20 * v * v - 10 * u * u * u, 120 + 30 * u * v, 80 + 25 * v + 15 * u * u];
};

/** The field in whole 8-bit levels, as an image holds it. */
const rounded: Colour = (x, y) => cubicField(x, y).map(Math.round) as [number, number, number];

t.test('a cubic ramp over an irregular shape is painted to within its 8-bit rounding', async (t) => {
  const residual = surfaceResidual(sumsOf(blob(40, 30, 18), rounded, 40, 12), 0, 16);
  // rounding to whole levels leaves at most 0.5 per channel, about 0.5 RGB distance in RMS
  t.ok(residual < 0.6, `residual ${residual.toFixed(3)}`);
});

t.test('a pattern no smooth surface follows keeps its whole spread as residual', async (t) => {
  // a checkerboard of ±6 on every channel around grey: RMS distance 6·√3
  const checker: Colour = (x, y) => ((x + y) % 2 ? [134, 134, 134] : [122, 122, 122]);
  const residual = surfaceResidual(sumsOf(blob(30, 30, 20), checker, 30, 10), 0, 16);
  t.ok(Math.abs(residual - 6 * Math.sqrt(3)) < 0.1, `residual ${residual.toFixed(3)}`);
});

t.test('two sets summed about their own reference pixels join into the sums of their union', async (t) => {
  const upper = blob(40, 20, 9),
    lower = blob(46, 38, 7);
  const joined = sumsOf(upper, rounded, 40, 11);
  addShifted(joined, 0, sumsOf(lower, rounded, 46, 31), 0, 46 - 40, 31 - 11);
  const direct = sumsOf([...upper, ...lower], rounded, 40, 11);
  for (let k = 0; k < MOMENTS; k++) t.ok(Math.abs(joined[k] - direct[k]) <= 1e-9 * Math.max(1, Math.abs(direct[k])), `sum ${k}`);
  t.ok(Math.abs(surfaceResidual(joined, 0, 16) - surfaceResidual(direct, 0, 16)) < 1e-6);
  // and the union is painted as one smooth field, to within its rounding
  t.ok(surfaceResidual(joined, 0, 16) < 0.6);
});

t.test('two flat fills side by side are not one smooth field', async (t) => {
  const step: Colour = (x) => (x < 30 ? [120, 120, 120] : [150, 150, 150]);
  const rows: Array<[number, number, number]> = Array.from({ length: 20 }, (_, y) => [y, 20, 40]);
  t.ok(surfaceResidual(sumsOf(rows, step, 20, 0), 0, 16) > 5);
});

t.test('a one-pixel-wide line: the terms across it drop out, the ramp along it fits', async (t) => {
  const rows: Array<[number, number, number]> = Array.from({ length: 40 }, (_, y) => [y, 7, 8]);
  const residual = surfaceResidual(
    sumsOf(rows, (_, y) => [50 + 4 * y, 60, 70], 7, 0),
    0,
    16,
  );
  t.ok(Number.isFinite(residual) && residual < 1e-4, `residual ${residual}`);
});

t.test('fewer pixels than asked for: no judgement', async (t) => {
  t.equal(surfaceResidual(sumsOf([[0, 0, 10]], cubicField, 0, 0), 0, 16), Infinity);
});
