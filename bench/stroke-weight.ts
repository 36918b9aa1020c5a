/**
 * `node --import tsx bench/stroke-weight.ts <corpus id> [--svg FILE]`
 *
 * Whether a traced 1-bit drawing keeps the bitmap's stroke weight: the SVG (ours, traced in-process
 * with the manifest's class, or --svg, e.g. potrace's from bench/zoom/) is rendered at 1× with
 * resvg, and in every 5×5 window centred on an ink pixel the ink it paints is compared with the
 * bitmap's. A 1-px line whose two outlines stray apart shows as windows too heavy or too light by
 * more than 1.5 px² (0.3 px of width along the window's 5 px). Reads the corpus in place; made for
 * hard-edged (1-bit) images, where every input pixel is ink or paper.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { vectorize } from '../engine/index.js';
import { decodeRaster } from '../engine/decode/index.js';
import { luma601 } from '../engine/luma.js';
import { findCorpus, readManifest } from './corpus.js';

/** Half the window's side: 5×5 averages a 1-bit line's pixel stairs out. */
const REACH = 2;
/** Ink off by more than this (px²) in a window is a visible swelling or pinch. */
const OFF_BY = 1.5;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { svg: { type: 'string' } } });
const corpus = findCorpus();
const image = readManifest(corpus).find((m) => m.id === positionals[0]);
if (!image) {
  console.error('usage: node --import tsx bench/stroke-weight.ts <corpus id> [--svg FILE]');
  process.exit(2);
}
const input = new Uint8Array(readFileSync(path.join(corpus, image.file)));
const decoded = await decodeRaster(input);
const { width, height } = decoded;
const channels = decoded.channels ?? 4;
const svg = values.svg
  ? readFileSync(values.svg, 'utf8')
  : (await vectorize(input, { imageType: image.class as 'scan' | 'blueprint' })).svg;
const drawn = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render().pixels;

const bitmap = new Float64Array(width * height),
  painted = new Float64Array(width * height);
for (let i = 0; i < width * height; i++) {
  const d = decoded.data;
  bitmap[i] = luma601(d[i * channels], d[i * channels + 1], d[i * channels + 2]) < 128 ? 1 : 0;
  painted[i] = 1 - luma601(drawn[i * 4], drawn[i * 4 + 1], drawn[i * 4 + 2]) / 255;
}
let windows = 0,
  totalOff = 0,
  heavy = 0,
  light = 0;
for (let y = REACH; y < height - REACH; y++) {
  for (let x = REACH; x < width - REACH; x++) {
    if (!bitmap[y * width + x]) continue;
    let off = 0;
    for (let dy = -REACH; dy <= REACH; dy++)
      for (let dx = -REACH; dx <= REACH; dx++) off += painted[(y + dy) * width + x + dx] - bitmap[(y + dy) * width + x + dx];
    windows++;
    totalOff += Math.abs(off);
    if (off > OFF_BY) heavy++;
    else if (off < -OFF_BY) light++;
  }
}
const share = (n: number) => `${((100 * n) / windows).toFixed(1)} %`;
console.log(
  `${image.id}: ink per 5×5 window off the bitmap's by ${(totalOff / windows).toFixed(2)} px² on average; ` +
    `too heavy ${share(heavy)}, too light ${share(light)} of ${windows} windows`,
);
