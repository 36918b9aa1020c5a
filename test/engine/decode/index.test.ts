import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import t from 'tap';
import { decodeFile, decodeImage, decodeRaster, detectFormat, isLossy, probeImage, toRgba } from '../../../engine/decode/index.js';
import { VectorizeError } from '../../../engine/errors.js';
import { seededRandom, writeBmp } from '../helpers/bmp-writer.js';

const random = seededRandom(77);
const WIDTH = 12;
const HEIGHT = 8;

/** Known source pixels: varied colours, a third fully transparent, some half transparent. */
function sourcePixels(width = WIDTH, height = HEIGHT): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    pixels.set(
      [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256), i % 3 === 0 ? 0 : i % 3 === 1 ? 255 : 128],
      i * 4,
    );
  }
  return pixels;
}

function fromRaw(pixels: Uint8Array, width = WIDTH, height = HEIGHT, channels: 1 | 2 | 3 | 4 = 4): Sharp {
  return sharp(pixels, { raw: { width, height, channels } });
}

function maxDifference(a: Uint8Array, b: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

function alphaChannel(data: Uint8Array): number[] {
  return Array.from({ length: data.length / 4 }, (_, i) => data[i * 4 + 3]);
}

t.test('lossless PNG and WebP decode to the exact source pixels, transparent ones included', async (t) => {
  const pixels = sourcePixels();
  const png = await fromRaw(pixels).png().toBuffer();
  const webp = await fromRaw(pixels).webp({ lossless: true, exact: true }).toBuffer();
  for (const [format, bytes] of [
    ['png', png],
    ['webp', webp],
  ] as const) {
    const image = await decodeImage(bytes);
    t.equal(image.format, format);
    t.same([image.width, image.height], [WIDTH, HEIGHT]);
    t.equal(image.data.length, WIDTH * HEIGHT * 4);
    t.same(Buffer.from(image.data), Buffer.from(pixels), `${format}: every byte equal (straight alpha, not premultiplied)`);
  }
});

t.test('lossy JPEG and AVIF decode within a tolerance; AVIF keeps its alpha', async (t) => {
  // Smooth content: lossy codecs are judged on what they are built for, not on noise.
  const width = 32;
  const height = 32;
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set([x * 8, y * 8, 128, x < 8 ? 0 : 255], (y * width + x) * 4);
  }
  const opaque = Uint8Array.from(pixels, (v, i) => (i % 4 === 3 ? 255 : v));
  const jpeg = await decodeImage(await fromRaw(opaque, width, height).jpeg({ quality: 95 }).toBuffer());
  t.equal(jpeg.format, 'jpeg');
  t.ok(maxDifference(jpeg.data, opaque) <= 12, `jpeg within 12 levels (got ${maxDifference(jpeg.data, opaque)})`);
  t.ok(
    alphaChannel(jpeg.data).every((a) => a === 255),
    'jpeg is opaque RGBA',
  );

  const avif = await decodeImage(await fromRaw(pixels, width, height).avif({ quality: 90 }).toBuffer());
  t.equal(avif.format, 'avif');
  const visible = (data: Uint8Array) => Uint8Array.from(data, (v, i) => (pixels[i - (i % 4) + 3] === 0 ? 0 : v));
  t.ok(
    maxDifference(visible(avif.data), visible(pixels)) <= 12,
    `avif within 12 levels where visible (got ${maxDifference(visible(avif.data), visible(pixels))})`,
  );
  t.ok(
    alphaChannel(avif.data).every((a, i) => (i % width < 8 ? a === 0 : a === 255)),
    'avif: transparent stays transparent, opaque stays opaque',
  );

  const lossless = await decodeImage(await fromRaw(pixels, width, height).avif({ lossless: true }).toBuffer());
  t.same(Buffer.from(lossless.data), Buffer.from(pixels), 'lossless avif is exact');
});

