import sharp from 'sharp';
import t from 'tap';
import { readBmpHeader } from '../../../engine/decode/bmp.js';
import { checkStreamComplete } from '../../../engine/decode/completeness.js';
import { decodeImage, probeImage } from '../../../engine/decode/index.js';
import { VectorizeError } from '../../../engine/errors.js';
import type { InputFormat } from '../../../engine/types.js';
import { seededRandom, writeBmp } from '../helpers/bmp-writer.js';

const random = seededRandom(7);
const width = 48;
const height = 32;
const pixels = Uint8Array.from({ length: width * height * 4 }, () => Math.floor(random() * 256));
const source = () => sharp(pixels, { raw: { width, height, channels: 4 } });

const files: Record<InputFormat, Buffer> = {
  png: await source().png().toBuffer(),
  jpeg: await source().jpeg().toBuffer(),
  webp: await source().webp().toBuffer(),
  avif: await source().avif({ effort: 0 }).toBuffer(),
  bmp: Buffer.from(
    writeBmp({ width, height, bitsPerPixel: 24, rgb: Uint8Array.from({ length: width * height * 3 }, () => Math.floor(random() * 256)) }),
  ),
};

async function probeCode(bytes: Uint8Array): Promise<string> {
  try {
    await probeImage(bytes);
    return 'accepted';
  } catch (error) {
    return error instanceof VectorizeError ? error.code : `untyped: ${String(error)}`;
  }
}

t.test('whole files pass the probe, and each one cut short is refused there, before any decoding', async (t) => {
  for (const [format, bytes] of Object.entries(files) as Array<[InputFormat, Buffer]>) {
    t.equal(await probeCode(bytes), 'accepted', `${format}: whole`);
    // Cuts late in the file, where the header is whole and only the pixel data is missing.
    for (const cut of [Math.floor(bytes.length * 0.6), Math.floor(bytes.length * 0.9)]) {
      t.equal(await probeCode(bytes.subarray(0, cut)), 'unreadable_file', `${format}: cut at ${cut} of ${bytes.length} bytes`);
    }
  }
});

t.test('the probe never refuses what the decoder reads: every cut in the last 40 bytes', async (t) => {
  for (const [format, bytes] of Object.entries(files) as Array<[InputFormat, Buffer]>) {
    let refusedByProbe = 0;
    for (let cut = bytes.length - 40; cut < bytes.length; cut++) {
      if ((await probeCode(bytes.subarray(0, cut))) !== 'unreadable_file') continue;
      refusedByProbe++;
      await t.rejects(
        decodeImage(bytes.subarray(0, cut)),
        { code: 'unreadable_file' },
        `${format}: the decoder refuses ${cut} of ${bytes.length} too`,
      );
    }
    // PNG keeps reading without its IEND (12 bytes); the other formats need their last byte.
    t.equal(refusedByProbe, format === 'png' ? 28 : 40, `${format}: cuts the probe refuses`);
  }
});

t.test('bytes after the end of the image are allowed, as the decoders allow them', async (t) => {
  const trailer = Buffer.alloc(700, 0x5a);
  for (const format of ['png', 'jpeg', 'webp', 'bmp'] as const) {
    const padded = Buffer.concat([files[format], trailer]);
    t.equal(await probeCode(padded), 'accepted', `${format} with a trailer`);
    t.equal((await decodeImage(padded)).width, width, `${format} with a trailer still decodes`);
  }
});

t.test('JPEG: an end marker before the scan (an EXIF thumbnail) does not make a cut file look whole', async (t) => {
  const jpeg = files.jpeg;
  // An APP1 segment whose data holds FF D9, as an embedded thumbnail's end does.
  const app1Data = Buffer.from([0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0xff, 0xd8, 0x01, 0x02, 0xff, 0xd9]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, app1Data.length + 2]), app1Data]);
  const withThumbnailEnd = Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
  t.equal(await probeCode(withThumbnailEnd), 'accepted', 'whole');
  t.equal(await probeCode(withThumbnailEnd.subarray(0, withThumbnailEnd.length - 40)), 'unreadable_file', 'cut inside the scan');
});

t.test('PNG: a file that reaches IEND with no image data is refused', async (t) => {
  const png = files.png;
  let at = 8;
  const kept: Buffer[] = [png.subarray(0, 8)];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type !== 'IDAT') kept.push(png.subarray(at, at + 12 + length));
    at += 12 + length;
  }
  t.throws(() => checkStreamComplete('png', Buffer.concat(kept)), {
    code: 'unreadable_file',
    details: { reason: 'no image data before IEND' },
  });
});

t.test('RLE BMPs are left to the decoder: their size is only known by decoding', async (t) => {
  const rle = writeBmp({
    width: 8,
    height: 2,
    bitsPerPixel: 8,
    compression: 'rle8',
    palette: [
      [0, 0, 0],
      [255, 255, 255],
    ],
    indices: Array.from({ length: 16 }, (_, i) => i % 2),
  });
  t.doesNotThrow(() => checkStreamComplete('bmp', rle, readBmpHeader(rle)));
});
