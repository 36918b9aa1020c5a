import t from 'tap';
import { fitBoundaryChain, type ChainFitSettings } from '../../../engine/fit/chain.js';
import { ellipseOfPath, fitEllipse } from '../../../engine/fit/ellipse.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';
import { boundaryChain, polygonChain, rasterise } from '../helpers/chains.js';
import { samplePath } from '../helpers/paths.js';

const clipart = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
const settings: ChainFitSettings = { fit: clipart.fit, guardChains: true, guardSlack: clipart.exactness.guardSlack, exactCracks: false };

t.test("a 1-bit disc's ring fits one circle within 0.25 px of its true radius", async (t) => {
  for (const [cx, cy, r] of [
    [30.5, 30.5, 6.3],
    [40, 41.3, 12],
    [60.2, 59.7, 25.5],
    [90, 90, 71.8],
  ]) {
    const chain = boundaryChain(rasterise(Math.ceil(2 * cx), Math.ceil(2 * cy), (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r));
    const path = fitBoundaryChain(chain, true, false, settings);
    t.same(
      path.segments.map((s) => s.kind),
      ['A', 'A'],
      `r=${r}: two half arcs`,
    );
    const e = ellipseOfPath(path);
    t.ok(e !== null && e.rx === e.ry, `r=${r}: a circle`);
    t.ok(Math.abs(e!.rx - r) <= 0.25, `r=${r}: radius ${e!.rx.toFixed(3)}`);
    t.ok(Math.hypot(e!.cx - cx, e!.cy - cy) <= 0.25, `r=${r}: centre off by ${Math.hypot(e!.cx - cx, e!.cy - cy).toFixed(3)}`);
    for (const p of samplePath(path, 32))
      t.ok(Math.abs(Math.hypot(p.x - cx, p.y - cy) - r) <= 0.3, `r=${r}: the drawn arcs lie on the circle`);
  }
});

t.test('an anti-aliased (sub-pixel) ring fits one circle within 0.25 px', async (t) => {
  // points where coverage crosses one half, about a pixel apart, with an 8-bit estimate's jitter
  const cx = 50.37,
    cy = 48.81,
    r = 19.6;
  const pts: number[] = [];
  const count = Math.round(2 * Math.PI * r);
  for (let k = 0; k < count; k++) {
    const a = (2 * Math.PI * k) / count,
      jitter = 0.1 * Math.sin(7.1 * k);
    pts.push(cx + (r + jitter) * Math.cos(a), cy + (r + jitter) * Math.sin(a));
  }
  const path = fitBoundaryChain(Float64Array.from(pts), true, false, settings);
  const e = ellipseOfPath(path);
  t.ok(e !== null, 'an ellipse');
  t.ok(Math.abs(e!.rx - r) <= 0.25 && Math.abs(e!.ry - r) <= 0.25, `radii ${e!.rx.toFixed(3)}, ${e!.ry.toFixed(3)}`);
});

t.test('a turned 1-bit ellipse fits one ellipse with its axes and turn', async (t) => {
  const cx = 60.4,
    cy = 50.2,
    a = 38,
    b = 17,
    turn = 0.6;
  const inside = (x: number, y: number) => {
    const dx = x - cx,
      dy = y - cy,
      u = dx * Math.cos(turn) + dy * Math.sin(turn),
      v = -dx * Math.sin(turn) + dy * Math.cos(turn);
    return (u / a) ** 2 + (v / b) ** 2 <= 1;
  };
  const path = fitBoundaryChain(boundaryChain(rasterise(121, 101, inside)), true, false, settings);
  const e = ellipseOfPath(path);
  t.ok(e !== null, 'an ellipse');
  const major = Math.max(e!.rx, e!.ry),
    minor = Math.min(e!.rx, e!.ry);
  t.ok(Math.abs(major - a) <= 0.3 && Math.abs(minor - b) <= 0.3, `axes ${major.toFixed(2)}, ${minor.toFixed(2)}`);
  const majorTurn = (e!.rx >= e!.ry ? e!.rotation : e!.rotation - 90) * (Math.PI / 180);
  const diff = Math.abs(Math.sin(majorTurn - turn));
  t.ok(diff < 0.03, `major axis turned ${((majorTurn * 180) / Math.PI).toFixed(1)}°`);
});

t.test('shapes that are not ellipses are not written as one', async (t) => {
  const square = polygonChain(60, 60, [
    [10, 10],
    [50, 10],
    [50, 50],
    [10, 50],
  ]);
  t.notOk(ellipseOfPath(fitBoundaryChain(square, true, false, settings)), 'a square');
  // a rounded square whose corners are a quarter of its side: close to round, still not an ellipse
  const rounded = (x: number, y: number) => {
    const dx = Math.max(Math.abs(x - 40) - 15, 0),
      dy = Math.max(Math.abs(y - 40) - 15, 0);
    return Math.abs(x - 40) <= 25 && Math.abs(y - 40) <= 25 && dx * dx + dy * dy <= 100;
  };
  t.notOk(ellipseOfPath(fitBoundaryChain(boundaryChain(rasterise(80, 80, rounded)), true, false, settings)), 'a rounded square');
  const blob = (x: number, y: number) => Math.hypot(x - 50, y - 50) <= 30 + 4 * Math.sin(3 * Math.atan2(y - 50, x - 50));
  t.notOk(ellipseOfPath(fitBoundaryChain(boundaryChain(rasterise(100, 100, blob)), true, false, settings)), 'a three-lobed blob');
  t.equal(fitEllipse(Float64Array.from([0, 0, 1, 0, 1, 1, 0, 1]), 1, 1), null, 'a pixel');
});
