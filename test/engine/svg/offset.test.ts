import t from 'tap';
import { grownPathData } from '../../../engine/svg/offset.js';
import { pathOutline, pathPolygons, windingAt } from '../../../engine/svg/path-data.js';

t.test('a square with a square hole grows all round: the outline out, the hole in, corners square', async (t) => {
  // the outline clockwise on screen, the hole the other way, as PathWriter writes them
  for (const d of ['M10 10h20v20h-20zM15 15v10h10v-10z', 'M10 10v20h20v-20zM15 15h10v10h-10z']) {
    const grown = grownPathData(d, 0.75);
    t.ok(grown !== null, d);
    const outline = pathOutline(grown!);
    t.same([outline.minX, outline.minY, outline.maxX, outline.maxY], [9.25, 9.25, 30.75, 30.75], `${d}: the outline 0.75 px out`);
    t.equal(outline.area, 21.5 ** 2 - 8.5 ** 2, `${d}: the hole 0.75 px in`);
    const polygons = pathPolygons(grown!);
    t.equal(windingAt(polygons, 16, 16), 0, 'the hole stays a hole');
    t.not(windingAt(polygons, 15.5, 20), 0, 'what the hole gave up is filled');
  }
});

t.test('a curve moves along its normals: a rounded side bulges 0.75 px further', async (t) => {
  const grown = grownPathData('M0 0h10c5 0 5 10 0 10h-10z', 0.75);
  const outline = pathOutline(grown!);
  t.same([outline.minX, outline.minY, outline.maxY], [-0.75, -0.75, 10.75]);
  t.equal(grownPathData('M0 0h10a5 5 0 0 1 0 10h-10z', 0.75), null, 'an arc has no offset of its own kind');
});
