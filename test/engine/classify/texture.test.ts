import t from 'tap';
import { TEXTURE_FEATURE_NAMES, textureFeatures } from '../../../engine/classify/texture.js';
import { gaussian, seededRandom } from '../../../models/lib/mlp.js';
import type { RgbaImage } from '../../../engine/types.js';

const feature = (values: number[], name: string) => values[TEXTURE_FEATURE_NAMES.indexOf(`texture_${name}`)];

/** A sky-like vertical gradient, optionally with Gaussian sensor noise of `sigma` levels. */
function sky(width: number, height: number, sigma: number, seed = 1): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const noise = sigma ? sigma * gaussian(random) : 0;
      const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v + noise)));
      data.set([clamp(60 + y * 0.05), clamp(120 + y * 0.04), clamp(220), 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

t.test('a flat fill has no texture at all', async (t) => {
  const flat = { width: 400, height: 300, data: new Uint8Array(400 * 300 * 4).fill(200) };
  const f = textureFeatures(flat);
  t.equal(f.length, TEXTURE_FEATURE_NAMES.length);
  t.equal(feature(f, 'calm_share'), 1);
  t.equal(feature(f, 'fine_0'), 1);
  t.equal(feature(f, 'fine_mean'), 0);
});

t.test('a rendered smooth gradient reads as smooth, the same gradient with sensor noise does not', async (t) => {
  const clean = textureFeatures(sky(1200, 800, 0));
  const noisy = textureFeatures(sky(1200, 800, 2.5));
  t.ok(feature(clean, 'fine_0') + feature(clean, 'fine_1') > 0.99, `clean: only rounding (${feature(clean, 'fine_0')})`);
  t.ok(feature(noisy, 'fine_0') < 0.2, `noisy: few exactly smooth centres (${feature(noisy, 'fine_0')})`);
  t.ok(
    feature(noisy, 'fine_2') + feature(noisy, 'fine_3') + feature(noisy, 'fine_4') > 0.5,
    `noisy: most centres show noise (${feature(noisy, 'fine_2')}, ${feature(noisy, 'fine_3')})`,
  );
  t.ok(feature(noisy, 'fine_mean') > feature(clean, 'fine_mean') + 0.2, 'the mean second difference tells them apart');
  t.ok(feature(noisy, 'wide_0') < feature(clean, 'wide_0'), 'so does the two-pixel second difference');
});

t.test('transparent pixels count as white, whatever colour they carry', async (t) => {
  const random = seededRandom(7);
  const clear = { width: 100, height: 100, data: new Uint8Array(100 * 100 * 4) };
  for (let i = 0; i < clear.data.length; i += 4) clear.data.set([random() * 255, random() * 255, random() * 255, 0], i);
  const f = textureFeatures(clear);
  t.equal(feature(f, 'fine_0'), 1);
  t.equal(feature(f, 'fine_mean'), 0);
});

t.test('images too small to measure give zeros; large ones are read on a bounded grid', async (t) => {
  t.same(
    textureFeatures({ width: 4, height: 900, data: new Uint8Array(4 * 900 * 4).fill(90) }),
    new Array(TEXTURE_FEATURE_NAMES.length).fill(0),
  );
  // A 2000×1400 noisy sky: the grid keeps the statistics of a small copy of the same sky.
  const big = textureFeatures(sky(2000, 1400, 2.5, 3));
  const small = textureFeatures(sky(600, 400, 2.5, 4));
  for (const name of TEXTURE_FEATURE_NAMES)
    t.ok(
      Math.abs(big[TEXTURE_FEATURE_NAMES.indexOf(name)] - small[TEXTURE_FEATURE_NAMES.indexOf(name)]) < 0.05,
      `${name}: ${big[TEXTURE_FEATURE_NAMES.indexOf(name)]} vs ${small[TEXTURE_FEATURE_NAMES.indexOf(name)]}`,
    );
});
