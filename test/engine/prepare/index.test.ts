import t from 'tap';
import { prepareImage, releaseSmoothed } from '../../../engine/prepare/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { raster } from '../helpers/images.js';

const settings = { alphaThreshold: 128, denoisePasses: 0, denoiseRange: 24 };

t.test('alpha below 128 marks a pixel transparent; colours are kept as they are', async (t) => {
  const image = raster(4, 1, (x) => [10 * x, 20, 30, [0, 127, 128, 255][x]]);
  const prepared = prepareImage(image, settings, NO_CONTEXT);
  t.same(Array.from(prepared.transparent), [1, 1, 0, 0]);
  t.equal(prepared.hasTransparency, true);
  t.same(Array.from(prepared.rgb.subarray(0, 12)), [0, 20, 30, 10, 20, 30, 20, 20, 30, 30, 20, 30]);
  t.equal(prepared.source, image, 'fills are coloured from the untouched source');
});

t.test('an RGB image (no alpha channel) is compared as it is: same rgb as its RGBA form, nothing transparent', async (t) => {
  const rgba = raster(5, 3, (x, y) => [40 * x, 30 * y, 7 * x * y, 255]);
  const rgb = Uint8Array.from({ length: 15 * 3 }, (_, i) => rgba.data[4 * Math.floor(i / 3) + (i % 3)]);
  for (const denoisePasses of [0, 1]) {
    const fromRgba = prepareImage(rgba, { ...settings, denoisePasses }, NO_CONTEXT);
    const fromRgb = prepareImage({ width: 5, height: 3, channels: 3, data: rgb }, { ...settings, denoisePasses }, NO_CONTEXT);
    t.same(fromRgb.rgb, fromRgba.rgb, `same rgb, ${denoisePasses} denoise passes`);
    t.equal(fromRgb.hasTransparency, false);
    t.same(fromRgb.transparent, new Uint8Array(15));
  }
  t.same(
    Array.from(rgb),
    Array.from({ length: 45 }, (_, i) => rgba.data[4 * Math.floor(i / 3) + (i % 3)]),
    'the input is left as it was',
  );
});

t.test('denoise smooths noise but keeps an edge sharp', async (t) => {
  let seed = 3;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 9) - 4;
  const image = raster(20, 20, (x) => (x < 10 ? [60 + noise(), 60, 60] : [200 + noise(), 200, 200]));
  const prepared = prepareImage(image, { ...settings, denoisePasses: 1 }, NO_CONTEXT);
  let spreadBefore = 0,
    spreadAfter = 0;
  for (let y = 1; y < 19; y++) {
    for (let x = 1; x < 8; x++) {
      spreadBefore += Math.abs(image.data[(y * 20 + x) * 4] - 60);
      spreadAfter += Math.abs(prepared.rgb[(y * 20 + x) * 3] - 60);
    }
    t.ok(prepared.rgb[(y * 20 + 9) * 3] < 70 && prepared.rgb[(y * 20 + 10) * 3] > 190, 'edge stays where it was');
  }
  t.ok(spreadAfter < spreadBefore / 1.5, `noise shrinks (${spreadBefore} → ${spreadAfter})`);
});

t.test('a denoised buffer given back is written again by the next pass; the decoded bytes are never handed out', async (t) => {
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 9) - 4;
  const a = raster(16, 12, (x) => [100 + noise(), 40 + x, 90, 255]);
  const b = raster(16, 12, (x, y) => [30 + 5 * y, 200 + noise(), 10 * (x % 3), 255]);
  const denoised = { ...settings, denoisePasses: 1 };
  const first = prepareImage(a, denoised, NO_CONTEXT);
  const kept = first.rgb.buffer;
  releaseSmoothed(first.rgb);
  const reused = prepareImage(b, denoised, NO_CONTEXT);
  t.equal(reused.rgb.buffer, kept, 'the buffer given back is taken again');
  const fresh = prepareImage(b, denoised, NO_CONTEXT);
  t.not(fresh.rgb.buffer, kept, 'a buffer still in use is not handed out twice');
  t.same(Array.from(reused.rgb), Array.from(fresh.rgb), "a kept buffer's old contents leave no trace");

  // larger than any buffer above, so a pool that kept it would hand it to the next pass of its size
  const rgbImage = { width: 40, height: 30, channels: 3 as const, data: new Uint8Array(3600).fill(9) };
  const unsmoothed = prepareImage(rgbImage, settings, NO_CONTEXT);
  t.equal(unsmoothed.rgb, rgbImage.data, 'no pass: the decoded bytes themselves');
  releaseSmoothed(unsmoothed.rgb);
  const next = prepareImage({ ...rgbImage, data: new Uint8Array(3600).fill(5) }, denoised, NO_CONTEXT);
  t.not(next.rgb.buffer, rgbImage.data.buffer, 'the decoded bytes were not kept');
});
