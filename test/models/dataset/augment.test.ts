import t from 'tap';
import type { RgbaImage } from '../../../engine/types.js';
import { calmPhotoAugment, calmestWindow } from '../../../models/dataset/augment.js';
import { seededRandom } from '../../../models/lib/mlp.js';

/** Left half speckled noise, right half a smooth sky-like gradient. */
function halfBusy(width: number, height: number): RgbaImage {
  const random = seededRandom(7);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const v = x < width / 2 ? Math.floor(random() * 256) : 90 + Math.round((y / height) * 120);
      data.set([v, v, Math.min(255, v + 40), 255], o);
    }
  return { width, height, data };
}

/** Mean absolute luma step to the right and below neighbour. */
function busyness(image: RgbaImage): number {
  const { width, height, data } = image;
  const luma = (i: number) => 0.299 * data[i * 4] + 0.587 * data[i * 4 + 1] + 0.114 * data[i * 4 + 2];
  let sum = 0;
  for (let y = 0; y < height - 1; y++)
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      sum += Math.abs(luma(i + 1) - luma(i)) + Math.abs(luma(i + width) - luma(i));
    }
  return sum / ((width - 1) * (height - 1));
}

t.test('the calmest window is calmer than the picture it comes from', async (t) => {
  const image = halfBusy(400, 300);
  const whole = busyness(image);
  const chosen: number[] = [];
  for (let seed = 0; seed < 6; seed++) chosen.push(busyness(await calmestWindow(image, seededRandom(seed))));
  // Windows span at least a third of the width, so most include some noise: each is no busier than
  // the whole, and together they are clearly calmer (the busiest window would be twice as busy).
  for (const b of chosen) t.ok(b <= whole, `${b.toFixed(1)} against ${whole.toFixed(1)}`);
  const mean = chosen.reduce((a, b) => a + b, 0) / chosen.length;
  t.ok(mean < whole * 0.85, `mean ${mean.toFixed(1)} against ${whole.toFixed(1)}`);
});

t.test('a calm photo sample is the same for the same stream', async (t) => {
  const image = halfBusy(320, 200);
  const a = await calmPhotoAugment(image, seededRandom(11));
  const b = await calmPhotoAugment(image, seededRandom(11));
  t.same([a.width, a.height], [b.width, b.height]);
  t.ok(Buffer.from(a.data).equals(Buffer.from(b.data)));
});
