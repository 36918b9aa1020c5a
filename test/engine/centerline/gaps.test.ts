import t from 'tap';
import { joinAcrossGaps } from '../../../engine/centerline/gaps.js';
import type { Stroke } from '../../../engine/centerline/graph.js';

const line = (x0: number, x1: number, width = 3, rgb: [number, number, number] = [0, 0, 0]): Stroke => {
  const pts: number[] = [];
  for (let x = x0; x <= x1; x++) pts.push(x, 10.5);
  return { points: Float64Array.from(pts), closed: false, width, rgb };
};

t.test('two strokes whose ends are closer than the pen is wide become one stroke', async (t) => {
  const out = joinAcrossGaps([line(0, 20), line(22, 40)]);
  t.equal(out.length, 1);
  const p = out[0].points;
  t.same(
    [p[0], p[p.length - 2]].sort((a, b) => a - b),
    [0, 40],
    'runs end to end',
  );
  t.equal(out[0].closed, false);
});

t.test('a gap wider than the pen stays a gap', async (t) => {
  t.equal(joinAcrossGaps([line(0, 20), line(24, 40)]).length, 2);
});

t.test('strokes of different colour or width are not joined', async (t) => {
  t.equal(joinAcrossGaps([line(0, 20), line(22, 40, 3, [255, 0, 0])]).length, 2);
  t.equal(joinAcrossGaps([line(0, 20, 2), line(21, 40, 6)]).length, 2);
});

t.test('a chain of three joins in order, and a stroke never closes on itself', async (t) => {
  const out = joinAcrossGaps([line(22, 40), line(0, 20), line(42, 60)]);
  t.equal(out.length, 1);
  const p = out[0].points;
  for (let k = 2; k < p.length; k += 2) t.ok(Math.abs(p[k] - p[k - 2]) <= 2, 'monotone walk, no jump back');
  // A ring-like stroke whose own ends nearly meet stays open here.
  const hook: Stroke = { points: Float64Array.from([0, 0, 10, 0, 10, 10, 0, 10, 0, 1]), closed: false, width: 3, rgb: [0, 0, 0] };
  t.equal(joinAcrossGaps([hook])[0].closed, false);
});

t.test('a dot at a line end joins it', async (t) => {
  const dot: Stroke = { points: Float64Array.from([42, 10.5]), closed: false, width: 3, rgb: [0, 0, 0] };
  const out = joinAcrossGaps([line(0, 40), dot]);
  t.equal(out.length, 1);
  t.equal(out[0].points.length, 41 * 2 + 2);
});
