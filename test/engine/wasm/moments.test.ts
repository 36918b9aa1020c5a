import t from 'tap';
import { MOMENT_BLOCK } from '../../../engine/segment/gradient-bands.js';
import { measureMomentsInKernel, type MomentsPass } from '../../../engine/wasm/moments.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { referenceMoments } from '../helpers/colour-moments.js';
import { randomLabelRuns, sharedAt } from '../helpers/images.js';

/**
 * A pass over random regions: colours ramping smoothly inside each region with a hard step now and
 * then (edge pixels), RGB or RGBA, some regions measured (their blocks in region order), pixel lists
 * laid out by area when `lists`.
 */
function randomPass(width: number, height: number, channels: 3 | 4, seed: number, lists: boolean): MomentsPass {
  const random = seededRandom(seed);
  const regionCount = 12;
  const labels = randomLabelRuns(width, height, regionCount, 0.08, random);
  const data = new Uint8Array(channels * width * height);
  const base = Array.from({ length: regionCount }, () => [random() * 200, random() * 200, random() * 200]);
  for (let p = 0; p < width * height; p++) {
    const x = p % width,
      y = (p - x) / width;
    const c = base[labels[p]];
    const step = random() < 0.05 ? 60 : 0;
    for (let k = 0; k < 3; k++) data[channels * p + k] = Math.min(255, Math.round(c[k] + (x * (k + 1)) / 9 + y / 7 + step));
    if (channels === 4) data[channels * p + 3] = 255;
  }
  // blocks for the regions on soft boundaries; this pass measures some of them (its share)
  const mine = new Int32Array(regionCount).fill(-1);
  let blocks = 0;
  for (let r = 0; r < regionCount; r++) {
    if (random() < 0.3 && r > 0) continue;
    const block = blocks++;
    if (random() < 0.7 || r === 0) mine[r] = block;
  }
  const area = new Int32Array(regionCount);
  for (const l of labels) area[l]++;
  const first = new Int32Array(regionCount + 1);
  for (let r = 0; r < regionCount; r++) first[r + 1] = first[r] + area[r];
  return {
    width,
    height,
    data,
    channels,
    labels,
    regionCount,
    mine,
    hardStep: 24,
    sums: new Float64Array(blocks * MOMENT_BLOCK).fill(7),
    refX: new Int32Array(blocks),
    refY: new Int32Array(blocks),
    edgePixel: new Uint8Array(width * height).fill(9),
    lists: lists ? { pixels: new Int32Array(width * height).fill(-5), first } : null,
  };
}

/** A fresh copy of the pass's outputs (the inputs shared). */
function outputsOf(pass: MomentsPass): MomentsPass {
  return {
    ...pass,
    sums: pass.sums.slice(),
    refX: pass.refX.slice(),
    refY: pass.refY.slice(),
    edgePixel: pass.edgePixel.slice(),
    lists: pass.lists && { pixels: pass.lists.pixels.slice(), first: pass.lists.first },
  };
}

t.test('the kernel takes the sums, reference pixels, edge flags and pixel lists the TypeScript pass took', async (t) => {
  for (const [width, height, channels, seed, lists] of [
    [37, 23, 4, 1, false],
    [64, 40, 3, 2, true],
    [300, 260, 4, 3, true],
    [5, 1, 3, 4, true],
  ] as const) {
    const pass = randomPass(width, height, channels, seed, lists);
    const expected = outputsOf(pass);
    referenceMoments(expected);
    for (const [bandPixels, shared] of [
      [undefined, false],
      [width, false],
      [3 * width + 1, false],
      [3 * width + 1, true],
    ] as const) {
      const got = outputsOf(pass);
      // shared memory at offsets that are not a multiple of 8, as a worker's labels and pixels may lie
      measureMomentsInKernel({ ...got, bandPixels, ...(shared ? { labels: sharedAt(got.labels, 4), data: sharedAt(got.data, 3) } : {}) });
      const bands =
        (bandPixels === undefined ? 'default bands' : `${Math.floor(bandPixels / width)}-row bands`) + (shared ? ', shared' : '');
      const what = `${width}x${height}, ${channels} channels, ${bands}`;
      let differing = 0;
      for (let k = 0; k < got.sums.length; k++) if (!Object.is(got.sums[k], expected.sums[k])) differing++;
      t.equal(differing, 0, `${what}: every sum, bit for bit`);
      t.same(Array.from(got.refX), Array.from(expected.refX), `${what}: reference x`);
      t.same(Array.from(got.refY), Array.from(expected.refY), `${what}: reference y`);
      let wrongEdges = 0;
      for (let p = 0; p < width * height; p++)
        if (pass.mine[pass.labels[p]] >= 0 && got.edgePixel[p] !== expected.edgePixel[p]) wrongEdges++;
      t.equal(wrongEdges, 0, `${what}: edge flags of the measured regions' pixels`);
      let otherEdges = 0;
      for (let p = 0; p < width * height; p++) if (pass.mine[pass.labels[p]] < 0 && got.edgePixel[p] !== 9) otherEdges++;
      t.equal(otherEdges, 0, `${what}: other pixels' flags left alone (another thread may write them)`);
      if (lists) t.same(Array.from(got.lists!.pixels), Array.from(expected.lists!.pixels), `${what}: the pixel lists`);
    }
  }
});

t.test('blocks of regions the pass does not measure are left as they were', async (t) => {
  const pass = randomPass(50, 30, 4, 5, false);
  const got = outputsOf(pass);
  measureMomentsInKernel(got);
  const measured = new Set(Array.from(pass.mine).filter((b) => b >= 0));
  t.ok(measured.size < pass.refX.length, 'some blocks belong to another share');
  for (let block = 0; block < pass.refX.length; block++) {
    if (measured.has(block)) continue;
    t.ok(
      got.sums.subarray(block * MOMENT_BLOCK, (block + 1) * MOMENT_BLOCK).every((v) => v === 7),
      `block ${block} untouched`,
    );
  }
});
