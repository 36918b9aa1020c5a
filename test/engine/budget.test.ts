/** The busy-pixel budget: which images are traced smaller, by how much, and at what display size. */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { busyPixels, decodeForTrace, withinBusyBudget } from '../../engine/budget.js';
import type { DecodedRaster } from '../../engine/decode/index.js';

function raster(width: number, height: number, data: Uint8Array): DecodedRaster {
  return { format: 'png', channels: 3, lossy: false, width, height, data };
}

t.test('busy pixels are those with a jump to the right or lower neighbour', async (t) => {
  t.equal(busyPixels(raster(4, 4, new Uint8Array(48).fill(90))), 0, 'a flat image has none');
  const edge = new Uint8Array(48).fill(0);
  for (let y = 0; y < 4; y++) for (let x = 2; x < 4; x++) edge.fill(255, (y * 4 + x) * 3, (y * 4 + x) * 3 + 3);
  t.equal(busyPixels(raster(4, 4, edge)), 4, 'a vertical edge: the column left of it');
  const ramp = new Uint8Array(48);
  for (let p = 0; p < 16; p++) ramp.fill((p % 4) * 20, p * 3, p * 3 + 3);
  t.equal(busyPixels(raster(4, 4, ramp)), 0, 'steps of 20 are not jumps');
});

t.test('busy pixels: the unrolled count agrees with the definition, on any shape, 3 or 4 channels', async (t) => {
  // the definition written plainly: a pixel is busy when any colour channel steps by more than 24
  // to its right or lower neighbour (alpha never counts)
  const byDefinition = (width: number, height: number, channels: number, data: Uint8Array): number => {
    let busy = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const at = (px: number, py: number, k: number) => data[(py * width + px) * channels + k];
        let jump = false;
        for (let k = 0; k < 3; k++) {
          if (x + 1 < width && Math.abs(at(x, y, k) - at(x + 1, y, k)) > 24) jump = true;
          if (y + 1 < height && Math.abs(at(x, y, k) - at(x, y + 1, k)) > 24) jump = true;
        }
        if (jump) busy++;
      }
    return busy;
  };
  let mismatches = 0,
    cases = 0;
  for (const channels of [3, 4] as const)
    for (const [width, height] of [
      [1, 1],
      [1, 7],
      [7, 1],
      [2, 2],
      [13, 5],
      [64, 33],
    ]) {
      // coarse random values (steps of 0–63 in 8s) so jumps and non-jumps both occur; alpha wild
      const data = new Uint8Array(randomBytes(width * height * channels)).map((v, i) => (channels === 4 && i % 4 === 3 ? v : v & 0x38));
      cases++;
      if (busyPixels({ width, height, data, channels }) !== byDefinition(width, height, channels, data)) mismatches++;
    }
  t.equal(mismatches, 0, `${cases} rasters counted as the definition counts them`);
});

t.test('an image within the budget is traced as it is; a busier one is scaled down to fit', async (t) => {
  const photoLike = raster(100, 100, new Uint8Array(30_000).fill(128));
  const kept = await withinBusyBudget(photoLike, 1000);
  t.equal(kept.image, photoLike, 'not busy: the same raster, not a copy');
  const small = raster(20, 20, new Uint8Array(randomBytes(1200)));
  t.equal((await withinBusyBudget(small, 1000)).image, small, 'no more pixels than the budget: never examined');

  const noise = raster(200, 100, new Uint8Array(randomBytes(60_000)));
  const busy = busyPixels(noise);
  t.ok(busy > 15_000, `noise is busy almost everywhere (${busy} of 20000)`);
  const { image, display } = await withinBusyBudget(noise, 2000);
  t.same(display, { width: 200, height: 100 }, 'the display size is the original');
  t.ok(image.width < 200 && image.height < 100, `traced at ${image.width}×${image.height}`);
  t.ok(Math.abs(image.width / image.height - 2) < 0.1, 'the aspect ratio is kept');
  t.ok(busyPixels(image) <= 2000, 'the copy fits the budget');
  t.equal(image.data.length, image.width * image.height * 3);
});

t.test('decodeForTrace: the bytes decoded, then held to the busy budget (what vectorize and the CLI batch classify)', async (t) => {
  const width = 1300;
  const height = 1250;
  const png = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const { image, display } = await decodeForTrace(new Uint8Array(png), 50_000_000);
  t.same(display, { width, height }, "the display size is the file's");
  t.ok(image.width < width && image.height < height, `noise over the budget is traced at ${image.width}×${image.height}`);
  t.ok(busyPixels(image) <= 1_500_000, 'the copy fits the default budget');
  await t.rejects(decodeForTrace(new Uint8Array(png), 1_000_000), { code: 'megapixels_exceeded' }, 'the pixel limit is checked first');
});
