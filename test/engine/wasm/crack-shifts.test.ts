import t from 'tap';
import { buildBoundaryGraph } from '../../../engine/boundary/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { crackShiftsInKernel } from '../../../engine/wasm/crack-shifts.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { referenceCrackShift } from '../helpers/reference-crack-shifts.js';

/**
 * Blobs of a few colours with anti-aliased edges (each pixel a mix of its own colour and a
 * neighbour's, some a third colour off the line), labelled by the colour that covers more of it;
 * the chains of the boundary graph between them, closed ones (a square in the corner) and open ones.
 */
function randomImage(width: number, height: number, seed: number) {
  const random = seededRandom(seed);
  const colours = Array.from({ length: 6 }, () => [random() * 255, random() * 255, random() * 255]);
  const centres = Array.from({ length: 9 }, () => [random() * width, random() * height, 3 + random() * 10]);
  const labels = new Int32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let region = 0;
      for (let k = 0; k < centres.length; k++) if (Math.hypot(x - centres[k][0], y - centres[k][1]) < centres[k][2]) region = 1 + (k % 5);
      // a square ringed by region 0 in the corner: one closed chain at least
      if (x < 10 && y < 10) region = x >= 3 && x < 7 && y >= 3 && y < 7 ? 5 : 0;
      labels[y * width + x] = region;
    }
  const rgb = new Uint8Array(3 * width * height);
  for (let p = 0; p < width * height; p++) {
    const own = colours[labels[p]],
      other = colours[labels[Math.min(width * height - 1, p + 1)]];
    const share = random() < 0.3 ? random() * 0.5 : 0,
      off = random() < 0.1 ? 60 : 0;
    for (let c = 0; c < 3; c++) rgb[3 * p + c] = Math.max(0, Math.min(255, Math.round(own[c] + share * (other[c] - own[c]) + off)));
  }
  const mean = new Float64Array(18);
  const area = new Float64Array(6);
  for (let p = 0; p < width * height; p++) {
    area[labels[p]]++;
    for (let c = 0; c < 3; c++) mean[3 * labels[p] + c] += rgb[3 * p + c];
  }
  for (let r = 0; r < 6; r++) for (let c = 0; c < 3; c++) mean[3 * r + c] /= Math.max(1, area[r]);
  const graph = buildBoundaryGraph(labels, width, height, 6, NO_CONTEXT);
  return { image: { width, height, rgb }, labels, mean, chains: graph.chains.filter((c) => c.right >= 0 && c.left >= 0) };
}

t.test('every crack gets the shift the plain definition gives, to the bit', async (t) => {
  for (const [seed, width, height] of [
    [1, 40, 30],
    [2, 23, 57],
    [3, 64, 64],
  ] as const) {
    const { image, labels, mean, chains } = randomImage(width, height, seed);
    t.ok(chains.some((c) => c.closed) && chains.some((c) => !c.closed), `seed ${seed}: closed chains and open ones`);
    const { shifts, first } = crackShiftsInKernel({ ...image, labels, mean, chains });
    let moved = 0,
      unlike = 0;
    for (let k = 0; k < chains.length; k++) {
      const cracks = chains[k].closed ? chains[k].points.length >> 1 : (chains[k].points.length >> 1) - 1;
      t.equal(first[k + 1] - first[k], cracks, `seed ${seed}, chain ${k}: one shift per crack`);
      for (let i = 0; i < cracks; i++) {
        const expected = referenceCrackShift(image, labels, mean, chains[k], i);
        if (!Object.is(shifts[first[k] + i], expected)) unlike++;
        if (expected !== 0) moved++;
      }
    }
    t.equal(unlike, 0, `seed ${seed}: every shift the same double`);
    t.ok(moved > 20, `seed ${seed}: cracks moved (${moved})`);
  }
});
