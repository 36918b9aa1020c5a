import t from 'tap';
import { prepareUnsmoothed } from '../../../engine/prepare/index.js';
import { PLANE_STRIDE } from '../../../engine/segment/index.js';
import { floodKernel, kernelMemoryBytes } from '../../../engine/wasm/flood.js';
import { raster, type Raster } from '../helpers/images.js';
import { referenceFlood } from '../helpers/reference-flood.js';

/** Every batch of the kernel's flood, end to end: labels, and each seed's sums and first pixel. */
function floodAll(image: Raster, tolerance: number, options: { maxSeeds: number; startStep: number; stackRoom?: number }) {
  const prepared = prepareUnsmoothed(image, { alphaThreshold: 128 } as never);
  const { width, height } = prepared;
  const kernel = floodKernel(
    width,
    height,
    prepared.rgb,
    prepared.hasTransparency ? prepared.transparent : null,
    options.maxSeeds,
    options.stackRoom,
  );
  const laidOut = kernelMemoryBytes();
  const sums: number[][] = [];
  const starts: number[] = [];
  let batches = 0;
  for (let start = 0; start < width * height;) {
    const { next, seeds } = kernel.batch(tolerance * tolerance, start, sums.length, options.maxSeeds, start + options.startStep);
    t.ok(seeds <= options.maxSeeds, 'a batch floods at most the seeds asked for');
    const batchSums = kernel.sums(seeds),
      batchStarts = kernel.starts(seeds);
    for (let k = 0; k < seeds; k++) {
      sums.push(Array.from(batchSums.subarray(k * PLANE_STRIDE, (k + 1) * PLANE_STRIDE)));
      starts.push(batchStarts[k]);
    }
    start = next;
    batches++;
  }
  // what the memory grew by while flooding: the segment stack's growth (the layout was made before)
  const stackGrowth = kernelMemoryBytes() - laidOut;
  const labels = new Int32Array(width * height);
  kernel.finish(labels);
  return { labels, sums, starts, batches, prepared, stackGrowth };
}

// One region of many row segments at once: a checkerboard is one 8-connected region per colour,
// every pixel its own segment; a maze of corridors branches at every crossing.
const checkerboard = (size: number): Raster => raster(size, size, (x, y) => ((x + y) % 2 === 0 ? [20, 20, 20] : [240, 240, 240]));
const maze = (size: number): Raster =>
  raster(size, size, (x, y) => (x % 4 === 0 || (y % 4 === 0 && ((x >> 2) + (y >> 2)) % 3 !== 0) ? [30, 60, 90] : [250, 240, 200]));

// Runs that must grow along their row past the scan that found them (a wedge widening downwards,
// one narrowing, a diagonal line that joins only corner to corner) and tall narrow stripes, where
// most runs stop at a pixel the scan already refused.
const wedges = (size: number): Raster =>
  raster(size, size, (x, y) => {
    if (Math.abs(x - size / 4) < y / 3) return [200, 30, 30];
    if (Math.abs(x - (3 * size) / 4) < (size - y) / 3) return [30, 30, 200];
    if ((x + y) % 17 === 0) return [30, 160, 30];
    if (y > size / 2 && x % 7 < 3) return [240, 220, 20];
    return [250, 250, 250];
  });

// A pixel of the row above a run that only the run's own scan of that row can reach: the run grows
// left past the scan that found it, under a pixel two left of its parent's run.
const pocket = (): Raster => {
  const rows = ['.....X...', '...X.XXX.', '.XXXXXXX.'];
  return raster(9, 3, (x, y) => (rows[y][x] === 'X' ? [40, 40, 40] : [230, 230, 230]));
};

t.test('the kernel floods as a pixel-by-pixel flood does, with its segment stack grown from one segment', async (t) => {
  for (const [name, image] of [
    ['checkerboard', checkerboard(120)],
    ['maze', maze(150)],
    ['wedges', wedges(140)],
    ['pocket', pocket()],
  ] as const) {
    const flooded = floodAll(image, 6, { maxSeeds: 1 << 13, startStep: 1 << 30, stackRoom: 6 });
    t.ok(flooded.stackGrowth > 0, `${name}: the stack outgrew one segment and the memory grew for it`);
    const reference = referenceFlood(image.width, image.height, flooded.prepared.rgb, flooded.prepared.transparent, 6);
    t.same(Array.from(flooded.labels), Array.from(reference.labels), `${name}: labels`);
    t.same(flooded.sums, reference.sums, `${name}: every seed's sums`);
  }
});

t.test('batches cut anywhere flood what one batch floods', async (t) => {
  // runs of a few colours, near and far, and a transparent patch
  const image = raster(90, 50, (x, y) => {
    const k = (Math.floor(x / 3) * 7 + y * 3) % 5;
    const colour: [number, number, number] = [
      [200, 40, 40],
      [203, 43, 40],
      [40, 180, 60],
      [20, 20, 200],
      [250, 250, 250],
    ][k] as [number, number, number];
    return [...colour, x > 60 && y > 30 ? 0 : 255];
  });
  const whole = floodAll(image, 6, { maxSeeds: 1 << 13, startStep: 1 << 30 });
  t.equal(whole.batches, 1, 'one batch when nothing cuts it');
  for (const [maxSeeds, startStep] of [
    [1, 1 << 30],
    [7, 1 << 30],
    [1 << 13, 97],
    [5, 300],
  ]) {
    const cut = floodAll(image, 6, { maxSeeds, startStep });
    t.ok(cut.batches > 1, `${maxSeeds} seeds or ${startStep} pixels a batch: ${cut.batches} batches`);
    t.same(Array.from(cut.labels), Array.from(whole.labels), 'the same labels');
    t.same(cut.sums, whole.sums, 'the same sums');
    t.same(cut.starts, whole.starts, 'the same first pixels');
  }
  const reference = referenceFlood(image.width, image.height, whole.prepared.rgb, whole.prepared.transparent, 6);
  t.same(Array.from(whole.labels), Array.from(reference.labels), 'and those of a pixel-by-pixel flood');
});
