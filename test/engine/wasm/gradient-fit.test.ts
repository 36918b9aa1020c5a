import t from 'tap';
import { fitGradient, paintResidual, type GradientFill } from '../../../engine/fit/gradient.js';
import { withImageInKernel } from '../../../engine/wasm/gradient-fit.js';
import type { RasterImage } from '../../../engine/types.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { binRamp, PROFILE_BINS, referenceChoosePaint } from '../helpers/reference-gradient.js';

type Colour = (x: number, y: number) => [number, number, number];

/** An image `channels` bytes a pixel painted by `colour` (plus noise of up to `noise` levels), and a hard-edged bar through it. */
function paint(width: number, height: number, channels: 3 | 4, colour: Colour, noise: number, random: () => number): RasterImage {
  const data = new Uint8Array(width * height * channels);
  const bar = Math.floor(random() * width);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const edge = x === bar || x === bar + 1;
      const c = edge ? [250, 250, 250] : colour(x + 0.5, y + 0.5);
      const i = channels * (y * width + x);
      for (let k = 0; k < 3; k++) data[i + k] = Math.round(Math.max(0, Math.min(255, c[k] + (random() * 2 - 1) * noise)));
      if (channels === 4) data[i + 3] = 255;
    }
  return { width, height, channels, data } as RasterImage;
}

/** Ramps of every kind the fitter makes, and none: linear (straight or curved), round, elliptical, flat. */
function randomColour(random: () => number, width: number, height: number): { kind: string; colour: Colour } {
  const start = [random() * 255, random() * 255, random() * 255],
    end = [random() * 255, random() * 255, random() * 255];
  const blend = (f: number): [number, number, number] => {
    const g = Math.max(0, Math.min(1, f));
    return [0, 1, 2].map((c) => start[c] + g * (end[c] - start[c])) as [number, number, number];
  };
  const cx = (random() * 1.6 - 0.3) * width,
    cy = (random() * 1.6 - 0.3) * height;
  const reach = Math.hypot(width, height);
  const pick = random();
  if (pick < 0.25) {
    const angle = random() * Math.PI * 2,
      curve = random() < 0.5 ? 1 : 0.4 + random() * 2;
    return { kind: 'linear', colour: (x, y) => blend((((x - cx) * Math.cos(angle) + (y - cy) * Math.sin(angle)) / reach + 0.5) ** curve) };
  }
  if (pick < 0.5) {
    // a cone, a paraboloid, and rings that steepen fast (slopes of every size: which are trusted matters)
    const power = [1, 2, 4][Math.floor(random() * 3)];
    return { kind: 'round', colour: (x, y) => blend((Math.hypot(x - cx, y - cy) / (0.6 * reach)) ** power) };
  }
  if (pick < 0.8) {
    // centred inside the image, where rings show as rings
    const angle = random() * Math.PI,
      ratio = 0.25 + random() * 0.6,
      ex = (0.3 + random() * 0.4) * width,
      ey = (0.3 + random() * 0.4) * height;
    const cos = Math.cos(angle),
      sin = Math.sin(angle);
    return {
      kind: 'elliptical',
      colour: (x, y) => {
        const along = (x - ex) * cos + (y - ey) * sin,
          across = ((y - ey) * cos - (x - ex) * sin) / ratio;
        return blend(Math.hypot(along, across) / (0.5 * reach));
      },
    };
  }
  return { kind: 'flat', colour: () => blend(0.5) };
}

/** The pixels of a region: the whole image, a disc, a ring, a band, or a handful. */
function randomRegion(random: () => number, width: number, height: number): Int32Array {
  const cx = random() * width,
    cy = random() * height,
    r = (0.2 + random() * 0.6) * Math.min(width, height);
  const shape = Math.floor(random() * 5);
  const inside = (x: number, y: number): boolean => {
    const d = Math.hypot(x - cx, y - cy);
    if (shape === 0) return true;
    if (shape === 1) return d < r;
    if (shape === 2) return d < r && d > r / 2;
    if (shape === 3) return Math.abs(y - cy) < r / 4;
    return d < 2.5;
  };
  const pixels: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (inside(x + 0.5, y + 0.5)) pixels.push(y * width + x);
  return Int32Array.from(pixels);
}

