/**
 * Decode speed: our decode stage beside a plain sharp decode of the same bytes, in the same run.
 *
 *   node --import tsx bench/decode.ts [--repeat 7] [--corpus ../shared/bench/corpus]
 *
 * - corpus: every image of the public benchmark corpus (read in place, never copied). Peer: sharp's
 *   bare `ensureAlpha().raw()` with default options, i.e. without our header probe, EXIF orientation,
 *   sRGB conversion and failOn. For the corpus BMP (sharp cannot read BMP) the peer decodes the same
 *   pixels re-encoded as PNG.
 * - synthetic 16 MP BMPs (24-bit, 8-bit palette, 32-bit, RLE8), made here in memory. Peer: sharp
 *   reading the same pixels as an uncompressed TIFF, the closest format libvips decodes natively.
 * - bad files (empty, text, GIF, TIFF, truncated PNG/JPEG/RLE, 60 MP bombs): time to the typed error.
 * Medians of --repeat runs after one warm-up; ratios are ours / peer.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { handMadePng } from '../test/engine/helpers/hand-made-png.js';
import sharp from 'sharp';
import { decodeImage } from '../engine/decode/index.js';

const { values: args } = parseArgs({
  options: {
    repeat: { type: 'string', default: '7' },
    corpus: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench/corpus') },
  },
});
const repeat = Math.max(1, Number(args.repeat));
sharp.cache(false); // a cached result would time the cache, not the decoder

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function time(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const peerDecode = (bytes: Uint8Array) => sharp(bytes).ensureAlpha().raw().toBuffer();
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

interface Row {
  name: string;
  format: string;
  megapixels: number;
  ours: number;
  peer: number | null;
  peerLabel: string;
}
const rows: Row[] = [];

// --- corpus ---
const manifest = JSON.parse(await readFile(join(args.corpus, 'manifest.json'), 'utf8')) as {
  images: Array<{ id: string; file: string; format: string }>;
};
for (const entry of manifest.images) {
  const bytes = await readFile(join(args.corpus, entry.file));
  const decoded = await decodeImage(bytes);
  const megapixels = (decoded.width * decoded.height) / 1e6;
  const ours = await time(() => decodeImage(bytes));
  let peer: number;
  let peerLabel = 'sharp raw';
  if (decoded.format === 'bmp') {
    const png = await sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: 4 } })
      .png()
      .toBuffer();
    peer = await time(() => peerDecode(png));
    peerLabel = 'sharp raw, same pixels as PNG';
  } else {
    peer = await time(() => peerDecode(bytes));
  }
  rows.push({ name: entry.id, format: decoded.format, megapixels, ours, peer, peerLabel });
}

// --- synthetic 16 MP BMPs ---
const WIDTH = 4000;
const HEIGHT = 4000;

/** A BITMAPINFOHEADER BMP around `pixels` (already in file row order and padded). */
function bmpFile(bitsPerPixel: number, compression: number, palette: Uint8Array, pixels: Uint8Array): Uint8Array {
  const dataOffset = 54 + palette.length;
  const file = new Uint8Array(dataOffset + pixels.length);
  const view = new DataView(file.buffer);
  file.set([0x42, 0x4d]);
  view.setUint32(2, file.length, true);
  view.setUint32(10, dataOffset, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, WIDTH, true);
  view.setInt32(22, HEIGHT, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, bitsPerPixel, true);
  view.setUint32(30, compression, true);
  view.setUint32(34, pixels.length, true);
  view.setUint32(46, palette.length / 4, true);
  file.set(palette, 54);
  file.set(pixels, dataOffset);
  return file;
}

// Smooth content with some texture, so neither our decoder nor TIFF gets an unusually easy case.
let seed = 12345;
const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) & 15;
const rgb = new Uint8Array(WIDTH * HEIGHT * 3);
for (let y = 0, i = 0; y < HEIGHT; y++)
  for (let x = 0; x < WIDTH; x++, i += 3) rgb.set([(x >> 4) + noise(), (y >> 4) + noise(), ((x + y) >> 5) + noise()], i);
const tiffOf = (channels: 3 | 4, pixels: Uint8Array) =>
  sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels } })
    .tiff({ compression: 'none' })
    .toBuffer();

const bgr24 = new Uint8Array(WIDTH * HEIGHT * 3); // width*3 is a multiple of 4: no row padding
for (let i = 0; i < rgb.length; i += 3) bgr24.set([rgb[i + 2], rgb[i + 1], rgb[i]], i);
const bgra32 = new Uint8Array(WIDTH * HEIGHT * 4);
const rgba32 = new Uint8Array(WIDTH * HEIGHT * 4);
for (let p = 0; p < WIDTH * HEIGHT; p++) {
  bgra32.set([rgb[p * 3 + 2], rgb[p * 3 + 1], rgb[p * 3], 255], p * 4);
  rgba32.set([rgb[p * 3], rgb[p * 3 + 1], rgb[p * 3 + 2], 255], p * 4);
}
const grey = new Uint8Array(256 * 4).map((_, i) => (i % 4 === 3 ? 0 : i >> 2));
const indices = new Uint8Array(WIDTH * HEIGHT);
for (let p = 0; p < indices.length; p++) indices[p] = rgb[p * 3];
// RLE8: runs of 16 equal pixels, the way flat art compresses.
const rle = new Uint8Array(HEIGHT * ((WIDTH / 16) * 2 + 2) + 2);
let at = 0;
for (let y = 0; y < HEIGHT; y++) {
  for (let x = 0; x < WIDTH; x += 16) {
    rle[at++] = 16;
    rle[at++] = indices[y * WIDTH + x];
  }
  rle[at++] = 0;
  rle[at++] = 0;
}
rle[at++] = 0;
rle[at++] = 1;
const rleExpanded = new Uint8Array(WIDTH * HEIGHT);
for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) rleExpanded[y * WIDTH + x] = indices[y * WIDTH + (x & ~15)];
const greyRgb = (source: Uint8Array) => {
  const out = new Uint8Array(source.length * 3);
  for (let p = 0; p < source.length; p++) out.fill(source[p], p * 3, p * 3 + 3);
  return out;
};

