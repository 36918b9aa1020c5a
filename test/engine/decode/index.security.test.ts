/**
 * Hostile and broken inputs: each must end in its typed VectorizeError (never another exception,
 * never a crash, never a read past the end), and bombs must be refused from the header alone.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { decodeFile, decodeImage, probeImage } from '../../../engine/decode/index.js';
import { type EngineErrorCode, VectorizeError } from '../../../engine/errors.js';
import { ENGINE_MAX_PIXELS } from '../../../engine/types.js';
import { randomPalette, seededRandom, writeBmp } from '../helpers/bmp-writer.js';
import { handMadePng } from '../helpers/hand-made-png.js';

const random = seededRandom(4242);

/** Runs `attempt`, asserts it fails with a VectorizeError of `code`, and returns that error. */
async function expectCode(
  t: Test,
  attempt: () => Promise<unknown>,
  code: EngineErrorCode,
  label: string,
): Promise<VectorizeError | undefined> {
  let outcome: unknown;
  try {
    await attempt();
    t.fail(`${label}: decoded, expected ${code}`);
    return undefined;
  } catch (error) {
    outcome = error;
  }
  if (!(outcome instanceof VectorizeError)) {
    t.fail(`${label}: threw ${String(outcome)}, not a VectorizeError`);
    return undefined;
  }
  t.equal(outcome.code, code, `${label}: ${code}`);
  t.ok(outcome.message.length > 0 && !outcome.message.includes('\n'), `${label}: one-line message`);
  return outcome;
}

/** A PNG made by hand: an IHDR that claims any size (8-bit RGBA), one tiny IDAT, IEND. */
function craftedPng(width: number, height: number): Buffer {
  return handMadePng(width, height, 6, Buffer.alloc(64));
}

function patchU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  new DataView(copy.buffer).setUint32(at, value >>> 0, true);
  return copy;
}

function patchU16(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  new DataView(copy.buffer).setUint16(at, value, true);
  return copy;
}

const palette16 = randomPalette(16, random);
const validBmp24 = writeBmp({
  width: 9,
  height: 7,
  bitsPerPixel: 24,
  rgb: Uint8Array.from({ length: 9 * 7 * 3 }, () => Math.floor(random() * 256)),
});
const validRle8 = writeBmp({
  width: 20,
  height: 6,
  bitsPerPixel: 8,
  compression: 'rle8',
  palette: palette16,
  indices: Array.from({ length: 120 }, (_, i) => (i % 20 < 10 ? 3 : Math.floor(random() * 16))),
});

