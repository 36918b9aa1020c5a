import t from 'tap';
import { newtonParameter } from '../../../engine/fit/newton.js';

function pointAt(b: Float64Array, t: number): [number, number] {
  const s = 1 - t;
  return [
    s * s * s * b[0] + 3 * s * s * t * b[2] + 3 * s * t * t * b[4] + t * t * t * b[6],
    s * s * s * b[1] + 3 * s * s * t * b[3] + 3 * s * t * t * b[5] + t * t * t * b[7],
  ];
}

/** The step from t towards the parameter of the point of `b` nearest (x, y). */
function step(b: Float64Array, t: number, x: number, y: number): number {
  const [qx, qy] = pointAt(b, t);
  return newtonParameter(b, t, qx - x, qy - y);
}

t.test('on a straight cubic with evenly spaced controls one step lands on the foot of the perpendicular', async (t) => {
  const line = Float64Array.of(0, 0, 1, 0, 2, 0, 3, 0);
  t.ok(Math.abs(step(line, 0.2, 1.5, 0.7) - 0.5) < 1e-12, 'forwards');
  t.ok(Math.abs(step(line, 0.9, 0.6, -2) - 0.2) < 1e-12, 'backwards');
});

t.test('a parameter past either end is clamped to it', async (t) => {
  const line = Float64Array.of(0, 0, 1, 0, 2, 0, 3, 0);
  t.equal(step(line, 0.2, -5, 0), 0);
  t.equal(step(line, 0.2, 9, 1), 1);
});

t.test('on a curved cubic repeated steps reach the point whose tangent is square to the error', async (t) => {
  // about a quarter circle of radius 10 round the origin
  const arc = Float64Array.of(10, 0, 10, 5.52, 5.52, 10, 0, 10);
  const x = 9,
    y = 9;
  let u = 0.1;
  for (let i = 0; i < 8; i++) u = step(arc, u, x, y);
  t.ok(Math.abs(u - 0.5) < 1e-9, `the diagonal point's parameter, by symmetry (got ${u})`);
  const [qx, qy] = pointAt(arc, u);
  t.ok(Math.abs(qx - qy) < 1e-9, 'on the diagonal');
});

t.test('a cubic collapsed to one point has no step: the parameter stays', async (t) => {
  const dot = Float64Array.of(4, 4, 4, 4, 4, 4, 4, 4);
  t.equal(step(dot, 0.3, 7, 1), 0.3);
});