t.test('the kernel chooses the fill and residual the TypeScript fitter chose, number for number', async (t) => {
  const random = seededRandom(2311);
  const winners = new Map<string, number>();
  let compared = 0;
  for (let round = 0; round < 240; round++) {
    const width = 12 + Math.floor(random() * 110),
      height = 12 + Math.floor(random() * 90);
    const { kind, colour } = randomColour(random, width, height);
    const image = paint(width, height, random() < 0.5 ? 3 : 4, colour, random() < 0.4 ? 0 : random() * (random() < 0.8 ? 8 : 24), random);
    const pixels = randomRegion(random, width, height);
    const maxResidual = [1, 3, 6, 12][Math.floor(random() * 4)];
    const want = referenceChoosePaint(image, pixels, maxResidual);
    const got = fitGradient(image, pixels, { maxResidual });
    // the same, the samples and slopes taken from the image held in the kernel
    const gotHeld = withImageInKernel(image, () => fitGradient(image, pixels, { maxResidual }));
    const label = `round ${round}: ${kind} ramp, ${pixels.length} pixels of ${width}×${height}`;
    if (!sameFill(got, want.fill)) t.strictSame(got, want.fill, `${label}: the fill`);
    if (!sameFill(gotHeld, want.fill)) t.strictSame(gotHeld, want.fill, `${label}: the fill, the image held`);
    const residual = paintResidual(image, pixels, { maxResidual });
    if (!Object.is(residual, want.residual)) t.equal(residual, want.residual, `${label}: the residual`);
    // bounded: the exact residual under the bound, the same number above it as the reference's
    for (const bound of [want.residual, want.residual / 2, random() * 20]) {
      const wantBounded = referenceChoosePaint(image, pixels, maxResidual, bound).residual;
      const gotBounded = paintResidual(image, pixels, { maxResidual }, bound);
      if (!Object.is(gotBounded, wantBounded)) t.equal(gotBounded, wantBounded, `${label}: the residual bounded at ${bound}`);
    }
    const winner = want.fill === null ? 'none' : want.fill.type === 'radial' && want.fill.ellipse ? 'ellipse' : want.fill.type;
    winners.set(winner, (winners.get(winner) ?? 0) + 1);
    compared++;
  }
  t.equal(compared, 240);
  // every kind of winner was among them, so each candidate's path was compared
  for (const winner of ['none', 'linear', 'radial', 'ellipse'])
    t.ok((winners.get(winner) ?? 0) >= 5, `${winner}: ${winners.get(winner) ?? 0} regions`);
});

t.test('many regions of one held image, its rows copied in as the fits reach them: the same fills and residuals', async (t) => {
  const random = seededRandom(5150);
  for (const channels of [3, 4] as const) {
    const width = 97,
      height = 83;
    const image = paint(width, height, channels, (x, y) => [x * 2, 120 + Math.sin(y / 9) * 60, Math.hypot(x - 40, y - 30) * 2], 3, random);
    // bands of rows, in no order, some overlapping, one reaching each edge; then the whole image
    const regions: Int32Array[] = [];
    for (const [from, to] of [
      [40, 52],
      [0, 6],
      [50, 70],
      [77, 83],
      [10, 30],
      [0, 83],
    ]) {
      const pixels: number[] = [];
      for (let y = from; y < to; y++) for (let x = 0; x < width; x++) if ((x + y) % 3 !== 0) pixels.push(y * width + x);
      regions.push(Int32Array.from(pixels));
    }
    const want = regions.map((pixels) => referenceChoosePaint(image, pixels, 2));
    const got = withImageInKernel(image, () =>
      regions.map((pixels) => ({
        fill: fitGradient(image, pixels, { maxResidual: 2 }),
        residual: paintResidual(image, pixels, { maxResidual: 2 }),
      })),
    );
    t.strictSame(got, want, `${channels} channels: every region as the reference fits it`);
    // another image in the next hold: none of the first one's rows is read
    const other = paint(width, height, channels, (x, y) => [255 - x * 2, y * 3, 60], 3, random);
    const wantOther = regions.map((pixels) => referenceChoosePaint(other, pixels, 2).residual);
    t.strictSame(
      withImageInKernel(other, () => regions.map((pixels) => paintResidual(other, pixels, { maxResidual: 2 }))),
      wantOther,
      `${channels} channels: a second image held after the first`,
    );
    // held inside a hold (nothing more is held), or over the size limit (nothing is): the same numbers
    t.strictSame(
      withImageInKernel(image, () =>
        withImageInKernel(other, () => regions.map((pixels) => paintResidual(other, pixels, { maxResidual: 2 }))),
      ),
      wantOther,
      `${channels} channels: another image inside a hold`,
    );
    t.strictSame(
      withImageInKernel(other, () => regions.map((pixels) => paintResidual(other, pixels, { maxResidual: 2 })), 100),
      wantOther,
      `${channels} channels: an image over the held size`,
    );
  }
});