/** A BMP header that claims width x height with `dataBytes` bytes of pixel data after it. */
function bmpClaiming(width: number, height: number, dataBytes: number, compression: 'rgb' | 'rle8' = 'rgb'): Uint8Array {
  const small =
    compression === 'rgb'
      ? writeBmp({ width: 1, height: 1, bitsPerPixel: 24, rgb: new Uint8Array(3) })
      : writeBmp({ width: 1, height: 1, bitsPerPixel: 8, compression: 'rle8', palette: palette16, rleStream: Uint8Array.of(1, 1, 0, 1) });
  const headerEnd = new DataView(small.buffer).getUint32(10, true);
  const bytes = new Uint8Array(headerEnd + dataBytes);
  bytes.set(small.subarray(0, headerEnd));
  for (let i = headerEnd; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  const view = new DataView(bytes.buffer);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  return bytes;
}

t.test('empty file', async (t) => {
  await expectCode(t, () => decodeImage(new Uint8Array(0)), 'empty_file', 'decode');
  await expectCode(t, () => probeImage(new Uint8Array(0)), 'empty_file', 'probe');
});

t.test('truncated PNG, JPEG and WebP are unreadable, not half-grey pictures', async (t) => {
  const pixels = Uint8Array.from({ length: 64 * 48 * 4 }, () => Math.floor(random() * 256));
  const source = sharp(pixels, { raw: { width: 64, height: 48, channels: 4 } });
  const files = {
    png: await source.clone().png().toBuffer(),
    jpeg: await source.clone().jpeg().toBuffer(),
    webp: await source.clone().webp().toBuffer(),
  };
  for (const [format, bytes] of Object.entries(files)) {
    for (const fraction of [0.6, 0.9]) {
      await expectCode(
        t,
        () => decodeImage(bytes.subarray(0, Math.floor(bytes.length * fraction))),
        'unreadable_file',
        `${format} cut at ${fraction * 100}%`,
      );
    }
    await expectCode(t, () => decodeImage(bytes.subarray(0, 20)), 'unreadable_file', `${format} cut inside the header`);
  }
  // A PNG cut inside its own signature still claims to be a PNG.
  await expectCode(t, () => decodeImage(files.png.subarray(0, 5)), 'unreadable_file', 'png cut inside the signature');
});

t.test('truncated BMP: in the file header, the DIB header, the palette and the pixels', async (t) => {
  for (const length of [2, 10, 17, 30, 53, 60, validBmp24.length - 4]) {
    await expectCode(t, () => decodeImage(validBmp24.subarray(0, length)), 'unreadable_file', `24-bit BMP cut at ${length} bytes`);
  }
  const withPalette = writeBmp({ width: 4, height: 4, bitsPerPixel: 4, palette: palette16, indices: new Array(16).fill(15) });
  await expectCode(t, () => decodeImage(withPalette.subarray(0, 54 + 20)), 'unreadable_file', 'BMP cut inside the palette');
});

t.test('truncated RLE stream', async (t) => {
  // Cut anywhere before the last row is finished: never decoded, never a crash.
  const dataOffset = new DataView(validRle8.buffer).getUint32(10, true);
  for (let length = dataOffset + 1; length < validRle8.length - 6; length += 3) {
    await expectCode(
      t,
      () => decodeImage(validRle8.subarray(0, length)),
      'unreadable_file',
      `RLE8 cut at ${length} of ${validRle8.length}`,
    );
  }
  // An absolute run whose bytes are missing, and a delta cut after its escape.
  const base = { width: 8, height: 2, bitsPerPixel: 8 as const, compression: 'rle8' as const, palette: palette16 };
  await expectCode(
    t,
    () => decodeImage(writeBmp({ ...base, rleStream: Uint8Array.of(0, 8, 1, 2) })),
    'unreadable_file',
    'absolute run cut short',
  );
  await expectCode(
    t,
    () => decodeImage(writeBmp({ ...base, rleStream: Uint8Array.of(2, 1, 0, 2) })),
    'unreadable_file',
    'delta without its offsets',
  );
});

t.test('text named .png, GIF, TIFF, SVG and other formats we refuse', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-decode-sec-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const textPath = join(dir, 'holiday.png');
  await writeFile(textPath, 'These are my holiday notes, not a picture.\n');
  const text = await expectCode(t, () => decodeFile(textPath), 'unsupported_format', 'text named .png');
  t.match(text?.details, { detected: 'text' });

  const pixels = Uint8Array.from({ length: 8 * 8 * 4 }, () => Math.floor(random() * 256));
  const source = sharp(pixels, { raw: { width: 8, height: 8, channels: 4 } });
  const refused: Array<[string, Uint8Array]> = [
    ['gif', await source.clone().gif().toBuffer()],
    ['tiff', await source.clone().tiff().toBuffer()],
    ['tiff', await source.clone().tiff({ compression: 'lzw' }).toBuffer()],
    [
      'svg',
      Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'),
    ],
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1')],
    ['ico', Uint8Array.of(0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 22, 0, 0, 0)],
    ['heic', Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')])],
    ['psd', Buffer.from('8BPS\0\x01\0\0\0\0\0\0', 'latin1')],
    ['riff-avi', Buffer.from('RIFF\x10\0\0\0AVI LIST', 'latin1')],
  ];
  for (const [detected, bytes] of refused) {
    const error = await expectCode(t, () => decodeImage(bytes), 'unsupported_format', detected);
    t.match(error?.details, { detected }, `details.detected is ${detected}`);
    await expectCode(t, () => probeImage(bytes), 'unsupported_format', `${detected} (probe)`);
  }
  const noise = await expectCode(
    t,
    () => decodeImage(Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) % 256 || 1)),
    'unsupported_format',
    'random bytes',
  );
  t.match(noise?.details, { detected: 'unknown' });
});

