import t from 'tap';
import { vectorize } from '../../../engine/index.js';
import { prepareImage } from '../../../engine/prepare/index.js';
import { segmentImage } from '../../../engine/segment/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { joinGradientBands, type GradientBandSettings } from '../../../engine/segment/gradient-bands.js';
import { engineSettingsFor } from '../../../engine/settings.js';
import { DEFAULT_TRACE_OPTIONS } from '../../../engine/types.js';
import { png, raster, render, type Raster } from '../helpers/images.js';

const SETTINGS: GradientBandSettings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart').segment.gradientBands!;

/** A shaded ball: white at a highlight up and left of centre, darkening to the rim, anti-aliased on white. */
function shadedBall(size: number): Raster {
  const c = size / 2,
    radius = size * 0.4;
  const hx = c - radius * 0.3,
    hy = c - radius * 0.3;
  return raster(size, size, (x, y) => {
    let inside = 0;
    for (let sy = 0; sy < 4; sy++) {
      for (let sx = 0; sx < 4; sx++) {
        const dx = x + (sx + 0.5) / 4 - c,
          dy = y + (sy + 0.5) / 4 - c;
        if (dx * dx + dy * dy < radius * radius) inside++;
      }
    }
    const coverage = inside / 16;
    const shade = Math.min(1, Math.hypot(x + 0.5 - hx, y + 0.5 - hy) / (1.3 * radius));
    const ball = [245 - 170 * shade, 245 - 150 * shade, 250 - 100 * shade];
    return ball.map((v) => Math.round(v * coverage + 255 * (1 - coverage))) as [number, number, number];
  });
}

function meanError(a: Raster, b: Raster): number {
  let sum = 0;
  for (let i = 0; i < a.width * a.height; i++) for (let k = 0; k < 3; k++) sum += Math.abs(a.data[4 * i + k] - b.data[4 * i + k]);
  return sum / (3 * a.width * a.height);
}

t.test('the rings a radially shaded ball is banded into join into a few radial-gradient shapes', async (t) => {
  // The merging's colour planes leave the curved ramp as about two dozen rings and arcs of rings.
  const ball = shadedBall(120);
  const settings = engineSettingsFor(DEFAULT_TRACE_OPTIONS, 'clipart');
  const apart = segmentImage(prepareImage(ball, settings.prepare, NO_CONTEXT), { ...settings.segment, gradientBands: null }, NO_CONTEXT);
  const joined = segmentImage(prepareImage(ball, settings.prepare, NO_CONTEXT), settings.segment, NO_CONTEXT);
  t.ok(joined.regionCount <= apart.regionCount / 3, `${joined.regionCount} regions joined, ${apart.regionCount} apart`);
  const { svg } = await vectorize(await png(ball), { imageType: 'clipart' });
  const radial = (svg.match(/<radialGradient\b/g) ?? []).length;
  t.ok(radial >= 1 && radial <= 3, `${radial} radial gradients paint the ball`);
  const error = meanError(render(svg, ball.width, 1, 'white'), ball);
  t.ok(error < 2, `rendered back, the mean channel error is small (${error.toFixed(2)})`);
});

/** Labels in vertical stripes `width` px wide over an image `columns` stripes wide. */
function stripes(image: Raster, width: number) {
  const labels = new Int32Array(image.width * image.height);
  for (let p = 0; p < labels.length; p++) labels[p] = Math.floor((p % image.width) / width);
  const regionCount = Math.ceil(image.width / width);
  const area = new Int32Array(regionCount);
  for (const l of labels) area[l]++;
  return { labels, regionCount, area, transparent: new Uint8Array(regionCount) };
}

t.test('the bands of a smooth ramp join into one region', async (t) => {
  const ramp = raster(60, 30, (x) => [40 + 3 * x, 60 + 2 * x, 200 - x]);
  const joined = joinGradientBands(ramp, stripes(ramp, 6), SETTINGS);
  t.equal(joined.regionCount, 1);
  t.same(Array.from(joined.area), [60 * 30]);
});

t.test('a faint hard edge between two flat fills stays', async (t) => {
  // 12 levels apart: a soft step, but in one pixel, and each side is flat
  const image = raster(40, 30, (x) => (x < 20 ? [120, 120, 120] : [132, 132, 132]));
  const joined = joinGradientBands(image, stripes(image, 20), SETTINGS);
  t.equal(joined.regionCount, 2);
});

t.test('a ramp beside a flat fill of another colour: only the ramp joins', async (t) => {
  // columns 0–29 ramp in steps of 2 per pixel; columns 30–39 a flat blue far from the ramp's end
  const image = raster(40, 30, (x) => (x < 30 ? [100 + 2 * x, 100 + 2 * x, 100] : [20, 40, 220]));
  const regions = stripes(image, 10);
  const joined = joinGradientBands(image, regions, SETTINGS);
  t.equal(joined.regionCount, 2);
  t.equal(joined.labels[0], joined.labels[29]);
  t.not(joined.labels[29], joined.labels[30]);
});
