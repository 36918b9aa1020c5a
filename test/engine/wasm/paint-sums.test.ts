import t, { type Test } from 'tap';
import { gradientSampleStep } from '../../../engine/fit/gradient.js';
import { gradientSamplesInKernel, paintSumsInKernel, type PaintPixels, type PaintSums } from '../../../engine/wasm/paint-sums.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { referenceGradientSamples, referencePaintSums } from '../helpers/reference-paint-sums.js';

type SumsPass = PaintPixels & { data: Uint8Array; channels: number };

/**
 * Random regions with inner pixels and without: rectangles over a background (some against the
 * image's edges), then short runs and single-pixel specks of random labels scattered over them
 * (thin strokes, regions with few or no inner pixels), and random colours, RGB or RGBA.
 */
function randomImage(width: number, height: number, channels: 3 | 4, seed: number): SumsPass {
  const random = seededRandom(seed);
  const regionCount = 14;
  const labels = new Int32Array(width * height);
  const pick = (n: number) => Math.floor(random() * n);
  for (let k = 0; k < 6; k++) {
    const label = 1 + pick(regionCount - 1);
    const x0 = random() < 0.3 ? 0 : pick(width),
      y0 = random() < 0.3 ? 0 : pick(height);
    const x1 = random() < 0.3 ? width : x0 + 1 + pick(width - x0),
      y1 = random() < 0.3 ? height : y0 + 1 + pick(height - y0);
    for (let y = y0; y < y1; y++) labels.fill(label, y * width + x0, y * width + x1);
  }
  for (let k = 0; k < (width * height) / 40; k++) {
    const p = pick(width * height);
    labels.fill(pick(regionCount), p, Math.min(width * height, p + (random() < 0.5 ? 1 : 1 + pick(9))));
  }
  const data = new Uint8Array(channels * width * height);
  for (let i = 0; i < data.length; i++) data[i] = pick(256);
  return { width, height, labels, regionCount, data, channels };
}

const SIZES = [
  [37, 23, 4, 1],
  [64, 40, 3, 2],
  [300, 260, 4, 3],
  [5, 1, 3, 4],
  [1, 9, 4, 5],
  [2, 2, 3, 6],
] as const;

/** The default bands, one-row bands and three-row bands. */
const bandSizes = (width: number) => [undefined, width, 3 * width + 1];
const bandsName = (width: number, bandPixels: number | undefined) =>
  bandPixels === undefined ? 'default bands' : `${Math.floor(bandPixels / width)}-row bands`;

/** How many numbers differ, bit for bit, between two arrays of sums. */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = a.length === b.length ? 0 : Infinity;
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) n++;
  return n;
}

function sameSums(t: Test, got: PaintSums, expected: PaintSums, what: string): void {
  for (const key of ['sums', 'squares', 'innerSums', 'innerSquares', 'innerArea'] as const)
    t.equal(differing(got[key], expected[key]), 0, `${what}: ${key}`);
}

t.test('the kernel takes the colour sums of all and of inner pixels the TypeScript pass took', async (t) => {
  for (const [width, height, channels, seed] of SIZES) {
    const pass = randomImage(width, height, channels, seed);
    const expected = referencePaintSums(pass);
    t.ok(expected.innerArea.some((n) => n > 0) || width * height < 10, `${width}x${height}: some regions have inner pixels`);
    for (const bandPixels of bandSizes(width))
      sameSums(
        t,
        paintSumsInKernel({ ...pass, bandPixels }),
        expected,
        `${width}x${height}, ${channels} channels, ${bandsName(width, bandPixels)}`,
      );
  }
});

t.test('one region: every pixel inner, the image edges too', async (t) => {
  for (const [width, height] of [
    [1, 1],
    [6, 1],
    [1, 6],
    [7, 5],
  ]) {
    const pass = { ...randomImage(width, height, 4, 7), labels: new Int32Array(width * height), regionCount: 1 };
    const got = paintSumsInKernel({ ...pass, bandPixels: width });
    sameSums(t, got, referencePaintSums(pass), `${width}x${height}`);
    t.equal(got.innerArea[0], width * height, `${width}x${height}: all inner`);
  }
});

