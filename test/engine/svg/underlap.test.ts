/**
 * Hidden outline runs (engine/svg/underlap.ts): where a shape runs under shapes painted after it,
 * its outline takes straight shortcuts, and nothing of it shows.
 */
import t from 'tap';
import { vectorize } from '../../../engine/index.js';
import { PathWriter } from '../../../engine/svg/index.js';
import { pathOutline } from '../../../engine/svg/path-data.js';
import { FittedChains } from '../../../engine/fit/chain.js';
import { HiddenRun, OutlineIndex, shortcutEnds, writeRunEnds, type PaintLayers } from '../../../engine/svg/underlap.js';
import { coverage, mix, png, raster, render } from '../helpers/images.js';

const WHITE = [255, 255, 255],
  BLUE = [40, 90, 170],
  ORANGE = [240, 150, 40],
  GREEN = [60, 160, 80];

/** White page; a blue rectangle; a green rectangle beside it, larger (painted first); an orange disc over the gap, on both. */
const W = 96,
  H = 64;
const image = raster(W, H, (x, y) => {
  const disc = coverage(x, y, (sx, sy) => Math.hypot(sx - 50.3, sy - 30.6) < 11.4);
  const blue = coverage(x, y, (sx, sy) => sx >= 8.4 && sx < 46.2 && sy >= 12.3 && sy < 50.7);
  const green = coverage(x, y, (sx, sy) => sx >= 53.6 && sx < 90.5 && sy >= 6.5 && sy < 58.2);
  return mix(ORANGE, mix(BLUE, mix(GREEN, WHITE, green), blue), disc);
});

function pathOf(svg: string, colour: string): string {
  return (svg.match(new RegExp(`<path fill="${colour}" d="([^"]*)"`)) ?? [])[1] ?? '';
}

t.test('a rectangle partly under a disc: its hidden side is a straight shortcut, not the disc arc', async (t) => {
  const { svg } = await vectorize(await png(image), { imageType: 'clipart', gradients: 'stepped' });
  const blue = pathOf(svg, '#285aaa');
  t.ok(blue.length > 0, 'the blue rectangle is a path');
  t.notMatch(blue, /[cC]/, `no curve in the blue outline (${blue})`);
  const green = pathOf(svg, '#3ca050');
  t.notMatch(green, /[cC]/, `no curve in the green outline (${green})`);
});

t.test('what the shortcuts hide stays hidden: the rendering matches the input, no seam, no colour over an earlier shape', async (t) => {
  const { svg } = await vectorize(await png(image), { imageType: 'clipart', gradients: 'stepped' });
  const out = render(svg, W, 1, 'white');
  let squared = 0;
  for (let i = 0; i < W * H * 4; i++) if (i % 4 !== 3) squared += (out.data[i] - image.data[i]) ** 2;
  const psnr = 10 * Math.log10((255 * 255) / (squared / (W * H * 3)));
  t.ok(psnr >= 32, `PSNR ${psnr.toFixed(1)} dB`);
  // every pixel at least 1.5 px inside one colour is that colour
  const zoom = 4;
  const big = render(svg, W, zoom, 'white');
  let wrong = 0;
  for (let y = 0; y < H * zoom; y++)
    for (let x = 0; x < W * zoom; x++) {
      const sx = (x + 0.5) / zoom,
        sy = (y + 0.5) / zoom;
      const inDisc = Math.hypot(sx - 50.3, sy - 30.6);
      const expected =
        inDisc < 11.4 - 1.5
          ? ORANGE
          : inDisc < 11.4 + 1.5
            ? null
            : sx >= 9.9 && sx < 44.7 && sy >= 13.8 && sy < 49.2
              ? BLUE
              : sx >= 55.1 && sx < 89 && sy >= 8 && sy < 56.7
                ? GREEN
                : (sx < 6.9 || sx > 92 || sy < 5 || sy > 59.7) && true
                  ? WHITE
                  : null;
      if (!expected) continue;
      const o = (y * big.width + x) * 4;
      if (Math.max(...[0, 1, 2].map((c) => Math.abs(big.data[o + c] - expected[c]))) > 24) wrong++;
    }
  t.equal(wrong, 0, 'no pixel away from an edge shows another colour');
});

