import t from 'tap';
import { segmentDistance2 } from '../../engine/geometry.js';

t.test('a point beside a segment: the squared distance to its foot on the segment', async (t) => {
  t.equal(segmentDistance2(2, 3, 0, 0, 4, 0), 9);
  t.equal(segmentDistance2(1, -1, 0, 0, 2, 2), 2, 'a diagonal segment');
});

t.test('a point past either end: the squared distance to that end, not to the line', async (t) => {
  t.equal(segmentDistance2(-3, 4, 0, 0, 10, 0), 25);
  t.equal(segmentDistance2(13, 4, 0, 0, 10, 0), 25);
});

t.test('a segment of zero length is its point', async (t) => {
  t.equal(segmentDistance2(4, 5, 1, 1, 1, 1), 25);
});
