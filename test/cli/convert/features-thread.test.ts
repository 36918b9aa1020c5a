import t from 'tap';
import sharp from 'sharp';
import { featuresThread } from '../../../cli/convert/features-thread.js';
import { extractFeatures } from '../../../engine/classify/features.js';
import { decodeRaster, toRgba } from '../../../engine/decode/index.js';

/** A disc and a soft ramp on a tinted page: features that are neither all zero nor all one. */
async function sampleImage(format: 'png' | 'jpeg'): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="120">
<defs><linearGradient id="g"><stop offset="0" stop-color="#225"/><stop offset="1" stop-color="#eec"/></linearGradient></defs>
<rect width="100%" height="100%" fill="#f4efe0"/><rect x="90" y="10" width="80" height="100" fill="url(#g)"/>
<circle cx="50" cy="60" r="35" fill="#c33"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return new Uint8Array(await (format === 'png' ? image.png() : image.jpeg({ quality: 80 })).toBuffer());
}

t.test('the thread makes the features the main thread makes from the same bytes, bit for bit', async (t) => {
  for (const format of ['png', 'jpeg'] as const) {
    const bytes = await sampleImage(format);
    const here = extractFeatures(toRgba(await decodeRaster(bytes, { maxPixels: 1e6 })));
    const there = await featuresThread({ bytes, maxPixels: 1e6 }).features;
    t.same(Array.from(there), Array.from(here), format);
  }
});

t.test("an image the thread cannot decode rejects with the decoder's reason", async (t) => {
  const bytes = await sampleImage('png');
  await t.rejects(
    featuresThread({ bytes: bytes.subarray(0, 40), maxPixels: 1e6 }).features,
    /truncated|incomplete|corrupt|unreadable|cannot/i,
  );
  await t.rejects(featuresThread({ bytes, maxPixels: 100 }).features, /megapixel|pixels|too (big|large)/i);
});

t.test('stop() ends a thread still at work', async (t) => {
  const made = featuresThread({ bytes: await sampleImage('png'), maxPixels: 1e6 });
  made.stop();
  await t.rejects(made.features, /stopped/);
});
