import t from 'tap';
import { pathOutline, pathPolygons, windingAt } from '../../../engine/svg/path-data.js';
import { countPathSegments } from '../../../app/renderer/svg-stats.js';
import { vectorize } from '../../../engine/index.js';
import { png, testCard } from '../helpers/images.js';

t.test('a square with a square hole: nodes, bounding box and the area between', async (t) => {
  // outer clockwise, inner counter-clockwise: the hole is subtracted by winding
  const outline = pathOutline('M0 0h10v10h-10zm2 2v6h6v-6z');
  t.same(outline, { nodes: 10, minX: 0, minY: 0, maxX: 10, maxY: 10, area: 64 });
});

t.test('implicit repetition, squeezed numbers and absolute commands', async (t) => {
  t.same(pathOutline('M1.5.5l1 0 0 1-1 0z'), { nodes: 5, minX: 1.5, minY: 0.5, maxX: 2.5, maxY: 1.5, area: 1 });
  t.equal(pathOutline('M0 0C0 5 10 5 10 0L10-4a2 2 0 0 1-4 0z').nodes, 5);
  t.equal(pathOutline('').nodes, 0);
});

t.test('nodes as the page and the benchmark count them, on a real trace', async (t) => {
  const { svg } = await vectorize(await png(testCard()), { imageType: 'clipart' });
  const paths = [...svg.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]);
  t.ok(paths.length > 2);
  for (const d of paths) t.equal(pathOutline(d).nodes, countPathSegments(d));
});

t.test('flattened polygons follow curves and arcs: what lies inside a shape', async (t) => {
  // a circle of radius 10 in two clockwise arcs, a square hole wound the other way
  const ring = pathPolygons('M30 20a10 10 0 0 1-20 0 10 10 0 0 1 20 0zM17 17v6h6v-6z');
  t.equal(ring.length, 2, 'one polygon per subpath');
  t.not(windingAt(ring, 20, 12), 0, 'inside the circle, off the hole');
  t.not(windingAt(ring, 20, 29.6), 0, 'just inside the arc: the arc is followed, not its chord');
  t.equal(windingAt(ring, 20, 30.4), 0, 'just outside the arc');
  t.equal(windingAt(ring, 20, 20), 0, 'in the hole');
  // a cubic bulging to y = -7.5 at its middle
  const bump = pathPolygons('M0 0c0-10 10-10 10 0z');
  t.not(windingAt(bump, 5, -7), 0, 'under the curve’s top');
  t.equal(windingAt(bump, 5, -8), 0, 'above it');
  t.same(pathPolygons('M1.5.5l1 0 0 1-1 0z'), [[1.5, 0.5, 2.5, 0.5, 2.5, 1.5, 1.5, 1.5]], 'lines as they are');
});
