import t from 'tap';
import { boundaryStepsInKernel } from '../../../engine/wasm/boundary-steps.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { randomLabelRuns } from '../helpers/images.js';
import { referenceBoundarySteps } from '../helpers/reference-boundary-steps.js';

/** Random regions (some specks, some transparent) over colours that step softly inside them and hard between some. */
function randomRegions(width: number, height: number, regionCount: number, changeChance: number, channels: 3 | 4, seed: number) {
  const random = seededRandom(seed);
  const labels = randomLabelRuns(width, height, regionCount, changeChance, random);
  const area = new Int32Array(regionCount);
  for (const l of labels) area[l]++;
  const transparent = new Uint8Array(regionCount);
  for (let r = 0; r < regionCount; r++) transparent[r] = random() < 0.05 ? 1 : 0;
  const base = Array.from({ length: regionCount }, () => [random() * 255, random() * 255, random() * 255]);
  const data = new Uint8Array(channels * width * height);
  for (let p = 0; p < width * height; p++) {
    const c = base[labels[p]];
    for (let k = 0; k < 3; k++) data[channels * p + k] = Math.max(0, Math.min(255, Math.round(c[k] + (random() - 0.5) * 12)));
    if (channels === 4) data[channels * p + 3] = 255;
  }
  return { image: { width, height, channels, data }, regions: { labels, regionCount, area, transparent } };
}

t.test('the kernel finds the pairs, in the order first met, with the sums the TypeScript pass added up', async (t) => {
  for (const [width, height, regionCount, changeChance, channels, seed] of [
    [40, 30, 9, 0.05, 4, 1],
    [1, 25, 4, 0.3, 3, 2],
    [25, 1, 4, 0.3, 3, 3],
    // many regions, most of them specks
    [200, 150, 700, 0.25, 3, 4],
  ] as const) {
    const { image, regions } = randomRegions(width, height, regionCount, changeChance, channels, seed);
    const expected = referenceBoundarySteps(image, regions, 24);
    for (const bandPixels of [undefined, width, 7 * width + 3]) {
      const got = boundaryStepsInKernel(
        width,
        height,
        image.data,
        channels,
        regions.labels,
        regions.area,
        regions.transparent,
        24,
        bandPixels,
      );
      const bands = bandPixels === undefined ? 'default' : `${Math.floor(bandPixels / width)}-row`;
      const what = `${width}x${height}, ${regionCount} regions, ${bands} bands`;
      t.equal(got.count, expected.count, `${what}: ${expected.count} pairs`);
      t.same(Array.from(got.a), Array.from(expected.a.subarray(0, expected.count)), `${what}: first regions`);
      t.same(Array.from(got.b), Array.from(expected.b.subarray(0, expected.count)), `${what}: second regions`);
      t.same(Array.from(got.pixelPairs), Array.from(expected.pixelPairs.subarray(0, expected.count)), `${what}: pixel pairs`);
      t.same(Array.from(got.hard), Array.from(expected.hard.subarray(0, expected.count)), `${what}: hard steps`);
      let differing = 0;
      for (let i = 0; i < got.count; i++) if (!Object.is(got.sum[i], expected.sum[i])) differing++;
      t.equal(differing, 0, `${what}: every sum, bit for bit`);
    }
  }
});

t.test('a table that outgrows its first room keeps every pair and its sums', async (t) => {
  // 8×8 blocks, each a region of its own: about two pairs a block
  const width = 272,
    height = 256;
  const labels = new Int32Array(width * height);
  const data = new Uint8Array(3 * width * height);
  const blocksAcross = width / 8;
  for (let p = 0; p < width * height; p++) {
    const x = p % width,
      y = (p - x) / width;
    const block = (y >> 3) * blocksAcross + (x >> 3);
    labels[p] = block;
    // neighbours across a vertical boundary step by exactly the hard step (24): not hard
    data.set([((x >> 3) * 24) % 240, ((y >> 3) * 30) % 240, 50], 3 * p);
  }
  const regionCount = blocksAcross * (height / 8);
  const area = new Int32Array(regionCount).fill(64);
  const transparent = new Uint8Array(regionCount);
  const regions = { labels, regionCount, area, transparent };
  const expected = referenceBoundarySteps({ width, height, channels: 3, data }, regions, 24);
  t.ok(expected.count > 2048, `${expected.count} pairs: more than the first room for this width`);
  const got = boundaryStepsInKernel(width, height, data, 3, labels, area, transparent, 24, 20 * width);
  t.equal(got.count, expected.count);
  t.same(Array.from(got.a), Array.from(expected.a.subarray(0, expected.count)), 'first regions');
  t.same(Array.from(got.b), Array.from(expected.b.subarray(0, expected.count)), 'second regions');
  t.same(Array.from(got.sum), Array.from(expected.sum.subarray(0, expected.count)), 'sums');
  t.same(Array.from(got.pixelPairs), Array.from(expected.pixelPairs.subarray(0, expected.count)), 'pixel pairs');
  t.same(Array.from(got.hard), Array.from(expected.hard.subarray(0, expected.count)), 'hard steps');
  t.ok(expected.hard.some((h, i) => i < expected.count && h === 0) && expected.hard.some((h) => h > 0), 'some boundaries hard, some not');
});
