import t from 'tap';
import sharp from 'sharp';
import { decodeRaster, probeImage } from '../../../engine/decode/index.js';
import { decodePlainPng, readPlainPng } from '../../../engine/decode/png.js';
import { seededRandom } from '../helpers/bmp-writer.js';
import { chunk, png, scanlines } from '../helpers/png-writer.js';

const random = seededRandom(14);

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
      const bytes = png({ width, height, colourType, rows: scanlines(random, width, height, channels), idats });
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
  const rgba = (extra: Buffer[] = []) => png({ width: 4, height: 3, rows: scanlines(random, 4, 3, 4), extra });
  const cases: [string, Buffer][] = [
    ['palette', png({ width: 4, height: 3, colourType: 3, rows: scanlines(random, 4, 3, 1) })],
    ['grey', png({ width: 4, height: 3, colourType: 0, rows: scanlines(random, 4, 3, 1) })],
    ['16-bit', png({ width: 4, height: 3, depth: 16, rows: scanlines(random, 4, 3, 8) })],
    ['interlaced', png({ width: 4, height: 3, interlace: 1, rows: scanlines(random, 4, 3, 4) })],
    ['gamma', rgba([chunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f]))])],
    ['colour profile', rgba([chunk('iCCP', Buffer.from('x\0\0'))])],
    [
      'transparency key',
      png({ width: 4, height: 3, colourType: 2, rows: scanlines(random, 4, 3, 3), extra: [chunk('tRNS', Buffer.alloc(6))] }),
    ],
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
  const short = png({ width: 8, height: 8, rows: scanlines(random, 8, 7, 4) });
  const plain = readPlainPng(short);
  t.ok(plain, 'the chunks are in order');
  t.equal(decodePlainPng(plain!), null, 'one row short');
  await t.rejects(decodeRaster(short), { code: 'unreadable_file' });

  const badFilter = scanlines(random, 8, 8, 4);
  badFilter[0] = 7;
  t.equal(decodePlainPng(readPlainPng(png({ width: 8, height: 8, rows: badFilter }))!), null, 'filter type 7');
});
