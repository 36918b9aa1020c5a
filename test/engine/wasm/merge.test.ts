import t from 'tap';
import { mergeInKernel, mergeMemoryBytes, type MergeInput } from '../../../engine/wasm/merge.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { neighbourPairs, pairCost, planeError, referenceMerge } from '../helpers/reference-merge.js';
import { rowRunsOf } from '../../../engine/segment/renumber.js';

const PLANE_STRIDE = 16;

/**
 * Seeds over an image: rectangles over a background (some against the edges), then runs of
 * random seeds scattered over them, each seed's pixels a palette colour with a little noise (so
 * some neighbours are near in colour and some far), every seed's sums taken from its pixels as
 * the flood takes them. Some seeds are transparent; some seed numbers hold no pixels, their count
 * 0 and the rest of their sums left over, as folding leaves a one-pixel seed.
 */
function randomSeeds(width: number, height: number, seedCount: number, seed: number, chunkSeeds: number) {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const labels = new Int32Array(width * height);
  for (let k = 0; k < 8; k++) {
    const label = pick(seedCount);
    const x0 = random() < 0.3 ? 0 : pick(width),
      y0 = random() < 0.3 ? 0 : pick(height);
    const x1 = random() < 0.3 ? width : x0 + 1 + pick(width - x0),
      y1 = random() < 0.3 ? height : y0 + 1 + pick(height - y0);
    for (let y = y0; y < y1; y++) labels.fill(label, y * width + x0, y * width + x1);
  }
  for (let k = 0; k < (width * height) / 6; k++) {
    const p = pick(width * height);
    labels.fill(pick(seedCount), p, Math.min(width * height, p + (random() < 0.5 ? 1 : 1 + pick(7))));
  }
  const palette = [
    [200, 40, 40],
    [205, 45, 38],
    [40, 180, 60],
    [20, 20, 200],
    [250, 250, 250],
    [128, 128, 128],
  ];
  const colourOf = Array.from({ length: seedCount }, () => palette[pick(palette.length)]);
  const noise = Array.from({ length: seedCount }, () => pick(4) * pick(4));
  const sums = new Float64Array(seedCount * PLANE_STRIDE);
  for (let p = 0; p < labels.length; p++) {
    const s = labels[p],
      x = p % width,
      y = Math.floor(p / width);
    const [r, g, b] = colourOf[s].map((v) => Math.max(0, Math.min(255, v + pick(2 * noise[s] + 1) - noise[s])));
    const terms = [1, x, y, x * x, x * y, y * y, r, g, b, r * x, g * x, b * x, r * y, g * y, b * y, r * r + g * g + b * b];
    for (let k = 0; k < PLANE_STRIDE; k++) sums[s * PLANE_STRIDE + k] += terms[k];
  }
  // seed numbers with no pixels: emptied by folding (their other sums stay)
  for (let s = 0; s < seedCount; s++)
    if (sums[s * PLANE_STRIDE] === 0) for (let k = 1; k < PLANE_STRIDE; k++) sums[s * PLANE_STRIDE + k] = pick(1000);
  const seedTransparent = Uint8Array.from({ length: seedCount }, () => (random() < 0.1 ? 1 : 0));
  const chunks: Float64Array[] = [];
  for (let first = 0; first < seedCount; first += chunkSeeds) {
    const chunk = new Float64Array(chunkSeeds * PLANE_STRIDE).fill(NaN);
    chunk.set(sums.subarray(first * PLANE_STRIDE, Math.min(seedCount, first + chunkSeeds) * PLANE_STRIDE));
    chunks.push(chunk);
  }
  return { width, height, labels, seedCount, seedTransparent, chunks, chunkSeeds, sums };
}

/** The cost of joining the first pair of painted seeds the scan meets, alone: a key the heap holds exactly. */
function firstPairCost(input: ReturnType<typeof randomSeeds>, plane: boolean): number {
  const { labels, width, height, seedCount, seedTransparent, sums } = input;
  const identity = Int32Array.from({ length: seedCount }, (_, s) => s);
  const pairs = neighbourPairs(labels, width, height, seedCount, seedTransparent, identity, rowRunsOf(labels, width, height));
  if (pairs.pairCount === 0) return 0;
  const stride = plane ? PLANE_STRIDE : 4;
  const stats = new Float64Array(2 * stride);
  [pairs.edgeA[0], pairs.edgeB[0]].forEach((s, d) => {
    const from = sums.subarray(s * PLANE_STRIDE, (s + 1) * PLANE_STRIDE);
    if (plane) stats.set(from, d * stride);
    else stats.set([from[0], from[6], from[7], from[8]], d * stride);
  });
  const own = plane ? Float64Array.of(planeError(stats, 0), planeError(stats, stride)) : new Float64Array(0);
  return pairCost(stats, own, plane, 0, 1);
}

/** How many numbers differ, bit for bit (-0 from 0 too). */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = a.length === b.length ? 0 : Infinity;
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) n++;
  return n;
}

const SIZES = [
  [1, 1, 1],
  [1, 1, 3],
  [2, 2, 3],
  [1, 13, 5],
  [17, 1, 5],
  [9, 7, 2],
  [37, 23, 40],
  [64, 40, 300],
  [120, 90, 2000],
] as const;

