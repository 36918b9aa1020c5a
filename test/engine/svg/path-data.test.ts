import t from 'tap';
import { pathOutline } from '../../../engine/svg/path-data.js';
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
