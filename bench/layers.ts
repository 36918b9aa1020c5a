/**
 * `npx tsx bench/layers.ts [--corpus DIR] [--ids a,b]`
 *
 * group_by=color on the public clip art (class clipart of ../shared/bench/corpus, read in place):
 * each image is traced once and its kept document drawn as traced and grouped into one layer per
 * colour. Per image: the shapes, the stacked holes the grouping cut (evenodd paths), the time the
 * grouping took, and the share of pixels that differ (resvg at the input's size, on white, any
 * channel off by more than 8 and by more than 32). The picture should not change (docs/engine.md,
 * "Output controls", stacked holes).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { renderDocument, vectorize } from '../engine/index.js';
import { findCorpus, readManifest } from './corpus.js';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, ids: { type: 'string' } } });
const corpus = values.corpus ?? findCorpus();
const wanted = values.ids?.split(',');
const images = readManifest(corpus).filter((image) => image.class === 'clipart' && (wanted === undefined || wanted.includes(image.id)));

function pixels(svg: string, width: number): Uint8Array {
  return new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: '#ffffff' }).render().pixels;
}

/** Share of pixels where a channel differs by more than `tolerance`. */
function changed(a: Uint8Array, b: Uint8Array, tolerance: number): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4)
    if (Math.abs(a[i] - b[i]) > tolerance || Math.abs(a[i + 1] - b[i + 1]) > tolerance || Math.abs(a[i + 2] - b[i + 2]) > tolerance)
      count++;
  return count / (a.length / 4);
}

const rows = ['| image | shapes | holes cut | grouping ms | changed > 8 | changed > 32 |', '|---|---|---|---|---|---|'];
for (const image of images) {
  const traced = await vectorize(new Uint8Array(readFileSync(path.join(corpus, image.file))));
  const started = performance.now();
  const grouped = renderDocument(traced.document, { groupBy: 'color' });
  const ms = performance.now() - started;
  const before = pixels(traced.svg, traced.width),
    after = pixels(grouped.svg, traced.width);
  const percent = (share: number) => `${(share * 100).toFixed(3)} %`;
  const cuts = (grouped.svg.match(/fill-rule="evenodd"/g) ?? []).length;
  const cells = [image.id, traced.stats.paths, cuts, ms.toFixed(0)];
  rows.push(`| ${[...cells, percent(changed(before, after, 8)), percent(changed(before, after, 32))].join(' | ')} |`);
  console.error(`${image.id}: done`);
}
console.log(rows.join('\n'));