t.test('close_seams=false: an exact partition, no shortcut', async (t) => {
  const { svg } = await vectorize(await png(image), { imageType: 'clipart', gradients: 'stepped', closeSeams: false });
  t.match(pathOf(svg, '#285aaa'), /[cC]/, 'the blue outline follows the disc arc');
});

t.test('a hidden run that starts with no point (its first chain had no segments) starts at its first line', async (t) => {
  const run = new HiddenRun();
  run.lineTo(2, 3);
  run.lineTo(7, 3);
  run.curveTo(8, 3, 9, 4, 9, 5);
  const writer = new PathWriter();
  writeRunEnds(writer, run, null);
  const d = writer.toString();
  t.notMatch(d, /NaN|undefined/, `no undefined point in ${d}`);
  t.match(d, /^M2 3/, 'the run opens with a moveto at its first point');
  t.equal(pathOutline(d).nodes, 3, 'the moveto, the line and the curve');
});

/**
 * A `width` x 20 image: the shape (region 0, painted second) above row 10, a shape painted after it
 * (region 1) below, and region 2 (painted first) at the pixels `earlier`. The hidden run dips from
 * (10, 15) to (width / 2, 18) and back up to (width - 10, 15): its shortcut is the line y = 15.
 * Returns the run's shortcut ends (shortcutEnds) for the given earlier pixels.
 */
function dippingRunEnds(width: number, earlier: Array<[number, number]>): number[] {
  const height = 20;
  const labels = new Int32Array(width * height);
  for (let y = 10; y < height; y++) labels.fill(1, y * width, (y + 1) * width);
  for (const [x, y] of earlier) labels[y * width + x] = 2;
  const layers: PaintLayers = { labels, width, height, rank: Int32Array.of(1, 2, 0) };
  const run = new HiddenRun(10, 15);
  run.lineTo(width / 2, 18);
  run.lineTo(width - 10, 15);
  return shortcutEnds(run, layers, 0, new OutlineIndex(new FittedChains(0), []));
}

t.test('the area a shortcut would cover is read pixel by pixel: one earlier pixel anywhere in a long row span refuses it', async (t) => {
  // 200 px wide: the shortcut covers rows 15-17 of region 1 with spans up to ~170 px, read in 16-pixel blocks.
  t.same(dippingRunEnds(200, []), [2], 'nothing earlier under it: the two segments become one line');
  // inside the covered area, below the line's own neighbourhood (rows 14-15): at a block's first
  // pixel, its last, mid-block, and towards either end of a span
  for (const [x, y] of [
    [96, 16],
    [111, 16],
    [100, 17],
    [70, 16],
    [140, 16],
  ] as Array<[number, number]>) {
    t.same(dippingRunEnds(200, [[x, y]]), [2, 1], `an earlier pixel at (${x}, ${y}) keeps both segments`);
  }
  // outside it (below the run's lowest point, left of where the span starts on its row): no effect
  t.same(dippingRunEnds(200, [[100, 18]]), [2], 'an earlier pixel below the run does not matter');
  t.same(dippingRunEnds(200, [[12, 16]]), [2], 'nor one outside the sliver at its thin end');
});

t.test(
  'one earlier pixel anywhere in a row span of hundreds of pixels refuses the shortcut (spans read by windows of blocks)',
  async (t) => {
    // 600 px wide: row 16's span under the line runs from about x = 155 to 445, eighteen blocks and
    // more, read eight at a time.
    t.same(dippingRunEnds(600, []), [2], 'nothing earlier under it: one line');
    for (const x of [160, 176, 200, 255, 256, 300, 383, 400, 431, 440]) {
      t.same(dippingRunEnds(600, [[x, 16]]), [2, 1], `an earlier pixel at (${x}, 16) keeps both segments`);
    }
    t.same(dippingRunEnds(600, [[150, 16]]), [2], 'one left of the span does not matter');
    t.same(dippingRunEnds(600, [[450, 16]]), [2], 'nor one right of it');
  },
);
