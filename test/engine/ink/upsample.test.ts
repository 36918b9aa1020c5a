import t from 'tap';
import { halveGraph, upsampleTwice } from '../../../engine/ink/upsample.js';
import type { BoundaryGraph } from '../../../engine/boundary/index.js';
import type { PreparedImage } from '../../../engine/prepare/index.js';

/** A prepared RGB image from a grey level per pixel. */
function prepared(
  width: number,
  height: number,
  grey: (x: number, y: number) => number,
  transparentAt?: (x: number, y: number) => boolean,
): PreparedImage {
  const rgb = new Uint8Array(width * height * 3);
  const transparent = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      rgb.fill(grey(x, y), 3 * (y * width + x), 3 * (y * width + x) + 3);
      transparent[y * width + x] = transparentAt?.(x, y) ? 1 : 0;
    }
  return { width, height, source: { width, height, data: rgb, channels: 3 }, rgb, transparent, hasTransparency: transparent.includes(1) };
}

t.test('a flat page stays flat at twice the size', async (t) => {
  const up = upsampleTwice(prepared(5, 4, () => 200));
  t.equal(up.width, 10);
  t.equal(up.height, 8);
  t.equal(up.rgb.length, 10 * 8 * 3);
  t.ok(
    up.rgb.every((v) => v === 200),
    'every channel of every pixel is the input level',
  );
  t.equal(up.source.channels, 3);
  t.ok(
    up.source.data.every((v) => v === 200),
    'the source is upsampled too',
  );
});

t.test('an edge stays where it was, as a ramp between the two sides', async (t) => {
  // dark (40) left of x = 4, light (240) from x = 4: the edge is at 4, which is 8 at twice the size
  const up = upsampleTwice(prepared(8, 2, (x) => (x < 4 ? 40 : 240)));
  const row = Array.from({ length: 16 }, (_, x) => up.rgb[3 * x]);
  t.ok(row[7] < 140 && row[8] > 140, `the mid level is crossed between pixels 7 and 8 (${row.join(' ')})`);
  t.equal(row[0], 40, 'far from the edge the dark side is its own level');
  t.equal(row[15], 240, 'and the light side its own');
  t.ok(row[6] < row[7] && row[7] < row[8] && row[8] < row[9], 'the pixels at the edge ramp from one side to the other');
  t.ok(
    row.every((v) => v >= 0 && v <= 255),
    'the cubic overshoot is clamped to 8 bits',
  );
});

t.test('transparency is copied, not blended', async (t) => {
  const up = upsampleTwice(
    prepared(
      4,
      4,
      () => 128,
      (x, y) => x === 1 && y === 2,
    ),
  );
  const clear: number[] = [];
  up.transparent.forEach((v, i) => v && clear.push(i));
  t.same(clear, [4 * 8 + 2, 4 * 8 + 3, 5 * 8 + 2, 5 * 8 + 3], 'the four pixels the transparent one became');
  t.equal(up.hasTransparency, true);
});

t.test('halving a graph scales its chains, each array once', async (t) => {
  const shared = Float64Array.from([0, 0, 4, 0, 4, 6]);
  const graph = {
    width: 8,
    height: 12,
    chains: [
      { points: shared, cracks: shared, closed: false, right: 0, left: -1, firstDir: 0, lastDir: 1, area2: 0 },
      {
        points: Float64Array.from([1, 1, 3, 3]),
        cracks: Float64Array.from([2, 2, 6, 6]),
        closed: false,
        right: 0,
        left: 1,
        firstDir: 0,
        lastDir: 1,
        area2: 0,
      },
    ],
    outlines: [],
  } as BoundaryGraph;
  halveGraph(graph, 4, 6);
  t.equal(graph.width, 4);
  t.equal(graph.height, 6);
  t.same([...graph.chains[0].points], [0, 0, 2, 0, 2, 3], 'points shared with the cracks are halved once');
  t.same([...graph.chains[1].points], [0.5, 0.5, 1.5, 1.5]);
  t.same([...graph.chains[1].cracks], [1, 1, 3, 3]);
});
