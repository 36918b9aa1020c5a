import t from 'tap';
import { prepareImage, prepareUnsmoothed } from '../../../engine/prepare/index.js';
import { floodSeeds, PLANE_STRIDE, releaseLabels, SEED_CHUNK_BITS, segmentImage } from '../../../engine/segment/index.js';
import { rowRunsOf } from '../../../engine/segment/renumber.js';
import { neighbourPairs } from '../helpers/reference-merge.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { DEFAULT_TRACE_OPTIONS, type ImageClass } from '../../../engine/types.js';
import { randomLabelRuns, raster, testCard, type Raster } from '../helpers/images.js';
import { referenceFlood } from '../helpers/reference-flood.js';
import { seededRandom } from '../helpers/bmp-writer.js';

function segment(image: Raster, mode: ImageClass = 'clipart', detail: 'low' | 'medium' | 'high' = 'high') {
  const settings = engineSettingsFor({ ...DEFAULT_TRACE_OPTIONS, detail }, mode);
  return segmentImage(prepareImage(image, settings.prepare, NO_CONTEXT), settings.segment, NO_CONTEXT);
}

t.test('every pixel gets exactly one label and the labels are a partition numbered from 0', async (t) => {
  for (const mode of ['clipart', 'photo', 'scan'] as const) {
    const seg = segment(testCard(), mode);
    const seen = new Int32Array(seg.regionCount);
    let outOfRange = 0;
    for (const l of seg.labels) {
      if (l < 0 || l >= seg.regionCount) outOfRange++;
      else seen[l]++;
    }
    t.equal(outOfRange, 0, `${mode}: every label names a region`);
    t.same(Array.from(seen), Array.from(seg.area), `${mode}: areas count the pixels`);
    t.equal(
      seg.area.reduce((a, b) => a + b, 0),
      96 * 72,
    );
  }
});

t.test('flat colour areas come out as one region each', async (t) => {
  const seg = segment(testCard());
  // background, rectangle, ring (its hole is background colour but a separate component), triangle
  t.equal(seg.regionCount, 5);
  const at = (x: number, y: number) => seg.labels[y * 96 + x];
  t.equal(at(0, 0), at(95, 71), 'the background is one region');
  t.not(at(62, 36), at(0, 0), 'the hole inside the ring is its own component');
});

t.test('anti-aliased edge pixels fold into the side they are closest to', async (t) => {
  // A slanted edge rendered with 4×4 supersampling: edge pixels carry every blend between the colours.
  const red = [200, 0, 0],
    blue = [0, 0, 255];
  const inside = (x: number, y: number) => y < 0.37 * x + 4;
  const image = raster(40, 24, (x, y) => {
    let cover = 0;
    for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) cover++;
    const a = cover / 16;
    return [0, 1, 2].map((c) => Math.round(red[c] * a + blue[c] * (1 - a))) as [number, number, number];
  });
  const seg = segment(image);
  t.equal(seg.regionCount, 2, 'just the two colours');
  let wrongSide = 0;
  for (let p = 0; p < 40 * 24; p++) {
    const r = image.data[p * 4];
    if (r > 150 && seg.labels[p] !== seg.labels[0]) wrongSide++;
    if (r < 50 && seg.labels[p] !== seg.labels[40 * 24 - 1]) wrongSide++;
  }
  t.equal(wrongSide, 0, 'mostly-red pixels are red, mostly-blue blue');
});

t.test('one-pixel diagonal strokes stay whole instead of being merged into the page', async (t) => {
  const image = raster(30, 30, (x, y) => (x === y || x === 29 - y ? [0, 0, 0] : [255, 255, 255]));
  const seg = segment(image, 'scan');
  const ink = seg.labels[0];
  for (let i = 1; i < 29; i++) t.equal(seg.labels[i * 30 + i], ink, `pixel ${i} on the diagonal`);
  t.not(ink, seg.labels[1], 'ink is not paper');
});

t.test('detail low merges more than high on a busy image', async (t) => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const cells = new Float64Array(100).map(() => random());
  const image = raster(80, 80, (x, y) => {
    const v = Math.round(80 + 60 * cells[Math.floor(y / 8) * 10 + Math.floor(x / 8)]);
    return [v, v, 200];
  });
  const high = segment(image, 'clipart', 'high').regionCount;
  const low = segment(image, 'clipart', 'low').regionCount;
  t.ok(low < high, `low ${low} < high ${high}`);
});

