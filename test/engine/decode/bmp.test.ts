import t, { type Test } from 'tap';
import { decodeBmp, readBmpHeader } from '../../../engine/decode/bmp.js';
import { decodeImage, probeImage } from '../../../engine/decode/index.js';
import { VectorizeError } from '../../../engine/errors.js';
import { type BmpVersion, encodeRle, expectedFromIndices, randomPalette, seededRandom, writeBmp } from '../helpers/bmp-writer.js';

const random = seededRandom(20240611);

function randomIndices(count: number, paletteSize: number): number[] {
  return Array.from({ length: count }, () => Math.floor(random() * paletteSize));
}

/** Compares RGBA buffers and reports the first differing pixel instead of a wall of bytes. */
function samePixels(t: Test, actual: Uint8Array, expected: Uint8Array, message: string): void {
  if (actual.length !== expected.length) {
    t.fail(`${message}: ${actual.length} bytes, expected ${expected.length}`);
    return;
  }
  for (let i = 0; i < actual.length; i += 4) {
    for (let c = 0; c < 4; c++) {
      if (actual[i + c] !== expected[i + c]) {
        t.fail(`${message}: pixel ${i / 4} is [${actual.subarray(i, i + 4)}], expected [${expected.subarray(i, i + 4)}]`);
        return;
      }
    }
  }
  t.pass(message);
}

const scale = (value: number, max: number): number => Math.round((value * 255) / max);

t.test('palette images round-trip for every header version, depth and row order', async (t) => {
  const versions: BmpVersion[] = ['core', 'os2v2-16', 'os2v2-64', 'info', 'v2', 'v3', 'v4', 'v5'];
  for (const version of versions) {
    for (const bitsPerPixel of [1, 2, 4, 8] as const) {
      for (const topDown of version === 'core' ? [false] : [false, true]) {
        // Odd widths make every row need padding; 2-bit is a Windows CE depth but costs nothing.
        const width = 13;
        const height = 5;
        const palette = randomPalette(1 << bitsPerPixel, random);
        const indices = randomIndices(width * height, palette.length);
        const bytes = writeBmp({ version, width, height, bitsPerPixel, palette, indices, topDown });
        const image = await decodeImage(bytes);
        t.equal(image.format, 'bmp');
        t.same([image.width, image.height], [width, height]);
        samePixels(
          t,
          image.data,
          expectedFromIndices(indices, palette),
          `${version} ${bitsPerPixel}-bit ${topDown ? 'top-down' : 'bottom-up'}`,
        );
      }
    }
  }
});

t.test('24-bit images round-trip for every header version and row order', async (t) => {
  for (const version of ['core', 'info', 'v3', 'v5'] as const) {
    for (const topDown of version === 'core' ? [false] : [false, true]) {
      for (const width of [1, 2, 3, 7]) {
        const height = 4;
        const rgb = Uint8Array.from({ length: width * height * 3 }, () => Math.floor(random() * 256));
        const expected = new Uint8Array(width * height * 4);
        for (let i = 0; i < width * height; i++) expected.set([rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2], 255], i * 4);
        const image = decodeBmp(writeBmp({ version, width, height, bitsPerPixel: 24, rgb, topDown }));
        samePixels(t, image.data, expected, `${version} 24-bit width ${width} ${topDown ? 'top-down' : 'bottom-up'}`);
      }
    }
  }
});

t.test('a palette shorter than 2^bpp is read from biClrUsed, or from the gap before the pixels', async (t) => {
  const palette = randomPalette(5, random);
  const indices = randomIndices(9 * 3, 5);
  const expected = expectedFromIndices(indices, palette);
  const declared = writeBmp({ width: 9, height: 3, bitsPerPixel: 8, palette, indices, colorsUsed: 5 });
  t.equal(readBmpHeader(declared).paletteSize, 5);
  samePixels(t, decodeBmp(declared).data, expected, 'biClrUsed = 5');
  // biClrUsed 0 means 256, but only five entries fit before the pixel data.
  const implied = writeBmp({ width: 9, height: 3, bitsPerPixel: 8, palette, indices, colorsUsed: 0 });
  t.equal(readBmpHeader(implied).paletteSize, 5);
  samePixels(t, decodeBmp(implied).data, expected, 'palette bounded by the pixel data offset');
  const core = writeBmp({ version: 'core', width: 9, height: 3, bitsPerPixel: 8, palette, indices });
  t.equal(readBmpHeader(core).paletteSize, 5);
  samePixels(t, decodeBmp(core).data, expected, 'core header with a 5-entry palette');
});