t.test('decompression bombs are refused from the header', async (t) => {
  // 60 MP claimed by 100 bytes of data: over the 50 MP default without a byte of pixel memory.
  t.equal(ENGINE_MAX_PIXELS, 50_000_000);
  const bmpBomb = bmpClaiming(10_000, 6_000, 100);
  const bmpError = await expectCode(t, () => decodeImage(bmpBomb), 'megapixels_exceeded', 'BMP claiming 60 MP');
  t.match(bmpError?.details, { megapixels: 60, max_megapixels: 50 });
  const rleBomb = bmpClaiming(10_000, -6_000, 100, 'rle8');
  await expectCode(t, () => decodeImage(rleBomb), 'megapixels_exceeded', 'RLE8 BMP claiming 60 MP (top-down)');

  const pngBomb = craftedPng(10_000, 6_000);
  t.ok(pngBomb.length < 200, 'the PNG bomb is tiny');
  const pngError = await expectCode(t, () => decodeImage(pngBomb), 'megapixels_exceeded', 'PNG IHDR claiming 60 MP');
  t.match(pngError?.details, { megapixels: 60, max_megapixels: 50 });

  // A plan's own limit is honoured, in probe and decode alike.
  const small = craftedPng(5_000, 4_000);
  await expectCode(t, () => decodeImage(small, { maxPixels: 16_000_000 }), 'megapixels_exceeded', '20 MP PNG on a 16 MP plan');
  await expectCode(t, () => probeImage(small, { maxPixels: 16_000_000 }), 'megapixels_exceeded', '20 MP PNG probed on a 16 MP plan');
  t.same(
    await probeImage(pngBomb),
    { format: 'png', width: 10_000, height: 6_000, megapixels: 60 },
    'probe without a limit reports the size',
  );
  // The BMP bomb carries almost none of the 180 MB its header promises: truncated, said at the probe.
  await expectCode(t, () => probeImage(bmpBomb), 'unreadable_file', 'BMP bomb probed without a limit');
  await expectCode(
    t,
    () => probeImage(bmpBomb, { maxPixels: 16_000_000 }),
    'megapixels_exceeded',
    'BMP bomb probed on a 16 MP plan: the limit is said first',
  );

  // Under the limit, a header that lies about its data is caught before the pixels are allocated.
  await expectCode(t, () => decodeImage(bmpClaiming(6_000, 6_000, 100)), 'unreadable_file', 'BMP claiming 36 MP with 100 bytes');
  await expectCode(t, () => decodeImage(craftedPng(3_000, 3_000)), 'unreadable_file', 'PNG claiming 9 MP with 64 bytes of data');
});

t.test('absurd, zero and negative sizes', async (t) => {
  for (const [width, height] of [
    [0, 10],
    [10, 0],
    [-5, 10],
    [70_000, 2],
    [2, 70_000],
    [-2_147_483_648, 1],
    [1, -2_147_483_648],
  ]) {
    await expectCode(t, () => decodeImage(bmpClaiming(width, height, 64)), 'unreadable_file', `BMP ${width}x${height}`);
    await expectCode(t, () => probeImage(bmpClaiming(width, height, 64)), 'unreadable_file', `BMP ${width}x${height} (probe)`);
  }
  for (const [width, height] of [
    [0, 10],
    [70_000, 2],
    [0x80000000, 1],
  ]) {
    await expectCode(t, () => decodeImage(craftedPng(width, height)), 'unreadable_file', `PNG ${width}x${height}`);
  }
});