function sameFill(a: GradientFill | null, b: GradientFill | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

t.test('regions over MAX_SAMPLES pixels are thinned the same way, and tiny ones get no fill', async (t) => {
  const random = seededRandom(77);
  const width = 160,
    height = 120;
  const image = paint(width, height, 4, (x, y) => [x * 1.5, y * 2, 255 - x], 2, random);
  for (const count of [5, 15, 16, 1024, 1025, 2049, width * height]) {
    const pixels = Int32Array.from({ length: count }, (_, i) => Math.floor((i * width * height) / count));
    const want = referenceChoosePaint(image, pixels, 3);
    t.strictSame(fitGradient(image, pixels, { maxResidual: 3 }), want.fill, `${count} pixels: the fill`);
    t.equal(paintResidual(image, pixels, { maxResidual: 3 }), want.residual, `${count} pixels: the residual`);
  }
  t.equal(
    fitGradient(
      image,
      Int32Array.from({ length: 15 }, (_, i) => i),
      { maxResidual: 3 },
    ),
    null,
    'under 16 samples: flat',
  );
});

t.test("the reference's binRamp: each bin sums exactly the colours of the samples in it, however the samples run", async (t) => {
  // Samples in runs along the ramp and scattered across it, the top of the range (t = hi) among
  // them: every bin's sums and count must equal a sample-by-sample tally, and each sample's place
  // along the ramp must be (t − lo) ÷ (hi − lo).
  const next = seededRandom(7);
  for (const [label, place] of [
    ['runs along the ramp', (i: number) => Math.floor(i / 37) * 0.9],
    ['scattered', () => next() * 40],
    ['one bin', () => 3],
  ] as Array<[string, (i: number) => number]>) {
    const n = 700;
    const r = new Float64Array(n),
      g = new Float64Array(n),
      b = new Float64Array(n),
      ramp = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      r[i] = Math.round(next() * 255);
      g[i] = Math.round(next() * 255);
      b[i] = Math.round(next() * 255);
      ramp[i] = place(i);
    }
    let lo = Infinity,
      hi = -Infinity;
    for (const v of ramp) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (hi === lo) hi = lo + 1;
    const along = new Float64Array(n);
    const { sum, count } = binRamp({ n, r, g, b }, ramp, lo, hi, along);
    const wantSum = new Float64Array(3 * PROFILE_BINS),
      wantCount = new Float64Array(PROFILE_BINS),
      wantAlong = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const f = (wantAlong[i] = (ramp[i] - lo) / (hi - lo));
      const k = Math.min(PROFILE_BINS - 1, Math.floor(f * PROFILE_BINS));
      wantSum[3 * k] += r[i];
      wantSum[3 * k + 1] += g[i];
      wantSum[3 * k + 2] += b[i];
      wantCount[k]++;
    }
    t.strictSame(Array.from(along), Array.from(wantAlong), `${label}: places along the ramp`);
    t.strictSame(Array.from(sum), Array.from(wantSum), `${label}: sums`);
    t.strictSame(Array.from(count), Array.from(wantCount), `${label}: counts`);
  }
});