t.test('16-bit, grey, grey+alpha and palette PNGs become 8-bit RGBA', async (t) => {
  const width = 8;
  const height = 4;
  const count = width * height;
  const deep = new Uint16Array(count * 3).map((_, i) => (i * 2027) % 65536);
  const png16 = await sharp(deep, { raw: { width, height, channels: 3 } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();
  t.equal((await sharp(png16).metadata()).depth, 'ushort', 'fixture is 16-bit');
  const image16 = await decodeImage(png16);
  const expected16 = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++)
    expected16.set([deep[i * 3] / 257, deep[i * 3 + 1] / 257, deep[i * 3 + 2] / 257, 255].map(Math.round), i * 4);
  t.ok(maxDifference(image16.data, expected16) <= 1, '16-bit scaled to 8-bit within rounding');

  const grey = Uint8Array.from({ length: count }, (_, i) => i * 7);
  const imageGrey = await decodeImage(await fromRaw(grey, width, height, 1).png().toBuffer());
  t.same(Array.from(imageGrey.data.subarray(4 * 5, 4 * 6)), [35, 35, 35, 255], 'grey expands to RGB, opaque');

  const greyAlpha = Uint8Array.from({ length: count * 2 }, (_, i) => (i % 2 ? (i % 4 === 1 ? 0 : 255) : i));
  const imageGreyAlpha = await decodeImage(await fromRaw(greyAlpha, width, height, 2).png().toBuffer());
  for (let i = 0; i < count; i++) {
    const [r, g, b, a] = imageGreyAlpha.data.subarray(i * 4, i * 4 + 4);
    if (r !== greyAlpha[i * 2] || g !== r || b !== r || a !== greyAlpha[i * 2 + 1]) {
      t.fail(`grey+alpha pixel ${i} is ${[r, g, b, a]}`);
      break;
    }
  }
  t.pass('grey+alpha expands with its alpha kept');

  const pixels = sourcePixels(width, height);
  const palettePng = await fromRaw(pixels, width, height).png({ palette: true, colours: 256, dither: 0 }).toBuffer();
  t.equal((await sharp(palettePng).metadata()).isPalette, true, 'fixture is a palette PNG');
  const imagePalette = await decodeImage(palettePng);
  t.same(alphaChannel(imagePalette.data), alphaChannel(pixels), 'palette PNG keeps each pixel alpha');
  // The quantiser may nudge colours; transparent pixels' colour is meaningless there.
  const visible = (data: Uint8Array) => Uint8Array.from(data, (v, i) => (pixels[i - (i % 4) + 3] === 0 ? 0 : v));
  t.ok(maxDifference(visible(imagePalette.data), visible(pixels)) <= 8, 'palette PNG colours within 8 levels');
});

t.test('decodeRaster gives RGB for a file without alpha and RGBA for one with it, the same pixels as decodeImage', async (t) => {
  const width = 8;
  const height = 4;
  const count = width * height;
  const rgbPixels = Uint8Array.from({ length: count * 3 }, (_, i) => (i * 37) % 256);
  const cases: Array<[string, Buffer, 3 | 4]> = [
    ['RGB PNG', await fromRaw(rgbPixels, width, height, 3).png().toBuffer(), 3],
    ['grey PNG', await fromRaw(rgbPixels.subarray(0, count), width, height, 1).png().toBuffer(), 3],
    ['JPEG', await fromRaw(rgbPixels, width, height, 3).jpeg().toBuffer(), 3],
    ['RGBA PNG', await fromRaw(sourcePixels(width, height), width, height).png().toBuffer(), 4],
    ['BMP', Buffer.from(writeBmp({ width, height, bitsPerPixel: 24, rgb: rgbPixels })), 4],
  ];
  for (const [name, bytes, channels] of cases) {
    const raster = await decodeRaster(bytes);
    t.equal(raster.channels, channels, `${name}: ${channels} channels`);
    t.equal(raster.data.length, count * channels, `${name}: ${channels} bytes a pixel`);
    t.same(toRgba(raster).data, (await decodeImage(bytes)).data, `${name}: widened to RGBA it is what decodeImage gives`);
  }
  const widened = toRgba({ width, height, channels: 3, data: rgbPixels });
  t.same(Array.from(widened.data.subarray(4, 8)), [rgbPixels[3], rgbPixels[4], rgbPixels[5], 255], 'toRgba adds an opaque alpha');
});

t.test('lossy files are told from lossless ones by their bitstream', async (t) => {
  const pixels = sourcePixels();
  const rgb = Uint8Array.from({ length: WIDTH * HEIGHT * 3 }, (_, i) => (i * 53) % 256);
  const cases: Array<[string, Buffer, boolean]> = [
    ['PNG', await fromRaw(pixels).png().toBuffer(), false],
    ['JPEG', await fromRaw(rgb, WIDTH, HEIGHT, 3).jpeg().toBuffer(), true],
    ['lossy WebP', await fromRaw(rgb, WIDTH, HEIGHT, 3).webp({ quality: 80 }).toBuffer(), true],
    ['lossy WebP with alpha (VP8X, ALPH, VP8)', await fromRaw(pixels).webp({ quality: 80 }).toBuffer(), true],
    ['lossless WebP', await fromRaw(pixels).webp({ lossless: true }).toBuffer(), false],
    ['AVIF', await fromRaw(rgb, WIDTH, HEIGHT, 3).avif().toBuffer(), true],
    ['BMP', Buffer.from(writeBmp({ width: WIDTH, height: HEIGHT, bitsPerPixel: 24, rgb })), false],
  ];
  for (const [name, bytes, lossy] of cases) {
    t.equal(isLossy(detectFormat(bytes), bytes), lossy, name);
    t.equal((await decodeRaster(bytes)).lossy, lossy, `${name} (decodeRaster)`);
  }
});

t.test('CMYK JPEG is converted to sRGB, not returned as raw ink values', async (t) => {
  const width = 16;
  const height = 16;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) rgb.set(i < 128 ? [200, 60, 50] : [90, 140, 200], i * 3);
  const cmyk = await fromRaw(rgb, width, height, 3).toColourspace('cmyk').jpeg({ quality: 100 }).toBuffer();
  t.equal((await sharp(cmyk).metadata()).space, 'cmyk', 'fixture is CMYK');
  const image = await decodeImage(cmyk);
  const first = Array.from(image.data.subarray(0, 4));
  const last = Array.from(image.data.subarray(image.data.length - 4));
  t.ok(maxDifference(Uint8Array.from(first), Uint8Array.from([200, 60, 50, 255])) <= 30, `red-ish stays red-ish (${first})`);
  t.ok(maxDifference(Uint8Array.from(last), Uint8Array.from([90, 140, 200, 255])) <= 40, `blue-ish stays blue-ish (${last})`);
});