const synthetic: Array<[string, Uint8Array, Uint8Array]> = [
  ['16 MP 24-bit', bmpFile(24, 0, new Uint8Array(0), bgr24), await tiffOf(3, rgb)],
  ['16 MP 32-bit', bmpFile(32, 0, new Uint8Array(0), bgra32), await tiffOf(4, rgba32)],
  ['16 MP 8-bit palette', bmpFile(8, 0, grey, indices), await tiffOf(3, greyRgb(indices))],
  ['16 MP RLE8', bmpFile(8, 1, grey, rle.subarray(0, at)), await tiffOf(3, greyRgb(rleExpanded))],
];
for (const [name, bmp, tiff] of synthetic) {
  const ours = await time(() => decodeImage(bmp));
  const peer = await time(() => peerDecode(tiff));
  rows.push({
    name,
    format: 'bmp',
    megapixels: (WIDTH * HEIGHT) / 1e6,
    ours,
    peer,
    peerLabel: 'sharp raw, same pixels as uncompressed TIFF',
  });
}

// --- bad files ---
const pngBomb = handMadePng(10_000, 6_000, 6, Buffer.alloc(64));
const bmpBomb = bmpFile(24, 0, new Uint8Array(0), new Uint8Array(100));
new DataView(bmpBomb.buffer).setInt32(18, 10_000, true);
new DataView(bmpBomb.buffer).setInt32(22, 6_000, true);
const refuse = (bytes: Uint8Array, code: string) => () =>
  decodeImage(bytes).then(
    () => {
      throw new Error(`a bad file decoded (expected ${code})`);
    },
    (error: { code?: string }) => {
      if (error.code !== code) throw error;
    },
  );
const corpusFile = (id: string) => readFile(join(args.corpus, manifest.images.find((entry) => entry.id === id)!.file));
const bigPng = await corpusFile('clip-inkscape-gallardo');
const bigJpeg = await corpusFile('bp-vtracer-k1-drawing');
const tiny = sharp(new Uint8Array(64 * 64 * 4), { raw: { width: 64, height: 64, channels: 4 } });
const rleCut = bmpFile(8, 1, grey, rle.subarray(0, at >> 1));
const badFiles: Array<[string, Uint8Array, string]> = [
  ['empty file', new Uint8Array(0), 'empty_file'],
  ['text named .png', new TextEncoder().encode('not a picture\n'.repeat(20)), 'unsupported_format'],
  ['GIF', await tiny.clone().gif().toBuffer(), 'unsupported_format'],
  ['TIFF', await tiny.clone().tiff().toBuffer(), 'unsupported_format'],
  [`PNG cut at 60% (corpus, ${bigPng.length} bytes)`, bigPng.subarray(0, Math.floor(bigPng.length * 0.6)), 'unreadable_file'],
  [`JPEG cut at 60% (corpus, ${bigJpeg.length} bytes)`, bigJpeg.subarray(0, Math.floor(bigJpeg.length * 0.6)), 'unreadable_file'],
  ['16 MP RLE8 cut in half', rleCut, 'unreadable_file'],
  [`60 MP BMP bomb (${bmpBomb.length} bytes)`, bmpBomb, 'megapixels_exceeded'],
  [`60 MP PNG bomb (${pngBomb.length} bytes)`, pngBomb, 'megapixels_exceeded'],
];
const badTimes: Array<[string, string, number]> = [];
for (const [name, bytes, code] of badFiles) badTimes.push([name, code, await time(refuse(bytes, code))]);

// --- report ---
console.log(
  `\nDecode speed, median of ${repeat} runs (node ${process.version}, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips})\n`,
);
console.log('| image | format | MP | ours ms | ours ms/MP | peer ms | ours / peer | peer |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const ratio = row.peer ? (row.ours / row.peer).toFixed(2) : 'n/a';
  const peer = row.peer === null ? 'n/a' : fmt(row.peer);
  const cells = [
    row.name,
    row.format,
    row.megapixels.toFixed(2),
    fmt(row.ours),
    fmt(row.ours / row.megapixels),
    peer,
    ratio,
    row.peerLabel,
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
const corpusRows = rows.filter((row) => !row.name.startsWith('16 MP'));
const oursPerMp = median(corpusRows.map((r) => r.ours / r.megapixels));
const peerPerMp = median(corpusRows.map((r) => r.peer! / r.megapixels));
const medianRatio = median(corpusRows.map((r) => r.ours / r.peer!));
console.log(`\nCorpus medians: ours ${fmt(oursPerMp)} ms/MP, peer ${fmt(peerPerMp)} ms/MP, median ratio ${medianRatio.toFixed(2)}`);
console.log('\n| bad file | typed error | refused in ms |\n|---|---|---|');
for (const [name, code, ms] of badTimes) console.log(`| ${name} | ${code} | ${fmt(ms)} |`);
