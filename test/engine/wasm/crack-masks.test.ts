import t from 'tap';
import { crackMasksInKernel } from '../../../engine/wasm/crack-masks.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { randomLabelRuns } from '../helpers/images.js';

/**
 * Every vertex's crack mask as the definition reads: the crack leaving vertex (x, y) eastwards runs
 * between pixels (x, y - 1) and (x, y), southwards between (x - 1, y) and (x, y), and so on; it is
 * a boundary crack where the two labels differ, the image outside counting as a label of its own.
 */
function referenceMasks(labels: Int32Array, width: number, height: number) {
  const label = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? -1 : labels[y * width + x]);
  const V = width + 1;
  const masks = new Uint8Array(V * (height + 1));
  let boundaryCracks = 0;
  for (let y = 0; y <= height; y++)
    for (let x = 0; x <= width; x++) {
      let mask = 0;
      if (x < width && label(x, y - 1) !== label(x, y)) mask |= 1;
      if (y < height && label(x - 1, y) !== label(x, y)) mask |= 2;
      if (x > 0 && label(x - 1, y - 1) !== label(x - 1, y)) mask |= 4;
      if (y > 0 && label(x - 1, y - 1) !== label(x, y - 1)) mask |= 8;
      masks[y * V + x] = mask;
      boundaryCracks += (mask & 1) + ((mask >> 1) & 1);
    }
  const junctions: number[] = [];
  for (let v = 0; v < masks.length; v++)
    if (((masks[v] >> 0) & 1) + ((masks[v] >> 1) & 1) + ((masks[v] >> 2) & 1) + ((masks[v] >> 3) & 1) >= 3) junctions.push(v);
  return { masks, boundaryCracks, junctions };
}

t.test('the kernel marks every boundary crack at both its ends and lists the junctions in scan order', async (t) => {
  // widths around multiples of four (the kernel compares four pixels at a time), one-pixel rows
  // and columns, few and many labels
  for (const [seed, width, height, labelCount, changeChance] of [
    [1, 1, 1, 1, 0],
    [2, 1, 9, 3, 0.5],
    [3, 9, 1, 3, 0.5],
    [4, 4, 4, 2, 0.3],
    [5, 5, 7, 4, 0.4],
    [6, 37, 23, 6, 0.1],
    [7, 64, 48, 40, 0.02],
    [8, 131, 67, 300, 0.3],
  ] as const) {
    const labels = randomLabelRuns(width, height, labelCount, changeChance, seededRandom(seed));
    const expected = referenceMasks(labels, width, height);
    const masks = crackMasksInKernel(labels, width, height);
    const name = `${width}x${height}, ${labelCount} labels`;
    t.same(Array.from(masks.cracks), Array.from(expected.masks), `${name}: masks`);
    t.same(Array.from(masks.untraced), Array.from(expected.masks), `${name}: untraced starts as the masks`);
    t.equal(masks.boundaryCracks, expected.boundaryCracks, `${name}: boundary cracks counted`);
    t.same(Array.from(masks.junctions), expected.junctions, `${name}: junctions`);
    masks.release();
  }
});

t.test('the next loop start is the next vertex whose eastward crack is still untraced', async (t) => {
  const width = 40,
    height = 30;
  const labels = randomLabelRuns(width, height, 5, 0.05, seededRandom(11));
  const masks = crackMasksInKernel(labels, width, height);
  const vertices = (width + 1) * (height + 1);
  const next = (from: number) => {
    for (let v = from; v < vertices; v++) if (masks.untraced[v] & 1) return v;
    return vertices;
  };
  const random = seededRandom(12);
  for (let step = 0; step < 200; step++) {
    const from = Math.floor(random() * vertices);
    t.equal(masks.nextLoopStart(from), next(from), `from ${from}`);
    // clear a few bits, as walks do
    masks.untraced[Math.floor(random() * vertices)] &= ~1;
  }
  for (let v = 0; v < vertices; v++) masks.untraced[v] &= ~1;
  t.equal(masks.nextLoopStart(0), vertices, 'none left: the vertex count');
  masks.release();
});
