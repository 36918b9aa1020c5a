import t from 'tap';
import { deflateSync } from 'node:zlib';
import { decodeRaster, probeImage } from '../../../engine/decode/index.js';
import { decodePlainPng, readPlainPng } from '../../../engine/decode/png.js';
import { chunk, png } from '../helpers/png-writer.js';

t.test('the pixel limit is checked from the header, before inflating', async (t) => {
  // 3000 x 3000 claimed, a few bytes of data: the limit answers, not the short stream
  const bytes = png({ width: 3000, height: 3000, rows: new Uint8Array(10) });
  t.ok(readPlainPng(bytes));
  await t.rejects(decodeRaster(bytes, { maxPixels: 1_000_000 }), { code: 'megapixels_exceeded' });
  await t.rejects(probeImage(bytes, { maxPixels: 1_000_000 }), { code: 'megapixels_exceeded' });
});

t.test('a stream that inflates far past its rows stops at them and goes to sharp', async (t) => {
  // an 8 x 8 image whose data inflates to 64 MiB of zeros
  const bomb = deflateSync(new Uint8Array(64 << 20));
  const ihdr = png({ width: 8, height: 8, rows: new Uint8Array(8 * 33) }).subarray(0, 33);
  const bytes = Buffer.concat([ihdr, chunk('IDAT', bomb), chunk('IEND', new Uint8Array(0))]);
  const plain = readPlainPng(bytes);
  t.ok(plain, 'well-formed chunks');
  const before = process.memoryUsage().arrayBuffers;
  t.equal(decodePlainPng(plain!), null);
  t.ok(process.memoryUsage().arrayBuffers - before < 8 << 20, 'never held the inflated 64 MiB');
  // sharp decides, as it did before there was a decoder here: it reads the rows it needs
  const raster = await decodeRaster(bytes);
  t.same([raster.width, raster.height], [8, 8]);
});