t.test('BMP headers that lie', async (t) => {
  const palette4 = writeBmp({ width: 4, height: 2, bitsPerPixel: 4, palette: palette16.slice(0, 4), indices: [0, 1, 2, 3, 3, 2, 1, 0] });
  const outOfRange = writeBmp({ width: 4, height: 2, bitsPerPixel: 4, palette: palette16.slice(0, 4), indices: [0, 1, 2, 3, 3, 9, 1, 0] });
  t.ok(await decodeImage(palette4), 'the 4-colour BMP itself decodes');
  const indexError = await expectCode(t, () => decodeImage(outOfRange), 'unreadable_file', 'palette index 9 of 4 colours');
  t.match(indexError?.details, { reason: /palette index 9/ });
  const rleOutOfRange = writeBmp({
    width: 4,
    height: 1,
    bitsPerPixel: 8,
    compression: 'rle8',
    palette: palette16.slice(0, 2),
    rleStream: Uint8Array.of(2, 1, 1, 7, 0, 1),
  });
  await expectCode(t, () => decodeImage(rleOutOfRange), 'unreadable_file', 'RLE palette index out of range');

  const cases: Array<[string, Uint8Array]> = [
    ['data offset past the end', patchU32(validBmp24, 10, 1_000_000)],
    ['data offset inside the headers', patchU32(validBmp24, 10, 20)],
    ['data offset 0xffffffff', patchU32(validBmp24, 10, 0xffffffff)],
    ['DIB header size 40 on a 30-byte file', validBmp24.subarray(0, 30)],
    ['64 bits per pixel', patchU16(validBmp24, 28, 64)],
    ['0 bits per pixel', patchU16(validBmp24, 28, 0)],
    ['compression 99', patchU32(validBmp24, 30, 99)],
    ['BI_JPEG', patchU32(validBmp24, 30, 4)],
    ['RLE8 on 24-bit pixels', patchU32(validBmp24, 30, 1)],
    ['bitfields on 24-bit pixels', patchU32(validBmp24, 30, 3)],
    ['palette squeezed out by the data offset', patchU32(palette4, 10, 54)],
    ['bitfields masks past the end', patchU32(writeBmp({ width: 1, height: 1, bitsPerPixel: 32, values: [0] }).subarray(0, 60), 30, 3)],
  ];
  for (const [label, bytes] of cases) await expectCode(t, () => decodeImage(bytes), 'unreadable_file', label);
});

t.test('mutated and truncated files only ever fail with typed errors', async (t) => {
  const allowed = new Set<EngineErrorCode>(['unreadable_file', 'unsupported_format', 'megapixels_exceeded', 'empty_file']);
  const v5 = writeBmp({
    version: 'v5',
    width: 6,
    height: 5,
    bitsPerPixel: 32,
    compression: 'bitfields',
    masks: { red: 0xff0000, green: 0xff00, blue: 0xff, alpha: 0xff000000 },
    values: Array.from({ length: 30 }, () => Math.floor(random() * 2 ** 32)),
  });
  const rle4 = writeBmp({
    width: 9,
    height: 4,
    bitsPerPixel: 4,
    compression: 'rle4',
    palette: palette16,
    indices: Array.from({ length: 36 }, (_, i) => (i % 9 < 4 ? 5 : Math.floor(random() * 16))),
  });
  const png = await sharp(
    Uint8Array.from({ length: 6 * 5 * 4 }, () => Math.floor(random() * 256)),
    { raw: { width: 6, height: 5, channels: 4 } },
  )
    .png()
    .toBuffer();
  let unexpected = 0;
  let attempts = 0;
  const attempt = async (bytes: Uint8Array) => {
    attempts++;
    try {
      const image = await decodeImage(bytes);
      if (image.data.length !== image.width * image.height * 4) unexpected++;
    } catch (error) {
      if (!(error instanceof VectorizeError) || !allowed.has(error.code)) {
        unexpected++;
        t.comment(`unexpected: ${String(error)}`);
      }
    }
  };
  for (const original of [validBmp24, validRle8, v5, rle4, png]) {
    for (let length = 0; length < original.length; length++) await attempt(original.subarray(0, length));
    for (let round = 0; round < 150; round++) {
      const mutated = Uint8Array.from(original);
      const flips = 1 + Math.floor(random() * 4);
      for (let f = 0; f < flips; f++) {
        // Bias towards the headers, where a lie does the most damage.
        const at = random() < 0.7 ? Math.floor(random() * Math.min(70, mutated.length)) : Math.floor(random() * mutated.length);
        mutated[at] = Math.floor(random() * 256);
      }
      await attempt(mutated);
    }
  }
  t.equal(unexpected, 0, `${attempts} truncated or mutated files: decoded cleanly or failed with a typed error`);
});