t.test('16-bit: X1R5G5B5 by default, any masks with BI_BITFIELDS', async (t) => {
  const width = 7;
  const height = 3;
  const count = width * height;
  const channels = Array.from({ length: count }, () => [0, 1, 2].map(() => Math.floor(random() * 32)));

  // BI_RGB: 5-5-5 with the top bit unused (set here to show it is ignored).
  const values555 = channels.map(([r, g, b]) => 0x8000 | (r << 10) | (g << 5) | b);
  const expected555 = new Uint8Array(count * 4);
  channels.forEach(([r, g, b], i) => expected555.set([scale(r, 31), scale(g, 31), scale(b, 31), 255], i * 4));
  samePixels(t, decodeBmp(writeBmp({ width, height, bitsPerPixel: 16, values: values555 })).data, expected555, '555 default');

  // BI_BITFIELDS 5-6-5, masks after a 40-byte header and inside a V5 header.
  const green6 = channels.map(([, g]) => (g * 2 + (g & 1)) & 63);
  const values565 = channels.map(([r, , b], i) => (r << 11) | (green6[i] << 5) | b);
  const expected565 = new Uint8Array(count * 4);
  channels.forEach(([r, , b], i) => expected565.set([scale(r, 31), scale(green6[i], 63), scale(b, 31), 255], i * 4));
  const masks565 = { red: 0xf800, green: 0x07e0, blue: 0x001f };
  for (const version of ['info', 'v2', 'v5'] as const) {
    const bytes = writeBmp({ version, width, height, bitsPerPixel: 16, compression: 'bitfields', masks: masks565, values: values565 });
    samePixels(t, decodeBmp(bytes).data, expected565, `565 bitfields, ${version} header`);
  }

  // A4R4G4B4 through a V3 header's alpha mask, some pixels fully transparent.
  const alpha4 = Array.from({ length: count }, (_, i) => (i % 3 === 0 ? 0 : Math.floor(random() * 16)));
  const values4444 = channels.map(([r, g, b], i) => (alpha4[i] << 12) | ((r >> 1) << 8) | ((g >> 1) << 4) | (b >> 1));
  const expected4444 = new Uint8Array(count * 4);
  channels.forEach(([r, g, b], i) =>
    expected4444.set([scale(r >> 1, 15), scale(g >> 1, 15), scale(b >> 1, 15), scale(alpha4[i], 15)], i * 4),
  );
  const bytes4444 = writeBmp({
    version: 'v3',
    width,
    height,
    bitsPerPixel: 16,
    compression: 'bitfields',
    masks: { red: 0x0f00, green: 0x00f0, blue: 0x000f, alpha: 0xf000 },
    values: values4444,
  });
  samePixels(t, decodeBmp(bytes4444).data, expected4444, '4444 with alpha');
});

t.test('32-bit BI_RGB: the 4th byte is alpha only when some pixel uses it', async (t) => {
  const width = 5;
  const height = 4;
  const count = width * height;
  const rgb = Array.from({ length: count }, () => [0, 1, 2].map(() => Math.floor(random() * 256)));
  const pack = ([r, g, b]: number[], a: number) => ((a << 24) | (r << 16) | (g << 8) | b) >>> 0;

  const opaque = decodeBmp(writeBmp({ width, height, bitsPerPixel: 32, values: rgb.map((c) => pack(c, 0)) }));
  const expectedOpaque = new Uint8Array(count * 4);
  rgb.forEach(([r, g, b], i) => expectedOpaque.set([r, g, b, 255], i * 4));
  samePixels(t, opaque.data, expectedOpaque, 'all-zero 4th byte reads as opaque');

  // Straight alpha, transparent pixels keep alpha 0 (and their colour).
  const alphas = Array.from({ length: count }, (_, i) => (i % 4 === 0 ? 0 : i % 4 === 1 ? 255 : Math.floor(random() * 256)));
  const withAlpha = decodeBmp(writeBmp({ version: 'v5', width, height, bitsPerPixel: 32, values: rgb.map((c, i) => pack(c, alphas[i])) }));
  const expectedAlpha = new Uint8Array(count * 4);
  rgb.forEach(([r, g, b], i) => expectedAlpha.set([r, g, b, alphas[i]], i * 4));
  samePixels(t, withAlpha.data, expectedAlpha, 'alpha kept when present');
});