t.test('an embedded ICC profile (Display P3) is converted to sRGB', async (t) => {
  const rgb = new Uint8Array(16 * 16 * 3);
  for (let i = 0; i < 16 * 16; i++) rgb.set([220, 40, 30], i * 3);
  const p3 = await fromRaw(rgb, 16, 16, 3).withIccProfile('p3').png().toBuffer();
  const stored = Array.from((await sharp(p3, { ignoreIcc: true }).raw().toBuffer()).subarray(0, 3));
  t.ok(Math.abs(stored[0] - 220) > 8, `fixture stores P3 values, not sRGB (${stored})`);
  const image = await decodeImage(p3);
  t.ok(
    maxDifference(image.data.subarray(0, 4), Uint8Array.of(220, 40, 30, 255)) <= 2,
    `decoded back to sRGB (${Array.from(image.data.subarray(0, 4))})`,
  );
});

/** Rotates RGBA 90 degrees clockwise: what EXIF orientation 6 asks a viewer to do. */
function rotateClockwise(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const to = x * height + (height - 1 - y);
      out.set(pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4), to * 4);
    }
  }
  return out;
}

t.test('EXIF orientation is applied, and probeImage reports the oriented size', async (t) => {
  const pixels = sourcePixels();
  const webp = await fromRaw(pixels).webp({ lossless: true, exact: true }).withMetadata({ orientation: 6 }).toBuffer();
  t.equal((await sharp(webp).metadata()).orientation, 6, 'fixture carries orientation 6');
  t.same(await probeImage(webp), { format: 'webp', width: HEIGHT, height: WIDTH, megapixels: (WIDTH * HEIGHT) / 1e6 });
  const image = await decodeImage(webp);
  t.same([image.width, image.height], [HEIGHT, WIDTH]);
  t.same(Buffer.from(image.data), Buffer.from(rotateClockwise(pixels, WIDTH, HEIGHT)), 'pixels rotated 90 degrees clockwise');

  // JPEG too, with a picture coarse enough to survive compression: left half red, right half blue.
  const coarse = new Uint8Array(32 * 16 * 3);
  for (let i = 0; i < 32 * 16; i++) coarse.set(i % 32 < 16 ? [255, 0, 0] : [0, 0, 255], i * 3);
  const jpeg = await fromRaw(coarse, 32, 16, 3).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
  const rotated = await decodeImage(jpeg);
  t.same([rotated.width, rotated.height], [16, 32]);
  const at = (x: number, y: number) => Array.from(rotated.data.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 3));
  t.ok(at(8, 4)[0] > 200 && at(8, 4)[2] < 60, 'top is red after rotation');
  t.ok(at(8, 28)[2] > 200 && at(8, 28)[0] < 60, 'bottom is blue after rotation');
});

