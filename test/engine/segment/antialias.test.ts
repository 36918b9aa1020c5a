import t from 'tap';
import { prepareImage } from '../../../engine/prepare/index.js';
import { segmentImage } from '../../../engine/segment/index.js';
import { absorbAntialiasBands } from '../../../engine/segment/antialias.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';
import { mix, raster, type Raster } from '../helpers/images.js';

function segment(image: Raster, absorbBands = true) {
  const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
  return segmentImage(prepareImage(image, settings.prepare, NO_CONTEXT), { ...settings.segment, absorbBands }, NO_CONTEXT);
}

const GREEN = [40, 170, 60],
  PURPLE = [120, 30, 150];

t.test('a long anti-aliasing band between two fills goes, pixel by pixel, to the side that covers more of it', async (t) => {
  // a vertical edge at x = 20.3 at the top drifting to x = 20.7 at the bottom: column 20 is a band
  // of mixes, 30 % green at the top, 70 % at the bottom
  const edge = (y: number) => 20.3 + (0.4 * y) / 47;
  const image = raster(40, 48, (x, y) => {
    const green = Math.min(1, Math.max(0, edge(y + 0.5) - x));
    return [0, 1, 2].map((c) => Math.round(GREEN[c] * green + PURPLE[c] * (1 - green))) as [number, number, number];
  });
  const kept = segment(image, false);
  t.equal(kept.regionCount, 3, 'without absorbing, the band is a region of its own');
  const seg = segment(image);
  t.equal(seg.regionCount, 2, 'with it, just the two fills');
  const green = seg.labels[0],
    purple = seg.labels[39];
  for (let y = 0; y < 48; y++) {
    const share = edge(y + 0.5) - 20;
    t.equal(seg.labels[y * 40 + 20], share >= 0.5 ? green : purple, `row ${y}: ${Math.round(share * 100)} % green`);
  }
});

t.test('a thin line whose colour is no mix of its neighbours stays', async (t) => {
  const image = raster(40, 30, (x) => (x === 20 ? [10, 10, 10] : x < 20 ? [250, 250, 250] : [200, 200, 120]));
  const seg = segment(image);
  t.equal(seg.regionCount, 3);
  t.not(seg.labels[20], seg.labels[19]);
  t.not(seg.labels[20], seg.labels[21]);
});

t.test('regions are renumbered in scan order with their areas and transparency', async (t) => {
  // labels: 0 | band 1 | 2, the band's pixels a half-and-half mix
  const width = 6,
    height = 4;
  const rgb = new Uint8Array(3 * width * height);
  const labels = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const colour = x < 2 ? [0, 0, 0] : x === 2 ? [y < 2 ? 160 : 100, 0, 0] : [255, 0, 0];
      rgb.set(colour, 3 * p);
      labels[p] = x < 2 ? 0 : x === 2 ? 1 : 2;
    }
  }
  const out = absorbAntialiasBands(
    { width, height, rgb },
    { labels, regionCount: 3, area: Int32Array.from([8, 4, 12]), transparent: new Uint8Array(3) },
  );
  t.equal(out.regionCount, 2);
  t.same(Array.from(out.area), [10, 14]);
  t.same(Array.from(labels.subarray(0, 6)), [0, 0, 1, 1, 1, 1], 'the lighter mixes join the red side');
  t.same(Array.from(labels.subarray(18, 24)), [0, 0, 0, 1, 1, 1], 'the darker ones the black side');
});

t.test('two bands side by side along an axis-aligned edge are a thin strip of its own, not anti-aliasing', async (t) => {
  // dark | a grey strip from x = 20.25 to 21.5 | light: columns 20 and 21 are both mixes of dark and
  // light, which no single edge makes (across a vertical edge only one pixel is a mix)
  const DARK: [number, number, number] = [52, 52, 52],
    GREY: [number, number, number] = [150, 150, 150],
    LIGHT: [number, number, number] = [219, 220, 221];
  const image = raster(40, 48, (x) => {
    if (x === 20) return mix(DARK, GREY, 0.25);
    if (x === 21) return mix(GREY, LIGHT, 0.5);
    return x < 20 ? DARK : LIGHT;
  });
  const seg = segment(image);
  t.equal(seg.regionCount, 3, 'dark, strip and light');
  for (const y of [0, 20, 47]) {
    t.equal(seg.labels[y * 40 + 20], seg.labels[y * 40 + 21], `row ${y}: both columns are the strip`);
    t.not(seg.labels[y * 40 + 20], seg.labels[y * 40 + 19], `row ${y}: not the dark side`);
    t.not(seg.labels[y * 40 + 21], seg.labels[y * 40 + 22], `row ${y}: not the light side`);
  }
});

t.test('a dark line beside a white line stays two lines: neither is a mix of the fills on each side', async (t) => {
  const BLUE: [number, number, number] = [150, 170, 240],
    NAVY: [number, number, number] = [30, 40, 90];
  const image = raster(40, 48, (x) => (x === 20 ? [10, 10, 10] : x === 21 ? [250, 250, 250] : x < 20 ? NAVY : BLUE));
  const seg = segment(image);
  t.equal(seg.regionCount, 4, 'navy, black, white, blue');
  t.not(seg.labels[20 * 40 + 20], seg.labels[20 * 40 + 21], 'the two lines apart');
});
