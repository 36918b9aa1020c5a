import t from 'tap';
import { prepareInBands } from '../../../engine/parallel/banded-denoise.js';
import { replaceFitWorkersForTest } from '../../../engine/parallel/pool.js';
import { prepareImage } from '../../../engine/prepare/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import type { RasterImage } from '../../../engine/types.js';

/** Noise over a few hard edges, odd height (the halves differ by a row), some pixels transparent. */
function noisy(width: number, height: number, channels: 3 | 4): RasterImage {
  let seed = 9;
  const noise = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 41) - 20;
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = channels * (y * width + x);
      const base = x < width / 3 ? 40 : y < height / 2 ? 150 : 220;
      data[o] = base + noise();
      data[o + 1] = base / 2 + noise() + 20;
      data[o + 2] = 255 - base + Math.min(0, noise());
      if (channels === 4) data[o + 3] = (x * 7 + y * 3) % 53 === 0 ? 0 : 255;
    }
  }
  return { width, height, channels, data };
}

const settings = { alphaThreshold: 128, denoisePasses: 2, denoiseRange: 24 };

/** Byte equality without tap's deep diff, which crawls over arrays of a million elements. */
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;

t.test('halves smoothed on a worker and here are the whole image smoothed here, byte for byte', async (t) => {
  for (const channels of [3, 4] as const) {
    const image = noisy(640, 513, channels);
    const here = prepareImage(image, settings, NO_CONTEXT);
    const shared = await prepareInBands(image, settings, NO_CONTEXT, { workers: 1 });
    t.ok(sameBytes(shared.rgb, here.rgb), `${channels} channels: same rgb after ${settings.denoisePasses} passes`);
    t.ok(sameBytes(shared.transparent, here.transparent), 'same transparency mask');
    t.equal(shared.hasTransparency, channels === 4);
    t.notOk(sameBytes(here.rgb, prepareImage(image, { ...settings, denoisePasses: 0 }, NO_CONTEXT).rgb), 'the passes did smooth');
  }
});

t.test('without workers, or without passes, it is prepareImage', async (t) => {
  const image = noisy(640, 513, 3);
  t.ok(sameBytes((await prepareInBands(image, settings, NO_CONTEXT, { workers: 0 })).rgb, prepareImage(image, settings, NO_CONTEXT).rgb));
  const none = await prepareInBands(image, { ...settings, denoisePasses: 0 }, NO_CONTEXT, { workers: 1 });
  t.equal(none.rgb, image.data, 'an RGB image with no passes is read in place');
});

t.test('a worker that fails gives internal_error', async (t) => {
  t.teardown(() => replaceFitWorkersForTest(null));
  await replaceFitWorkersForTest(`const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => parentPort.postMessage({ type: 'error', job: m.job, message: 'bad rows' }));`);
  await t.rejects(prepareInBands(noisy(640, 513, 3), settings, NO_CONTEXT, { workers: 1 }), {
    code: 'internal_error',
    message: /bad rows/,
  });
});
