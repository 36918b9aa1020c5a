import t from 'tap';
import { movePixel, regionColourSums, renumberInScanOrder, runEnd } from '../../../engine/segment/renumber.js';

t.test('labels renumbered in scan order of first appearance; emptied regions disappear', async (t) => {
  // region 1 holds no pixel; 3 appears first, then 0, then 2
  const labels = Int32Array.of(3, 3, 0, 2, 0, 3);
  const out = renumberInScanOrder(labels, 4, Uint8Array.of(0, 0, 1, 0), null);
  t.same([...out.labels], [0, 0, 1, 2, 1, 0]);
  t.equal(out.labels, labels, 'in place');
  t.equal(out.regionCount, 3);
  t.same([...out.area], [3, 2, 1]);
  t.same([...out.transparent], [0, 0, 1], "the transparent flag follows its region's new number");
});

t.test('joined regions take the number of the first pixel of the joined whole', async (t) => {
  const labels = Int32Array.of(2, 1, 0, 1, 2);
  // 2 joined into 0
  const out = renumberInScanOrder(labels, 3, new Uint8Array(3), Int32Array.of(0, 1, 0));
  t.same([...out.labels], [0, 1, 0, 1, 0]);
  t.equal(out.regionCount, 2);
  t.same([...out.area], [3, 2]);
});

t.test('colour sums follow moved pixels, joins and the new numbers', async (t) => {
  const labels = Int32Array.of(2, 1, 0, 1, 2, 1);
  const rgb = Uint8Array.from({ length: 18 }, (_, i) => (i * 37) % 251);
  const sums = regionColourSums(rgb, labels, 3);
  // pixel 5 moves from region 1 to 2, then 2 is joined into 0
  movePixel(labels, rgb, sums, 5, 2);
  t.equal(labels[5], 2, 'the pixel moved');
  const out = renumberInScanOrder(labels, 3, new Uint8Array(3), Int32Array.of(0, 1, 0), sums);
  t.same([...out.labels], [0, 1, 0, 1, 0, 0]);
  t.same([...(out.colourSums ?? [])], [...regionColourSums(rgb, out.labels, out.regionCount)], 'as summed from the final labels');
  t.equal(renumberInScanOrder(Int32Array.of(0, 1), 2, new Uint8Array(2), null).colourSums, undefined, 'none given, none handed on');
});

t.test('runEnd: where the run of pixels sharing a label ends along the scan', async (t) => {
  const labels = Int32Array.of(3, 3, 1, 1, 1, 2);
  t.same(
    [0, 1, 2, 5].map((p) => runEnd(labels, p)),
    [2, 2, 5, 6],
  );
});