t.test('32-bit BI_BITFIELDS and BI_ALPHABITFIELDS, including odd channel orders and 10-bit channels', async (t) => {
  const width = 4;
  const height = 3;
  const count = width * height;
  const rgba = Array.from({ length: count }, (_, i) => [0, 1, 2].map(() => Math.floor(random() * 256)).concat(i % 2 ? 0 : 200));
  const expected = new Uint8Array(count * 4);
  rgba.forEach((c, i) => expected.set(c, i * 4));

  // R in the high byte, A in the low byte (RGBA order in a big-endian reading).
  const masksRgba = { red: 0xff000000, green: 0x00ff0000, blue: 0x0000ff00, alpha: 0x000000ff };
  const valuesRgba = rgba.map(([r, g, b, a]) => ((r << 24) | (g << 16) | (b << 8) | a) >>> 0);
  for (const version of ['v4', 'v5'] as const) {
    const bytes = writeBmp({ version, width, height, bitsPerPixel: 32, compression: 'bitfields', masks: masksRgba, values: valuesRgba });
    samePixels(t, decodeBmp(bytes).data, expected, `RGBA-order masks, ${version}`);
  }
  const alphaBitfields = writeBmp({
    version: 'info',
    width,
    height,
    bitsPerPixel: 32,
    compression: 'alphabitfields',
    masks: masksRgba,
    values: valuesRgba,
  });
  samePixels(t, decodeBmp(alphaBitfields).data, expected, 'BI_ALPHABITFIELDS after a 40-byte header');

  // 2-10-10-10: channels wider than 8 bits scale down by rounding.
  const ten = Array.from({ length: count }, () => [0, 1, 2].map(() => Math.floor(random() * 1024)));
  const values1010 = ten.map(([r, g, b]) => ((3 << 30) | (r << 20) | (g << 10) | b) >>> 0);
  const expected1010 = new Uint8Array(count * 4);
  ten.forEach(([r, g, b], i) => expected1010.set([scale(r, 1023), scale(g, 1023), scale(b, 1023), 255], i * 4));
  const bytes1010 = writeBmp({
    version: 'v5',
    width,
    height,
    bitsPerPixel: 32,
    compression: 'bitfields',
    masks: { red: 0x3ff00000, green: 0x000ffc00, blue: 0x000003ff, alpha: 0xc0000000 },
    values: values1010,
  });
  samePixels(t, decodeBmp(bytes1010).data, expected1010, '10-bit channels with a 2-bit alpha');
});

t.test('RLE8 and RLE4 round-trip: runs, padded absolute runs, deltas, end-of-line; unwritten pixels stay transparent', async (t) => {
  for (const mode of ['rle8', 'rle4'] as const) {
    for (const topDown of [false, true]) {
      const width = 23;
      const height = 9;
      const palette = randomPalette(mode === 'rle8' ? 40 : 16, random);
      // Runs of varied length, literal stretches of odd and even length, and unwritten holes.
      const indices: number[] = [];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          if (y === 2 && x > 15)
            indices.push(-1); // rest of row unwritten: end-of-line
          else if (y === 4 && x >= 5 && x < 11)
            indices.push(-1); // hole inside a row: delta
          else if (y === 6)
            indices.push(-1); // whole row unwritten
          else if (x < 7 + y) indices.push((y * 3) % palette.length);
          else indices.push(Math.floor(random() * palette.length));
        }
      }
      const stream = encodeRle(width, height, indices, mode, topDown);
      const bytes = writeBmp({ width, height, bitsPerPixel: mode === 'rle8' ? 8 : 4, compression: mode, palette, indices, topDown });
      t.ok(stream.length < width * height, `${mode} stream is compressed`);
      const image = decodeBmp(bytes);
      samePixels(t, image.data, expectedFromIndices(indices, palette), `${mode} ${topDown ? 'top-down' : 'bottom-up'}`);
    }
  }
});