t.test('transparent pixels form their own regions and never merge with painted ones', async (t) => {
  const image = raster(20, 20, (x) => (x < 10 ? [10, 200, 10, 0] : [12, 198, 12, 255]));
  const seg = segment(image);
  t.equal(seg.regionCount, 2);
  t.equal(seg.transparent[seg.labels[0]], 1);
  t.equal(seg.transparent[seg.labels[15]], 0);
});

t.test('labels handed back are reused by the next segmentation, which comes out the same', async (t) => {
  const first = segment(testCard());
  const copy = Int32Array.from(first.labels);
  releaseLabels(first.labels);
  const second = segment(testCard());
  t.equal(second.labels.buffer, first.labels.buffer, 'the same shared buffer, filled again');
  t.same(Array.from(second.labels), Array.from(copy));
  t.equal(second.regionCount, first.regionCount);
  const third = segment(testCard());
  t.not(third.labels.buffer, second.labels.buffer, 'labels not handed back are never reused');
});

t.test('the flood labels and sums each seed as a pixel-by-pixel flood does', async (t) => {
  // Runs of one colour (what the flood sums in one step), short ones and every fourth row long
  // ones, broken by near and far colours, and a transparent patch with colours of its own.
  const random = seededRandom(7);
  const palette: [number, number, number][] = [
    [200, 40, 40],
    [203, 42, 38],
    [40, 180, 60],
    [44, 176, 60],
    [20, 20, 200],
    [250, 250, 250],
    // the same red and green as others, another blue: told apart by the blue alone
    [200, 40, 200],
    [40, 180, 63],
  ];
  for (const [width, height] of [
    [61, 23],
    [97, 40],
    [5, 3],
  ]) {
    let colour = palette[0];
    const image = raster(width, height, (x, y) => {
      if (x === 0 || random() < (y % 4 === 0 ? 0.03 : 0.3)) colour = palette[Math.floor(random() * palette.length)];
      const clear = x > width / 3 && x < width / 2 && y > height / 4 && y < height / 2;
      return [colour[0], colour[1], colour[2], clear ? 0 : 255];
    });
    const prepared = prepareUnsmoothed(image, { alphaThreshold: 128 } as never);
    for (const tolerance of [0, 6, 40]) {
      const flooded = floodSeeds(prepared, tolerance, NO_CONTEXT);
      const reference = referenceFlood(width, height, prepared.rgb, prepared.transparent, tolerance);
      t.same(Array.from(flooded.labels), Array.from(reference.labels), `${width}x${height}, tolerance ${tolerance}: labels`);
      t.equal(flooded.count, reference.sums.length, 'as many seeds');
      let wrong = 0;
      for (let seed = 0; seed < flooded.count; seed++) {
        const chunk = flooded.chunks[seed >> SEED_CHUNK_BITS],
          at = (seed & ((1 << SEED_CHUNK_BITS) - 1)) * PLANE_STRIDE;
        for (let k = 0; k < PLANE_STRIDE; k++) if (chunk[at + k] !== reference.sums[seed][k]) wrong++;
      }
      t.equal(wrong, 0, "every seed's sums are the pixel-by-pixel sums");
      const singles = reference.sums.flatMap((s, seed) =>
        s[0] === 1 && !prepared.transparent[reference.labels.indexOf(seed)] ? [reference.labels.indexOf(seed)] : [],
      );
      t.same(Array.from(flooded.singles), singles, 'the one-pixel seeds listed in scan order');
      releaseLabels(flooded.labels);
    }
  }
});

t.test('region pairs are noted run by run in the order a pixel-by-pixel scan meets them', async (t) => {
  const random = seededRandom(3);
  for (const [width, height, seeds] of [
    [1, 6, 3],
    [7, 1, 3],
    [23, 17, 5],
    [50, 31, 9],
  ]) {
    // runs of one seed, long and short; seed 0 transparent (never paired)
    const labels = randomLabelRuns(width, height, seeds, 0.35, random);
    const transparent = Uint8Array.from({ length: seeds }, (_, s) => (s === 0 ? 1 : 0));
    const identity = Int32Array.from({ length: seeds }, (_, s) => s);
    // each pair's first meeting in a scan: every pixel against its right neighbour, then the one below
    const expected: string[] = [];
    const met = new Set<string>();
    for (let p = 0; p < labels.length; p++) {
      const x = p % width;
      for (const q of [x + 1 < width ? p + 1 : -1, p + width < labels.length ? p + width : -1]) {
        if (q < 0 || labels[q] === labels[p] || transparent[labels[p]] || transparent[labels[q]]) continue;
        const key = `${Math.min(labels[p], labels[q])}-${Math.max(labels[p], labels[q])}`;
        if (!met.has(key)) expected.push(key);
        met.add(key);
      }
    }
    const { edgeA, edgeB, pairCount } = neighbourPairs(
      labels,
      width,
      height,
      seeds,
      transparent,
      identity,
      rowRunsOf(labels, width, height),
    );
    const noted = Array.from({ length: pairCount }, (_, e) => `${edgeA[e]}-${edgeB[e]}`);
    t.same([...new Set(noted)], expected, `${width}x${height}: every pair, first met in scan order`);
  }
});