t.test("the kernel merges as the TypeScript did: the same labels, areas, transparency, colour sums and the labels' row runs", async (t) => {
  let cases = 0,
    merges = 0,
    kept = 0;
  for (const [index, [width, height, seedCount]] of SIZES.entries()) {
    for (const chunkSeeds of [8, 8192]) {
      for (const plane of [false, true]) {
        for (const minArea of [0, 1, 6, 40]) {
          const probe = randomSeeds(width, height, seedCount, 1000 * index + 7, chunkSeeds);
          const boundary = firstPairCost(probe, plane);
          for (const maxCost of [0, boundary, boundary * (1 - 1e-15), 50, 3000, Infinity]) {
            const input = (): MergeInput => {
              const seeds = randomSeeds(width, height, seedCount, 1000 * index + 7, chunkSeeds);
              return { ...seeds, plane, maxCost, minArea };
            };
            const { regions: got, runs } = mergeInKernel(input(), NO_CONTEXT);
            // copied: rowRunsOf below fills the same tables
            const gotRuns = { starts: runs.starts.slice(), rowRuns: runs.rowRuns.slice() };
            const expected = referenceMerge(input());
            const expectedRuns = rowRunsOf(expected.labels, width, height);
            const model = plane ? 'plane' : 'flat';
            const what = `${width}x${height}, ${seedCount} seeds, ${chunkSeeds} a chunk, ${model}, minArea ${minArea}, maxCost ${maxCost}`;
            const wrong =
              differing(got.labels, expected.labels) +
              differing(got.area, expected.area) +
              differing(got.transparent, expected.transparent) +
              differing(got.colourSums, expected.colourSums) +
              differing(gotRuns.starts, expectedRuns.starts.subarray(0, expectedRuns.rowRuns[height] + 1)) +
              differing(gotRuns.rowRuns, expectedRuns.rowRuns);
            if (wrong !== 0 || got.regionCount !== expected.regionCount) t.fail(`${what}: ${wrong} numbers differ`);
            cases++;
            if (expected.regionCount > 1) kept++;
            if (expected.regionCount < seedCount) merges++;
          }
        }
      }
    }
  }
  t.pass(`${cases} cases the same, ${merges} with merges, ${kept} keeping two regions or more`);
  t.ok(merges > cases / 2 && kept > cases / 2, 'most cases both merge and keep regions apart');
});

t.test('a cost exactly at maxCost joins, one just under it does not', async (t) => {
  // two seeds side by side: the pair's cost is the one key of the heap
  for (const plane of [false, true]) {
    const base = randomSeeds(4, 3, 2, 5, 8192);
    base.labels.set([0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1]);
    const again = () => randomSeeds(4, 3, 2, 5, 8192);
    const cost = firstPairCost({ ...base, sums: sumsOf(base) }, plane);
    t.ok(cost > 0, `${plane ? 'plane' : 'flat'}: the pair costs ${cost}`);
    for (const [maxCost, regions] of [
      [cost, 1],
      [cost * (1 - 1e-15), 2],
    ]) {
      const seeds = { ...again(), labels: Int32Array.from(base.labels), chunks: base.chunks.map((c) => c.slice()) };
      const got = mergeInKernel({ ...seeds, plane, maxCost, minArea: 0 }, NO_CONTEXT).regions;
      t.equal(got.regionCount, regions, `maxCost ${maxCost}: ${regions} region(s)`);
    }
  }
});

/** The sums the chunks of `seeds` hold, seed after seed. */
function sumsOf(seeds: ReturnType<typeof randomSeeds>): Float64Array<ArrayBuffer> {
  const sums = new Float64Array(seeds.seedCount * PLANE_STRIDE);
  for (let s = 0; s < seeds.seedCount; s++) {
    const chunk = seeds.chunks[Math.floor(s / seeds.chunkSeeds)];
    sums.set(chunk.subarray((s % seeds.chunkSeeds) * PLANE_STRIDE, ((s % seeds.chunkSeeds) + 1) * PLANE_STRIDE), s * PLANE_STRIDE);
  }
  return sums;
}

t.test("the kernel's memory stays the image's size after a merge", async (t) => {
  const seeds = randomSeeds(300, 200, 5000, 9, 8192);
  mergeInKernel({ ...seeds, plane: true, maxCost: 100, minArea: 6 }, NO_CONTEXT);
  t.ok(mergeMemoryBytes() > 0 && mergeMemoryBytes() < 64 << 20, `${mergeMemoryBytes()} bytes kept`);
});

/** The largest double below x > 0. */
function below(x: number): number {
  const bits = new BigInt64Array(Float64Array.of(x).buffer);
  bits[0] -= 1n;
  return new Float64Array(bits.buffer)[0];
}

t.test("two seeds' cost is the TypeScript's to the last bit: at it they join, one double below it they do not", async (t) => {
  // the one pair's key is compared with maxCost alone, so a cost off by a rounding flips one side
  let checked = 0,
    wrong = 0;
  for (let trial = 0; trial < 400; trial++) {
    const random = seededRandom(500 + trial);
    const width = 2 + Math.floor(random() * 12),
      height = 1 + Math.floor(random() * 9);
    const cut = 1 + Math.floor(random() * (width - 1));
    const seeds = randomSeeds(width, height, 2, 500 + trial, 8192);
    seeds.labels.forEach((_, p) => (seeds.labels[p] = p % width < cut ? 0 : 1));
    seeds.seedTransparent.fill(0);
    const sums = sumsOf(seeds);
    if (sums[0] === 0 || sums[PLANE_STRIDE] === 0) continue;
    for (const plane of [false, true]) {
      const cost = firstPairCost({ ...seeds, sums }, plane);
      if (!(cost > 0)) continue;
      for (const [maxCost, regions] of [
        [cost, 1],
        [below(cost), 2],
      ]) {
        const input = { ...seeds, labels: seeds.labels.slice(), chunks: seeds.chunks.map((c) => c.slice()), plane, maxCost, minArea: 0 };
        if (mergeInKernel(input, NO_CONTEXT).regions.regionCount !== regions) wrong++;
      }
      checked++;
    }
  }
  t.ok(checked > 500, `${checked} pairs priced`);
  t.equal(wrong, 0, 'every cost the same double');
});