t.test('RLE escapes written by hand: delta across rows, clipping, early end, missing final end-of-bitmap', async (t) => {
  const palette: Array<[number, number, number]> = [
    [10, 20, 30],
    [200, 100, 50],
    [0, 255, 0],
    [255, 255, 255],
  ];
  const width = 4;
  const height = 3;
  const decodeStream = (stream: number[], mode: 'rle8' | 'rle4' = 'rle8') =>
    decodeBmp(
      writeBmp({ width, height, bitsPerPixel: mode === 'rle8' ? 8 : 4, compression: mode, palette, rleStream: Uint8Array.from(stream) }),
    );
  // Pixel at (x, fileRow) of a bottom-up image, as RGBA.
  const pixel = (data: Uint8Array, x: number, fileRow: number) =>
    Array.from(data.subarray(((height - 1 - fileRow) * width + x) * 4, ((height - 1 - fileRow) * width + x) * 4 + 4));
  const rgba = (index: number) => [...palette[index], 255];
  const clear = [0, 0, 0, 0];

  // Run of 2 at row 0, delta (+1, +2) to (3, 2), one pixel, end of bitmap.
  let image = decodeStream([2, 1, 0, 2, 1, 2, 1, 3, 0, 1]);
  t.same(pixel(image.data, 0, 0), rgba(1));
  t.same(pixel(image.data, 1, 0), rgba(1));
  t.same(pixel(image.data, 2, 0), clear, 'skipped by the delta');
  t.same(pixel(image.data, 3, 1), clear, 'rows crossed by the delta stay transparent');
  t.same(pixel(image.data, 3, 2), rgba(3), 'delta moved right and up');

  // A run of 9 in a 4-wide row is clipped at the edge, not wrapped onto the next row.
  image = decodeStream([9, 2, 0, 0, 1, 0, 0, 1]);
  t.same(
    [0, 1, 2, 3].map((x) => pixel(image.data, x, 0)),
    [rgba(2), rgba(2), rgba(2), rgba(2)],
  );
  t.same(pixel(image.data, 0, 1), rgba(0), 'next row starts after end-of-line');
  t.same(pixel(image.data, 1, 1), clear);

  // An absolute run of 5 in a 4-wide row is clipped too; its odd length is padded.
  image = decodeStream([0, 5, 1, 2, 3, 0, 1, 0, 0, 0, 0, 1]);
  t.same(
    [0, 1, 2, 3].map((x) => pixel(image.data, x, 0)),
    [rgba(1), rgba(2), rgba(3), rgba(0)],
  );
  t.same(pixel(image.data, 0, 1), clear);

  // End-of-bitmap after one pixel: the rest stays transparent.
  image = decodeStream([1, 3, 0, 1]);
  t.same(pixel(image.data, 0, 0), rgba(3));
  const written = Array.from({ length: width * height }, (_, i) => image.data[i * 4 + 3]).filter((a) => a !== 0).length;
  t.equal(written, 1, 'everything after end-of-bitmap is transparent');

  // Every row ended by end-of-line and no end-of-bitmap: complete, accepted.
  image = decodeStream([4, 1, 0, 0, 4, 2, 0, 0, 4, 3, 0, 0]);
  t.same(pixel(image.data, 3, 2), rgba(3));

  // Data past the top row is ignored.
  image = decodeStream([4, 1, 0, 0, 4, 1, 0, 0, 4, 1, 0, 0, 4, 2, 0, 1]);
  t.same(pixel(image.data, 0, 2), rgba(1));

  // RLE4 runs alternate the two nibbles; absolute runs of 3 nibbles take 2 bytes (no pad), 5 take 3 (+1 pad).
  image = decodeStream([4, 0x12, 0, 0, 0, 3, 0x30, 0x10, 0, 0, 0, 5, 0x01, 0x23, 0x00, 0x00, 0, 1], 'rle4');
  t.same(
    [0, 1, 2, 3].map((x) => pixel(image.data, x, 0)),
    [rgba(1), rgba(2), rgba(1), rgba(2)],
  );
  t.same(
    [0, 1, 2, 3].map((x) => pixel(image.data, x, 1)),
    [rgba(3), rgba(0), rgba(1), clear],
  );
  t.same(
    [0, 1, 2, 3].map((x) => pixel(image.data, x, 2)),
    [rgba(0), rgba(1), rgba(2), rgba(3)],
  );
});

t.test('a last row without its padding bytes is accepted', async (t) => {
  const palette = randomPalette(16, random);
  const indices = randomIndices(5 * 3, 16);
  const bytes = writeBmp({ width: 5, height: 3, bitsPerPixel: 4, palette, indices, dropLastRowPadding: true });
  samePixels(t, decodeBmp(bytes).data, expectedFromIndices(indices, palette), '4-bit, last row 3 bytes instead of 4');
});

t.test('probeImage reads the BMP header and checks the pixel rows are there, without decoding them', async (t) => {
  const palette = randomPalette(2, random);
  const bytes = writeBmp({ version: 'v4', width: 300, height: 200, bitsPerPixel: 1, palette, indices: new Array(300 * 200).fill(1) });
  t.same(await probeImage(bytes), { format: 'bmp', width: 300, height: 200, megapixels: 0.06 });
  // A header alone (pixel data cut away) is refused by the probe and the decoder alike.
  const headerOnly = bytes.subarray(0, readBmpHeader(bytes).dataOffset + 1);
  for (const [what, attempt] of [
    ['probe', probeImage(headerOnly)],
    ['decode', decodeImage(headerOnly)],
  ] as const) {
    const error = await Promise.resolve(attempt).catch((e: unknown) => e);
    t.ok(error instanceof VectorizeError, `${what}: a VectorizeError`);
    t.match(error, { code: 'unreadable_file', details: { reason: /pixel data is truncated/ } }, what);
  }
});
