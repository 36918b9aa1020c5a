import t from 'tap';
import { smoothSimilar } from '../../../engine/prepare/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { referenceSmooth } from '../helpers/reference-denoise.js';

/** Noisy flat areas, a hard edge and a ramp, RGB; with `clear`, some transparent pixels (borders included). */
function noisyImage(width: number, height: number, seed: number, clear: boolean) {
  const random = seededRandom(seed);
  const rgb = new Uint8Array(3 * width * height);
  const transparent = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const base = x < width / 2 ? [60, 90, 120] : [200 - y, 180, 40 + x / 4];
      for (let k = 0; k < 3; k++) rgb[3 * p + k] = Math.max(0, Math.min(255, Math.round(base[k] + (random() - 0.5) * 40)));
      if (clear && (random() < 0.03 || (x === 0 && y % 3 === 0))) transparent[p] = 1;
    }
  return { rgb, transparent };
}

t.test('the kernel smooths every row as the TypeScript pass did, byte for byte', async (t) => {
  for (const [width, height, seed] of [
    [1, 1, 1],
    [3, 2, 2],
    [61, 17, 3],
    // about 65 000 pixels a band: three bands
    [300, 520, 4],
  ]) {
    for (const clear of [false, true]) {
      const { rgb, transparent } = noisyImage(width, height, seed, clear);
      for (const range of [24, 40]) {
        for (const [fromRow, toRow] of [
          [0, height],
          [Math.min(1, height), height],
          [Math.floor(height / 3), Math.floor((2 * height) / 3) + 1],
        ]) {
          const expected = referenceSmooth(
            rgb,
            transparent,
            clear,
            width,
            height,
            range,
            fromRow,
            toRow,
            new Uint8Array(rgb.length).fill(3),
          );
          const got = smoothSimilar(
            rgb,
            transparent,
            clear,
            width,
            height,
            range,
            NO_CONTEXT,
            fromRow,
            toRow,
            new Uint8Array(rgb.length).fill(3),
          );
          let differing = 0;
          for (let i = 0; i < rgb.length; i++) if (got[i] !== expected[i]) differing++;
          t.equal(differing, 0, `${width}x${height}${clear ? ' with transparency' : ''}, range ${range}, rows ${fromRow}-${toRow}`);
        }
      }
    }
  }
});

t.test('an aborted pass stops between bands', async (t) => {
  const { rgb, transparent } = noisyImage(300, 520, 5, false);
  const controller = new AbortController();
  controller.abort();
  t.throws(() => smoothSimilar(rgb, transparent, false, 300, 520, 24, { signal: controller.signal, progress() {} }));
});
