import t from 'tap';
import { renumberInKernel } from '../../../engine/wasm/renumber.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { randomLabelRuns } from '../helpers/images.js';
import { referenceRenumber } from '../helpers/reference-renumber.js';

t.test('the kernel renumbers as the pixel-by-pixel reference does, stretch by stretch', async (t) => {
  // Runs short and long (the kernel compares four labels at a time and writes four at a time:
  // lengths around multiples of four, and runs across the stretches it is handed), groups joined
  // or not, some regions left without pixels, some transparent.
  for (const [seed, width, height, regionCount, changeChance, stretch] of [
    [1, 37, 23, 12, 0.5, 1 << 16],
    [2, 64, 40, 30, 0.05, 1 << 16],
    [3, 101, 57, 200, 0.2, 97],
    [4, 16, 16, 3, 0.01, 5],
    [5, 300, 200, 900, 0.3, 4096],
  ] as const) {
    const random = seededRandom(seed);
    const labels = randomLabelRuns(width, height, regionCount, changeChance, random);
    const transparent = Uint8Array.from({ length: regionCount }, () => (random() < 0.2 ? 1 : 0));
    for (const joined of [false, true]) {
      const joinedInto = joined
        ? Int32Array.from({ length: regionCount }, (_, r) => (random() < 0.4 ? Math.floor(random() * regionCount) : r))
        : null;
      const expected = referenceRenumber(labels, regionCount, transparent, joinedInto);
      const renumbered = labels.slice();
      const got = renumberInKernel(renumbered, regionCount, transparent, joinedInto, stretch);
      const name = `seed ${seed}, ${joined ? 'joined' : 'not joined'}, stretches of ${stretch}`;
      t.same(Array.from(renumbered), Array.from(expected.labels), `${name}: labels`);
      t.equal(got.count, expected.count, `${name}: regions left`);
      t.same(Array.from(got.area), Array.from(expected.area), `${name}: areas`);
      t.same(Array.from(got.transparent), Array.from(expected.transparent), `${name}: kinds`);
      t.same(Array.from(got.compact), Array.from(expected.compact), `${name}: each old group's number`);
    }
  }
});

t.test('labels all of one region: one number, the whole image its area', async (t) => {
  const labels = new Int32Array(1000).fill(7);
  const got = renumberInKernel(labels, 8, new Uint8Array(8), null, 64);
  t.equal(got.count, 1);
  t.same(Array.from(got.area), [1000]);
  t.ok(
    labels.every((l) => l === 0),
    'every label renumbered to 0',
  );
});