t.test('a run whose sum of squares passes 2³¹ is summed whole', async (t) => {
  // a bright row 12 000 pixels long: 12 000 · 3 · 255² is past the 32-bit integers
  const width = 12_000,
    height = 3;
  const pass: SumsPass = {
    width,
    height,
    labels: new Int32Array(width * height),
    regionCount: 1,
    data: new Uint8Array(3 * width * height).fill(255),
    channels: 3,
  };
  const got = paintSumsInKernel(pass);
  sameSums(t, got, referencePaintSums(pass), 'bright rows');
  t.equal(got.squares[0], width * height * 3 * 255 * 255);
});

type SamplesPass = SumsPass & { step: Int32Array; byInner: Uint8Array; nextSample: Int32Array; sampled: Int32Array };

/**
 * The sampling of `pass`'s regions as planRegionPaints lays it out: some regions candidates, each
 * measured on its inner pixels when it has MIN_INNER_PIXELS of them (else on all its pixels), with
 * small steps (many samples a run) as well as gradientSampleStep's, samples in region order.
 */
function samplesPass(pass: SumsPass, seed: number): SamplesPass {
  const random = seededRandom(seed);
  const { regionCount, labels } = pass;
  const { innerArea } = referencePaintSums(pass);
  const area = new Int32Array(regionCount);
  for (const l of labels) area[l]++;
  const step = new Int32Array(regionCount),
    byInner = new Uint8Array(regionCount),
    nextSample = new Int32Array(regionCount);
  let total = 0;
  for (let r = 0; r < regionCount; r++) {
    byInner[r] = innerArea[r] >= 16 ? 1 : 0;
    if (area[r] === 0 || random() < 0.2) continue;
    const sampledArea = byInner[r] ? innerArea[r] : area[r];
    step[r] = random() < 0.5 ? gradientSampleStep(sampledArea) : 1 + Math.floor(random() * 4);
    nextSample[r] = total;
    total += Math.ceil(sampledArea / step[r]);
  }
  return { ...pass, step, byInner, nextSample, sampled: new Int32Array(total).fill(-7) };
}

t.test('the kernel samples the pixels the TypeScript pass sampled, in the same order', async (t) => {
  for (const [width, height, channels, seed] of SIZES) {
    const pass = samplesPass(randomImage(width, height, channels, seed), seed + 10);
    const expected = pass.sampled.slice();
    referenceGradientSamples({ ...pass, nextSample: pass.nextSample.slice(), sampled: expected });
    t.notOk(expected.includes(-7), `${width}x${height}: the reference fills every sample`);
    for (const bandPixels of bandSizes(width)) {
      const got = pass.sampled.slice();
      gradientSamplesInKernel({ ...pass, sampled: got, bandPixels });
      t.same(Array.from(got), Array.from(expected), `${width}x${height}, ${bandsName(width, bandPixels)}`);
    }
  }
});

t.test('regions measured on too few inner pixels sample all of theirs; others only inner ones', async (t) => {
  // a region along the top edge and a thin stroke through a large square: every pixel sampled
  const width = 20,
    height = 12;
  const labels = new Int32Array(width * height);
  labels.fill(1, 0, width);
  for (let y = 2; y < height; y++) labels[y * width + 7] = 2;
  const pass = samplesPass({ width, height, labels, regionCount: 3, data: new Uint8Array(3 * width * height), channels: 3 }, 1);
  pass.step.fill(1);
  const area = [0, 0, 0];
  for (const l of labels) area[l]++;
  t.same(Array.from(pass.byInner), [1, 0, 0], 'the square by its inner pixels, the edge row and the stroke by all');
  const innerArea = referencePaintSums(pass).innerArea[0];
  pass.nextSample.set([0, innerArea, innerArea + area[1]]);
  pass.sampled = new Int32Array(innerArea + area[1] + area[2]).fill(-7);
  const expected = pass.sampled.slice();
  referenceGradientSamples({ ...pass, nextSample: pass.nextSample.slice(), sampled: expected });
  gradientSamplesInKernel({ ...pass, bandPixels: width });
  t.same(Array.from(pass.sampled), Array.from(expected), 'the same samples');
  t.notOk(pass.sampled.includes(-7), 'every one written');
});