t.test('formats are told from the bytes', async (t) => {
  const pixels = sourcePixels(4, 4);
  const samples: Array<[string, Uint8Array]> = [
    ['png', await fromRaw(pixels, 4, 4).png().toBuffer()],
    ['jpeg', await fromRaw(pixels, 4, 4).jpeg().toBuffer()],
    ['webp', await fromRaw(pixels, 4, 4).webp().toBuffer()],
    ['avif', await fromRaw(pixels, 4, 4).avif().toBuffer()],
    ['bmp', writeBmp({ width: 2, height: 2, bitsPerPixel: 24, rgb: new Uint8Array(12) })],
  ];
  for (const [format, bytes] of samples) t.equal(detectFormat(bytes), format, format);

  // A MIAF file whose brands never say "avif" but whose item is AV1 is still AVIF.
  const avif = Buffer.from(samples[3][1]);
  const ftypSize = avif.readUInt32BE(0);
  for (let at = 8; at < ftypSize; at += 4)
    if (avif.toString('latin1', at, at + 4) === 'avif') avif.write(at === 8 ? 'mif1' : 'miaf', at, 'latin1');
  t.notOk(avif.subarray(0, ftypSize).toString('latin1').includes('avif'), 'fixture has no avif brand');
  t.equal(detectFormat(avif), 'avif', 'mif1 + av01 item');
  t.equal((await decodeImage(avif)).width, 4, 'and it decodes');
});

t.test('decodeFile reads a path; a missing one is missing_file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-decode-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const pixels = sourcePixels();
  // The name says JPEG; the bytes are PNG, and the bytes win.
  const path = join(dir, 'picture.jpg');
  await writeFile(path, await fromRaw(pixels).png().toBuffer());
  const image = await decodeFile(path);
  t.equal(image.format, 'png');
  t.same(Buffer.from(image.data), Buffer.from(pixels));
  const missing = await decodeFile(join(dir, 'nope.png')).catch((error: unknown) => error);
  t.ok(missing instanceof VectorizeError);
  t.match(missing, { code: 'missing_file' });
});
