import t from 'tap';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decodeRaster, probeImage } from '../../../engine/decode/index.js';
import { decodePlainPng, readPlainPng } from '../../../engine/decode/png.js';
import { seededRandom } from '../helpers/bmp-writer.js';

const random = seededRandom(14);

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, tail]);
}

interface PngParts {
  width: number;
  height: number;
  colourType?: number;
  depth?: number;
  interlace?: number;
  /** The raw scanlines, each a filter byte and its samples. */
  rows: Uint8Array;
  /** Extra chunks before the image data. */
  extra?: Buffer[];
  /** Split the compressed data over this many IDAT chunks. */
  idats?: number;
}

/** A PNG assembled by hand, so each row's filter type is ours to choose. */
function png({ width, height, colourType = 6, depth = 8, interlace = 0, rows, extra = [], idats = 1 }: PngParts): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colourType, 0, 0, interlace], 8);
  const compressed = deflateSync(rows);
  const size = Math.ceil(compressed.length / idats);
  const data = Array.from({ length: idats }, (_, i) => chunk('IDAT', compressed.subarray(i * size, (i + 1) * size)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...extra,
    ...data,
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Scanlines of random samples, row y filtered with type y % 5 (None, Sub, Up, Average, Paeth). */
function scanlines(width: number, height: number, channels: number): Uint8Array {
  const stride = width * channels;
  const rows = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    rows[y * (stride + 1)] = y % 5;
    for (let i = 0; i < stride; i++) rows[y * (stride + 1) + 1 + i] = Math.floor(random() * 256);
  }
  return rows;
}

async function sharpPixels(bytes: Uint8Array): Promise<{ data: Uint8Array; channels: number }> {
  const { data, info } = await sharp(bytes).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), channels: info.channels };
}

t.test('every filter type, RGB and RGBA, one IDAT or several: the bytes sharp decodes', async (t) => {
  for (const [colourType, channels] of [
    [2, 3],
    [6, 4],
  ] as const) {
    for (const idats of [1, 3]) {
      const width = 37,
        height = 23;
      const bytes = png({ width, height, colourType, rows: scanlines(width, height, channels), idats });
      const plain = readPlainPng(bytes);
      t.ok(plain, `colour type ${colourType} over ${idats} IDAT is read here`);
      const ours = decodePlainPng(plain!);
      const theirs = await sharpPixels(bytes);
      t.equal(theirs.channels, channels);
      t.same(ours, theirs.data, `colour type ${colourType}, ${idats} IDAT: same bytes as libvips`);
      const raster = await decodeRaster(bytes);
      t.same([raster.width, raster.height, raster.channels, raster.lossy], [width, height, channels, false]);
      t.same(raster.data, theirs.data);
    }
  }
});

t.test("sharp's own PNGs (adaptive filtering, a pHYs chunk) decode to sharp's pixels", async (t) => {
  const width = 61,
    height = 45;
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i % 4 === 3 ? 128 + (i % 128) : Math.floor(random() * 256)) & 255;
  const bytes = await sharp(pixels, { raw: { width, height, channels: 4 } })
    .png({ adaptiveFiltering: true, compressionLevel: 9 })
    .toBuffer();
  t.ok(readPlainPng(bytes), 'a plain PNG');
  // with its metadata sharp writes an ICC profile: then sharp decodes it
  t.equal(readPlainPng(await sharp(bytes).withMetadata().png().toBuffer()), null);
  t.same((await decodeRaster(bytes)).data, (await sharpPixels(bytes)).data);
  t.same(await probeImage(bytes), { format: 'png', width, height, megapixels: (width * height) / 1e6 });
});

t.test('anything else is left to sharp', async (t) => {
  const rgba = (extra: Buffer[] = []) => png({ width: 4, height: 3, rows: scanlines(4, 3, 4), extra });
  const cases: [string, Buffer][] = [
    ['palette', png({ width: 4, height: 3, colourType: 3, rows: scanlines(4, 3, 1) })],
    ['grey', png({ width: 4, height: 3, colourType: 0, rows: scanlines(4, 3, 1) })],
    ['16-bit', png({ width: 4, height: 3, depth: 16, rows: scanlines(4, 3, 8) })],
    ['interlaced', png({ width: 4, height: 3, interlace: 1, rows: scanlines(4, 3, 4) })],
    ['gamma', rgba([chunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f]))])],
    ['colour profile', rgba([chunk('iCCP', Buffer.from('x\0\0'))])],
    ['transparency key', png({ width: 4, height: 3, colourType: 2, rows: scanlines(4, 3, 3), extra: [chunk('tRNS', Buffer.alloc(6))] })],
    ['orientation', rgba([chunk('eXIf', Buffer.from('MM\0*'))])],
  ];
  for (const [name, bytes] of cases) t.equal(readPlainPng(bytes), null, name);

  const good = rgba();
  const badCrc = Buffer.from(good);
  badCrc[badCrc.length - 20] ^= 1;
  t.equal(readPlainPng(badCrc), null, 'a chunk whose CRC does not match');
  t.equal(readPlainPng(Buffer.concat([good, Buffer.from('trailing')])), null, 'bytes after IEND');
  t.equal(readPlainPng(good.subarray(0, good.length - 12)), null, 'no IEND');
});

t.test('image data that does not inflate to the rows the header promises is refused by sharp, as before', async (t) => {
  const short = png({ width: 8, height: 8, rows: scanlines(8, 7, 4) });
  const plain = readPlainPng(short);
  t.ok(plain, 'the chunks are in order');
  t.equal(decodePlainPng(plain!), null, 'one row short');
  await t.rejects(decodeRaster(short), { code: 'unreadable_file' });

  const badFilter = scanlines(8, 8, 4);
  badFilter[0] = 7;
  t.equal(decodePlainPng(readPlainPng(png({ width: 8, height: 8, rows: badFilter }))!), null, 'filter type 7');
});

t.test('the pixel limit is checked from the header, before inflating', async (t) => {
  // 3000 x 3000 claimed, a few bytes of data: the limit answers, not the short stream
  const bytes = png({ width: 3000, height: 3000, rows: new Uint8Array(10) });
  t.ok(readPlainPng(bytes));
  await t.rejects(decodeRaster(bytes, { maxPixels: 1_000_000 }), { code: 'megapixels_exceeded' });
  await t.rejects(probeImage(bytes, { maxPixels: 1_000_000 }), { code: 'megapixels_exceeded' });
});