t.test('a flood of more seeds than a chunk holds fills chunk after chunk as a pixel-by-pixel flood does', async (t) => {
  // far-apart colours at random: most seeds are one or two pixels, about 14 000 in all
  const random = seededRandom(11);
  const width = 150,
    height = 120;
  const image = raster(width, height, (x, y) => {
    const k = Math.floor(random() * 27);
    const clear = x > 100 && y > 90;
    return [(k % 3) * 120, (Math.floor(k / 3) % 3) * 120, Math.floor(k / 9) * 120, clear ? 0 : 255];
  });
  const prepared = prepareUnsmoothed(image, { alphaThreshold: 128 } as never);
  const flooded = floodSeeds(prepared, 6, NO_CONTEXT);
  const reference = referenceFlood(width, height, prepared.rgb, prepared.transparent, 6);
  t.ok(flooded.count > 1 << SEED_CHUNK_BITS, `more seeds (${flooded.count}) than one chunk holds`);
  t.equal(flooded.chunks.length, Math.ceil(flooded.count / (1 << SEED_CHUNK_BITS)), 'one chunk per 8 192 seeds');
  t.same(Array.from(flooded.labels), Array.from(reference.labels), 'labels');
  let wrong = 0;
  for (let seed = 0; seed < flooded.count; seed++) {
    const chunk = flooded.chunks[seed >> SEED_CHUNK_BITS],
      at = (seed & ((1 << SEED_CHUNK_BITS) - 1)) * PLANE_STRIDE;
    for (let k = 0; k < PLANE_STRIDE; k++) if (chunk[at + k] !== reference.sums[seed][k]) wrong++;
  }
  t.equal(wrong, 0, "every seed's sums");
  const firstPixel = new Map<number, number>();
  reference.labels.forEach((label, p) => {
    if (!firstPixel.has(label)) firstPixel.set(label, p);
  });
  t.same(
    Array.from(flooded.transparent),
    reference.sums.map((_, seed) => prepared.transparent[firstPixel.get(seed)!]),
    'which seeds are transparent',
  );
  t.same(
    Array.from(flooded.singles),
    reference.sums.flatMap((s, seed) => (s[0] === 1 && !prepared.transparent[firstPixel.get(seed)!] ? [firstPixel.get(seed)!] : [])),
    'the one-pixel painted seeds, in scan order',
  );
  releaseLabels(flooded.labels);
});

t.test('exactly one chunk of seeds, then a long stretch of one region, fills one chunk', async (t) => {
  // 8 192 seeds in the first rows (one region down the left edge, 8 191 one-pixel seeds of colours
  // no neighbour shares), then 140 000 pixels of that first region: the flood's batches end at a
  // chunk's last seed and then scan labelled pixels only.
  const width = 128,
    height = 1165;
  const palette: [number, number, number][] = [
    [200, 0, 0],
    [0, 200, 0],
    [0, 0, 200],
    [200, 200, 0],
    [0, 200, 200],
  ];
  const singles = 8191;
  const image = raster(width, height, (x, y) => {
    const index = y * (width - 1) + (x - 1);
    if (x === 0 || index >= singles) return [0, 0, 0, 255];
    return [...palette[(x + 2 * y) % 5], 255];
  });
  const prepared = prepareUnsmoothed(image, { alphaThreshold: 128 } as never);
  const flooded = floodSeeds(prepared, 6, NO_CONTEXT);
  t.equal(flooded.count, 1 << SEED_CHUNK_BITS, 'one chunk of seeds exactly');
  t.equal(flooded.chunks.length, 1, 'and one chunk');
  const reference = referenceFlood(width, height, prepared.rgb, prepared.transparent, 6);
  t.same(Array.from(flooded.labels), Array.from(reference.labels), 'labels');
  releaseLabels(flooded.labels);
});
