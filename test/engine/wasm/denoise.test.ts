import t from 'tap';
import { smoothSimilar } from '../../../engine/prepare/index.js';
import { NO_CONTEXT } from '../../../engine/stage.js';
import { smoothRowsInKernel } from '../../../engine/wasm/denoise.js';
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

/**
 * Images for the kernel's SIMD lanes (engine/wasm/assembly/denoise.ts smoothInLanes) and their
 * edges, by kind: uniform noise (every distance, sums of squares past 16 bits); flat blocks with
 * hard edges and a little noise; and a palette whose colours lie exactly range and range + 1
 * apart (the compare's edge).
 */
function laneImage(kind: 'noise' | 'blocks' | 'edge', width: number, height: number, range: number, seed: number) {
  const random = seededRandom(seed);
  const rgb = new Uint8Array(3 * width * height);
  const transparent = new Uint8Array(width * height);
  const c = Math.min(range + 1, 255);
  const palette = [
    [0, 0, 0],
    [range, 0, 0],
    [c, 0, 0],
    [0, Math.floor(range / 2), Math.ceil((range * Math.sqrt(3)) / 2)],
    [255, 255, 255],
    [255 - c, 255, 255 - range],
  ].map((colour) => colour.map((v) => Math.max(0, Math.min(255, v))));
  const block = [...Array(9)].map(() => [...Array(3)].map(() => Math.floor(random() * 256)));
  for (let p = 0; p < width * height; p++) {
    const x = p % width,
      y = Math.floor(p / width);
    for (let k = 0; k < 3; k++) {
      let v: number;
      if (kind === 'noise') v = Math.floor(random() * 256);
      else if (kind === 'edge') v = palette[Math.floor(random() * palette.length)][k];
      else v = block[(Math.floor(x / 5) % 3) + 3 * (Math.floor(y / 4) % 3)][k] + Math.round((random() - 0.5) * 2 * (range / 4 + 1));
      rgb[3 * p + k] = Math.max(0, Math.min(255, v));
    }
    if (random() < 0.05) transparent[p] = 1;
  }
  return { rgb, transparent };
}

t.test('the SIMD lanes give the reference bytes: every width, short images, bands cut anywhere, every range', async (t) => {
  // 1–9 wide never reach the lanes (8 inner pixels a row at least), 10 is one block of 8, 17 one
  // and a block overlapping it; ranges past 255 (and transparent images) keep the scalar code
  const widths = [1, 2, 3, 7, 8, 9, 10, 11, 15, 16, 17, 18, 33];
  const heights = [1, 2, 3, 4, 9];
  const ranges = [0, 1, 24, 40, 103, 104, 200, 255, 256, 500];
  for (const kind of ['noise', 'blocks', 'edge'] as const) {
    for (const clear of [false, true]) {
      for (const range of ranges) {
        const failed: string[] = [];
        let seed = 11 + range;
        for (const width of widths) {
          for (const height of heights) {
            const { rgb, transparent } = laneImage(kind, width, height, range, seed++);
            for (const bandPixels of [undefined, width, 2 * width + 1]) {
              for (const [fromRow, toRow] of [
                [0, height],
                [Math.min(1, height), Math.max(Math.min(1, height), height - 1)],
              ]) {
                const expected = referenceSmooth(rgb, transparent, clear, width, height, range, fromRow, toRow, new Uint8Array(rgb.length));
                const got = new Uint8Array(rgb.length);
                smoothRowsInKernel(rgb, clear ? transparent : null, width, height, range, NO_CONTEXT, fromRow, toRow, got, bandPixels);
                let differing = 0;
                for (let i = 0; i < rgb.length; i++) if (got[i] !== expected[i]) differing++;
                if (differing > 0)
                  failed.push(`${width}x${height} rows ${fromRow}-${toRow}, ${bandPixels ?? 'default'} band pixels: ${differing} bytes`);
              }
            }
          }
        }
        t.same(failed, [], `${kind}${clear ? ' with transparency' : ''}, range ${range}`);
      }
    }
  }
});

t.test('the SIMD lanes on larger images: bands of a few rows, cut mid-image, every range the engine uses and the lanes edge', async (t) => {
  for (const [width, height] of [
    [37, 29],
    [130, 61],
  ]) {
    for (const kind of ['noise', 'blocks', 'edge'] as const) {
      for (const range of [24, 40, 255, 256]) {
        const { rgb, transparent } = laneImage(kind, width, height, range, width + range);
        for (const bandPixels of [undefined, 3 * width - 1, 7 * width + 5]) {
          for (const [fromRow, toRow] of [
            [0, height],
            [5, height - 3],
          ]) {
            const expected = referenceSmooth(rgb, transparent, false, width, height, range, fromRow, toRow, new Uint8Array(rgb.length));
            const got = new Uint8Array(rgb.length);
            smoothRowsInKernel(rgb, null, width, height, range, NO_CONTEXT, fromRow, toRow, got, bandPixels);
            let differing = 0;
            for (let i = 0; i < rgb.length; i++) if (got[i] !== expected[i]) differing++;
            t.equal(
              differing,
              0,
              `${kind} ${width}x${height}, range ${range}, rows ${fromRow}-${toRow}, ${bandPixels ?? 'default'} band pixels`,
            );
          }
        }
      }
    }
  }
});

t.test("the lanes' rounding: q15mulr with the kernel's b for each count is the scalar division, for every sum and count", async (t) => {
  // engine/wasm/assembly/denoise.ts RECIPROCAL_LOW / RECIPROCAL_HIGH, by count 1..9: the rounded
  // mean (i32)(sum / count + 0.5) is i16x8.q15mulr_sat_s(sum, b) = (sum·b + 2^14) >> 15
  const b = [32767, 16384, 10923, 8192, 6554, 5462, 4682, 4096, 3641];
  let wrong = 0;
  for (let count = 1; count <= 9; count++)
    for (let sum = 0; sum <= 9 * 255; sum++) if ((sum * b[count - 1] + 0x4000) >> 15 !== Math.trunc(sum / count + 0.5)) wrong++;
  t.equal(wrong, 0);
});

t.test('an aborted pass stops between bands', async (t) => {
  const { rgb, transparent } = noisyImage(300, 520, 5, false);
  const controller = new AbortController();
  controller.abort();
  t.throws(() => smoothSimilar(rgb, transparent, false, 300, 520, 24, { signal: controller.signal, progress() {} }));
});
