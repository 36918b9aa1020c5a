import t from 'tap';
import { penUpTravel, plotterOrder, reverseChain, writtenOrder } from '../../../engine/centerline/order.js';
import type { FittedChain } from '../../../engine/centerline/fit.js';
import { renderDocument, vectorize } from '../../../engine/index.js';
import { svgStats } from '../../../app/renderer/svg-stats.js';
import { mismatch, png, raster, render } from '../helpers/images.js';

type Stroke = { paint: string; width: number; chain: FittedChain };

const line = (x0: number, y0: number, x1: number, y1: number, paint = '#000'): Stroke => ({
  paint,
  width: 2,
  chain: { startX: x0, startY: y0, segments: [{ kind: 'L', x: x1, y: y1 }], closed: false },
});

t.test('a reversed chain runs through the same points the other way, curves with swapped handles', async (t) => {
  const chain: FittedChain = {
    startX: 0,
    startY: 0,
    segments: [
      { kind: 'L', x: 10, y: 0 },
      { kind: 'C', x1: 12, y1: 0, x2: 14, y2: 2, x: 14, y: 5 },
    ],
    closed: false,
  };
  const reversed = reverseChain(chain);
  t.same(reversed, {
    startX: 14,
    startY: 5,
    segments: [
      { kind: 'C', x1: 14, y1: 2, x2: 12, y2: 0, x: 10, y: 0 },
      { kind: 'L', x: 0, y: 0 },
    ],
    closed: false,
  });
  t.same(reverseChain(reversed), chain, 'twice is the original');
});

t.test('plotter order: nearest end next, reversed where its end is nearer, never more travel', async (t) => {
  // traced far, near, middle; the pen should go near → middle → far
  const strokes = [line(100, 0, 110, 0), line(0, 1, 5, 1), line(60, 3, 50, 3)];
  const ordered = plotterOrder(strokes);
  t.same(
    ordered.map((s) => [s.chain.startX, s.chain.startY]),
    [
      [0, 1],
      [50, 3],
      [100, 0],
    ],
    'order by nearest end; the middle stroke is entered from its end',
  );
  t.ok(penUpTravel(ordered) < penUpTravel(strokes) / 2, `${penUpTravel(ordered)} < half of ${penUpTravel(strokes)}`);
});

t.test('strokes meeting end to end are joined; one drawn twice (either way) is drawn once', async (t) => {
  const strokes = [line(0, 0, 10, 0), line(20, 0, 10, 0), line(10, 0, 20, 0), line(0, 0, 10, 0)];
  const ordered = plotterOrder(strokes);
  t.equal(ordered.length, 1, 'one path');
  t.same(
    ordered[0].chain.segments.map((s) => [s.x, s.y]),
    [
      [10, 0],
      [20, 0],
    ],
  );
  t.equal(penUpTravel(ordered), 0);
});

t.test('each colour and width stays its own group (a pen change), groups in the order they first appear', async (t) => {
  const strokes = [line(50, 0, 60, 0, '#f00'), line(0, 0, 5, 0, '#00f'), line(60, 0, 70, 0, '#f00')];
  const ordered = plotterOrder(strokes);
  t.same(
    ordered.map((s) => s.paint),
    ['#f00', '#00f'],
    'red joined into one path, then blue',
  );
  t.same(
    writtenOrder(strokes).map((g) => g.map((s) => s.paint)),
    [['#f00', '#f00'], ['#00f']],
  );
});

t.test('stroke_order=plotter on a traced drawing: less than half the pen-up travel, the same ink, stats of the SVG', async (t) => {
  // short dashes scattered over the page: the trace finds them row by row, a plotter wants them nearby
  const dashes = raster(200, 160, (x, y) => {
    const cell = Math.floor(x / 20) + 10 * Math.floor(y / 20);
    const ox = (cell * 7) % 11,
      oy = (cell * 5) % 9;
    const u = (x % 20) - ox,
      v = (y % 20) - oy;
    return u >= 0 && u < 8 && v >= 2 && v < 4 ? [0, 0, 0] : [255, 255, 255];
  });
  const traced = await vectorize(await png(dashes), { imageType: 'blueprint', traceStyle: 'centerline' });
  const unordered = renderDocument(traced.document, { strokeOrder: 'none' });
  const ordered = renderDocument(traced.document, { strokeOrder: 'plotter' });
  t.equal(unordered.svg, traced.svg, 'stroke_order=none is the trace');
  const { penUpBefore = 0, penUpAfter = Infinity } = ordered.stats;
  t.ok(penUpAfter <= penUpBefore / 2, `pen-up ${penUpBefore} → ${penUpAfter} px`);
  t.equal(unordered.stats.penUpAfter, unordered.stats.penUpBefore, 'unordered: as traced');
  t.equal(mismatch(render(ordered.svg, 200), render(unordered.svg, 200), 8), 0, 'the same ink');
  const counted = svgStats(ordered.svg);
  t.equal(ordered.stats.nodes, counted.nodes);
  t.equal(ordered.stats.paths, counted.paths);
});
