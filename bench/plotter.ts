/**
 * `npm run bench:plotter [-- --corpus DIR] [--ids a,b]`
 *
 * stroke_order=plotter on the public line art (classes scan and blueprint of ../shared/bench/corpus,
 * read in place): each image is traced once as centerline, and its kept document drawn twice, as
 * traced and ordered for a plotter. Per image: pen-up travel (px, from the plotter's home at 0,0)
 * both ways and their ratio; the strokes (path elements) both ways; and the ink F1 of the ordered
 * drawing against the unordered one, rendered with resvg at the input's size (1.000: the same ink).
 * Prints a table and the median ratio (issue #17's goal: at most 0.5).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { renderDocument, vectorize } from '../engine/index.js';
import { parseTraceOptions } from '../engine/options.js';
import { findCorpus, readManifest } from './corpus.js';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, ids: { type: 'string' } } });
const corpus = values.corpus ?? findCorpus();
const wanted = values.ids?.split(',');
const images = readManifest(corpus).filter(
  (image) => (image.class === 'scan' || image.class === 'blueprint') && (wanted === undefined || wanted.includes(image.id)),
);

/** Pixels whose luma is this far from the page's count as ink. */
const INK_CONTRAST = 64;

function inkMask(svg: string, width: number, page: string | null): Uint8Array {
  const pixels = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: page ?? '#ffffff' }).render().pixels;
  const luma = (i: number) => 0.299 * pixels[i] + 0.587 * pixels[i + 1] + 0.114 * pixels[i + 2];
  const paper = luma(0);
  const mask = new Uint8Array(pixels.length / 4);
  for (let p = 0; p < mask.length; p++) mask[p] = Math.abs(luma(p * 4) - paper) > INK_CONTRAST ? 1 : 0;
  return mask;
}

function inkF1(found: Uint8Array, expected: Uint8Array): number {
  let both = 0,
    a = 0,
    b = 0;
  for (let i = 0; i < found.length; i++) {
    both += found[i] & expected[i];
    a += found[i];
    b += expected[i];
  }
  return a + b === 0 ? 1 : (2 * both) / (a + b);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((p, q) => p - q);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const rows: string[] = [
  '| image | class | pen-up unordered px | pen-up plotter px | ratio | strokes unordered | strokes plotter | ink F1 |',
  '|---|---|---|---|---|---|---|---|',
];
const ratios: number[] = [];
for (const image of images) {
  const input = readFileSync(path.join(corpus, image.file));
  const options = parseTraceOptions({ image_type: image.class, trace_style: 'centerline' });
  const traced = await vectorize(new Uint8Array(input), options);
  const document = traced.document;
  const page = document.style === 'centerline' ? document.page : null;
  const unordered = renderDocument(document, { strokeOrder: 'none' });
  const ordered = renderDocument(document, { strokeOrder: 'plotter' });
  const before = ordered.stats.penUpBefore ?? 0,
    after = ordered.stats.penUpAfter ?? 0;
  const ratio = before > 0 ? after / before : 1;
  ratios.push(ratio);
  const f1 = inkF1(inkMask(ordered.svg, traced.width, page), inkMask(unordered.svg, traced.width, page));
  const cells = [image.id, image.class, before.toFixed(0), after.toFixed(0), ratio.toFixed(3), unordered.stats.paths, ordered.stats.paths];
  rows.push(`| ${[...cells, f1.toFixed(4)].join(' | ')} |`);
  console.error(`${image.id}: ${ratio.toFixed(3)}`);
}
console.log(rows.join('\n'));
console.log(`\nmedian pen-up ratio (plotter / unordered): ${median(ratios).toFixed(3)} over ${ratios.length} images`);
