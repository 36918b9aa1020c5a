import t, { type Test } from 'tap';
import { paintSumsInKernel, type PaintPixels, type PaintSums } from '../../../engine/wasm/paint-sums.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { referencePaintSums } from '../helpers/reference-paint-sums.js';

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
