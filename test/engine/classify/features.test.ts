import t from 'tap';
import { FEATURE_COUNT, FEATURE_NAMES, extractFeatures, makeThumbnail } from '../../../engine/classify/features.js';
import { syntheticLogo, syntheticPage, syntheticPhoto } from '../../../models/lib/synthetic.js';

const feature = (values: Float32Array, name: string) => values[FEATURE_NAMES.indexOf(name)];

t.test('every image gives a finite vector of FEATURE_COUNT values, whatever its shape', async (t) => {
  for (const [w, h] of [
    [1, 1],
    [3, 900],
    [900, 2],
    [64, 64],
    [1000, 700],
  ]) {
    const image = { width: w, height: h, data: new Uint8Array(w * h * 4).fill(200) };
    const f = extractFeatures(image);
    t.equal(f.length, FEATURE_COUNT, `${w}x${h}`);
    t.ok(f.every(Number.isFinite), `${w}x${h} finite`);
  }
});

t.test('the thumbnail is an area average flattened on white', async (t) => {
  // 4x2: left half opaque black, right half fully transparent (any colour) -> black and white.
  const data = new Uint8Array(4 * 2 * 4);
  for (let y = 0; y < 2; y++)
    for (let x = 0; x < 4; x++) {
      const i = (y * 4 + x) * 4;
      if (x < 2) data.set([0, 0, 0, 255], i);
      else data.set([255, 0, 0, 0], i);
    }
  const thumb = makeThumbnail({ width: 4, height: 2, data }, 2);
  t.same(Array.from(thumb.rgb), [0, 0, 0, 255, 255, 255]);
  const half = makeThumbnail({ width: 4, height: 2, data }, 1);
  t.same(Array.from(half.rgb).map(Math.round), [128, 128, 128]);
});

t.test('features separate the kinds of image they are meant to', async (t) => {
  const logo = extractFeatures(syntheticLogo(300, 300, 1));
  const photo = extractFeatures(syntheticPhoto(300, 200, 2));
  const text = extractFeatures(syntheticPage(300, 400, 3, false));
  const lines = extractFeatures(syntheticPage(400, 300, 4, true));
  t.ok(feature(logo, 'colour_top1') > 0.5, 'a logo has one dominant background colour');
  t.ok(feature(photo, 'colour_count_log') > feature(logo, 'colour_count_log'), 'a photo has more colours');
  t.ok(
    feature(lines, 'ink_long_runs_h') + feature(lines, 'ink_long_runs_v') >
      feature(text, 'ink_long_runs_h') + feature(text, 'ink_long_runs_v'),
    'drawings have longer ink runs than text',
  );
  t.ok(feature(text, 'row_ink_cv') > feature(photo, 'row_ink_cv'), 'text sits in rows');
});

t.test('the result does not depend on resolution much: a 4x upscale gives nearly the same vector', async (t) => {
  const small = syntheticLogo(200, 150, 9);
  const big = { width: 800, height: 600, data: new Uint8Array(800 * 600 * 4) };
  for (let y = 0; y < 600; y++)
    for (let x = 0; x < 800; x++) {
      const s = ((y >> 2) * 200 + (x >> 2)) * 4,
        d = (y * 800 + x) * 4;
      big.data.set(small.data.subarray(s, s + 4), d);
    }
  const a = extractFeatures(small),
    b = extractFeatures(big);
  const worst = Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i])));
  t.ok(worst < 0.1, `largest difference ${worst}`);
});

t.test('ink measured against the local paper level survives uneven light; the light spread shows it', async (t) => {
  const even = syntheticPage(400, 400, 11, false);
  // The same page lit from the right: the left edge at 35 % brightness, as a photographed book page.
  const uneven = { ...even, data: new Uint8Array(even.data) };
  for (let y = 0; y < 400; y++)
    for (let x = 0; x < 400; x++) {
      const light = 0.35 + 0.65 * (x / 399);
      const i = (y * 400 + x) * 4;
      for (let c = 0; c < 3; c++) uneven.data[i + c] = Math.round(even.data[i + c] * light);
    }
  const a = extractFeatures(even),
    b = extractFeatures(uneven);
  t.ok(
    feature(b, 'ink_share') > feature(a, 'ink_share') + 0.1,
    `a global threshold calls the dark side ink (${feature(a, 'ink_share')} -> ${feature(b, 'ink_share')})`,
  );
  t.ok(
    Math.abs(feature(b, 'local_ink_share') - feature(a, 'local_ink_share')) < 0.05,
    `local ink barely moves (${feature(a, 'local_ink_share')} -> ${feature(b, 'local_ink_share')})`,
  );
  t.ok(feature(b, 'local_ink_row_cv') > 0.5 * feature(a, 'local_ink_row_cv'), 'text rows are still rows');
  t.ok(
    feature(b, 'light_range') > feature(a, 'light_range') + 0.3,
    `light spread ${feature(a, 'light_range')} -> ${feature(b, 'light_range')}`,
  );
});

t.test('flat fills and smooth shading are told apart', async (t) => {
  const flat = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 4) };
  const sky = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 4) };
  for (let y = 0; y < 200; y++)
    for (let x = 0; x < 300; x++) {
      const i = (y * 300 + x) * 4;
      flat.data.set([60, 120, 220, 255], i);
      // A sky: blue brightening by about half a level per thumbnail pixel towards the horizon.
      sky.data.set([60 + Math.round(y * 0.5), 120 + Math.round(y * 0.4), 220, 255], i);
    }
  const f = extractFeatures(flat),
    s = extractFeatures(sky);
  t.ok(feature(f, 'flat_share') > 0.95, `flat fill: ${feature(f, 'flat_share')}`);
  t.ok(feature(s, 'smooth_share') > 0.5, `sky: ${feature(s, 'smooth_share')}`);
  t.ok(feature(s, 'flat_share') < 0.5, `sky is not flat: ${feature(s, 'flat_share')}`);
});
