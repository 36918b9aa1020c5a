import t from 'tap';
import { chooseBandSides, type BandSides } from '../../../engine/wasm/band-sides.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { randomLabelRuns } from '../helpers/images.js';
import { referenceBandSides } from '../helpers/reference-band-sides.js';

/**
 * Random regions, some of them bands (their pixels mixes of two other regions' colours, some a
 * third colour off the line), some transparent; the band pixels listed in scan order.
 */
function randomSides(width: number, height: number, regionCount: number, seed: number): BandSides {
  const random = seededRandom(seed);
  const labels = randomLabelRuns(width, height, regionCount, 0.3, random);
  const band = new Uint8Array(regionCount);
  const unjoinable = new Uint8Array(regionCount);
  const mean = new Float64Array(3 * regionCount);
  for (let r = 0; r < regionCount; r++) {
    band[r] = random() < 0.3 ? 1 : 0;
    unjoinable[r] = band[r] || random() < 0.05 ? 1 : 0;
    for (let k = 0; k < 3; k++) mean[3 * r + k] = (random() < 0.5 ? 40 : 200) + random() * 30;
    // regions of the same mean colour: pairs that tie, where the first pair found must win
    if (r > 0 && random() < 0.3) mean.copyWithin(3 * r, 3 * (r - 1), 3 * r);
  }
  const rgb = new Uint8Array(3 * width * height);
  for (let p = 0; p < width * height; p++) {
    const a = mean.subarray(3 * labels[p], 3 * labels[p] + 3),
      b = mean.subarray(3 * ((labels[p] + 1) % regionCount), 3 * ((labels[p] + 1) % regionCount) + 3);
    const share = random(),
      off = random() < 0.2 ? 40 : 0;
    for (let k = 0; k < 3; k++) rgb[3 * p + k] = Math.max(0, Math.min(255, Math.round(a[k] + share * (b[k] - a[k]) + off)));
  }
  const listed: number[] = [];
  for (let p = 0; p < width * height; p++) if (band[labels[p]] || random() < 0.02) listed.push(p);
  const pixels = Int32Array.from(listed);
  return {
    width,
    height,
    labels,
    rgb,
    pixels,
    movedTo: new Int32Array(pixels.length).fill(-7),
    unjoinable,
    band,
    mean,
    minContrast2: 24 * 24,
    offLine2: 0.3 * 0.3,
  };
}

t.test('the kernel sends every band pixel where the TypeScript choice sent it', async (t) => {
  for (const [width, height, regionCount, seed] of [
    [30, 20, 12, 1],
    [1, 40, 5, 2],
    [40, 1, 5, 3],
    [3, 3, 4, 4],
    [300, 400, 40, 5],
  ]) {
    const sides = randomSides(width, height, regionCount, seed);
    const expected = new Int32Array(sides.pixels.length);
    const expectedMoves = referenceBandSides({ ...sides, movedTo: expected });
    for (const bandPixels of [undefined, width, 5 * width + 1]) {
      const movedTo = new Int32Array(sides.pixels.length).fill(-7);
      const moves = chooseBandSides({ ...sides, movedTo, bandPixels });
      const bands = bandPixels === undefined ? 'default' : `${Math.floor(bandPixels / width)}-row`;
      t.equal(moves, expectedMoves, `${width}x${height}, ${bands} bands: ${expectedMoves} moves`);
      t.same(Array.from(movedTo), Array.from(expected), `${width}x${height}, ${bands} bands: every pixel's side`);
    }
    if (width * height > 100) t.ok(expectedMoves > 0 && expectedMoves < sides.pixels.length, 'some pixels move, some stay');
  }
});
