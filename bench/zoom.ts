/**
 * `npm run bench:zoom -- <corpus id> [--crop x,y,w,h] [--z 4] [--peer vtracer|potrace] [--out DIR] [--svg FILE] [--corpus DIR]`
 *
 * What a designer sees when zooming in: one corpus image (../shared/bench/corpus, read in place,
 * never copied into the repo) side by side at z× its size, left to right:
 *   original pixels (nearest neighbour, so anti-aliasing shows as it is) · the artist's vector
 *   (<id>.gt.svg, when the corpus keeps one) · ours · the peer: VTracer (@neplex/vectorizer,
 *   measure.mjs's `vtracer` settings), or with `--peer potrace` the potrace CLI on the input binarised
 *   at Otsu's threshold of its luma (measure.mjs's `potrace-cli`; the peer for scans and drawings).
 * --crop takes input pixels (x,y,w,h), so a small region can be looked at closely. Our SVG is traced
 * in-process from the TypeScript with the manifest's class (as `npm run bench` does); --svg renders
 * an SVG file instead (a previous build, another branch). Writes `<out>/<id>[-crop].png` plus each
 * panel and both SVGs; the folder (default bench/zoom/) is ignored by git.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { vectorize as vtracer } from '@neplex/vectorizer';
import sharp from 'sharp';
import { vectorize } from '../engine/index.js';
import { luma601 } from '../engine/luma.js';
import { decodeRaster } from '../engine/decode/index.js';
import { parseTraceOptions } from '../engine/options.js';
import { otsuSplitScores } from '../engine/otsu.js';
import { ROOT, findCorpus, readManifest } from './corpus.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    crop: { type: 'string' },
    z: { type: 'string', default: '4' },
    out: { type: 'string', default: path.join(ROOT, 'bench', 'zoom') },
    svg: { type: 'string' },
    corpus: { type: 'string' },
    peer: { type: 'string', default: 'vtracer' },
  },
});

const CORPUS = values.corpus ?? findCorpus();
/** The gap between panels, in output pixels (mid grey: it shows against white and black art). */
const GAP = 8;

const id = positionals[0];
const manifest = { images: readManifest(CORPUS) };
const image = manifest.images.find((m) => m.id === id);
if (!image) {
  console.error(`usage: npm run bench:zoom -- <id> [--crop x,y,w,h] [--z 4]\nids: ${manifest.images.map((m) => m.id).join(', ')}`);
  process.exit(2);
}
const z = Number(values.z);
const crop = values.crop ? values.crop.split(',').map(Number) : [0, 0, image.width, image.height];
if (
  crop.length !== 4 ||
  crop.some((v) => !Number.isInteger(v) || v < 0) ||
  crop[0] + crop[2] > image.width ||
  crop[1] + crop[3] > image.height
) {
  console.error(`--crop x,y,w,h must be whole input pixels inside ${image.width}×${image.height}`);
  process.exit(2);
}
if (values.peer !== 'vtracer' && values.peer !== 'potrace') {
  console.error('--peer must be vtracer or potrace');
  process.exit(2);
}
if (!(z >= 1 && z <= 16)) {
  console.error('--z must be between 1 and 16');
  process.exit(2);
}
const [cx, cy, cw, ch] = crop;
const region = { left: cx * z, top: cy * z, width: cw * z, height: ch * z };
const file = path.join(CORPUS, image.file);
const input = readFileSync(file);
// the engine's decoder reads what sharp does not (BMP)
const decoded = await decodeRaster(new Uint8Array(input));
const flatInput = await sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: decoded.channels ?? 4 } })
  .flatten({ background: '#ffffff' })
  .png()
  .toBuffer();

/** An SVG rendered at z× the input's width on white, cut to the crop. */
async function renderCropped(svg: string): Promise<Buffer> {
  const rendered = new Resvg(svg, {
    fitTo: { mode: 'width', value: image!.width * z },
    background: 'white',
    font: { loadSystemFonts: false },
  }).render();
  return sharp(rendered.asPng()).extract(region).png().toBuffer();
}

const original = await sharp(flatInput)
  .flatten({ background: '#ffffff' })
  .extract({ left: cx, top: cy, width: cw, height: ch })
  .resize(cw * z, ch * z, { kernel: 'nearest' })
  .png()
  .toBuffer();
const ours = values.svg
  ? readFileSync(values.svg, 'utf8')
  : (await vectorize(new Uint8Array(input), parseTraceOptions({ image_type: image.class }))).svg;
const peer =
  values.peer === 'potrace'
    ? await potrace(flatInput)
    : await vtracer(flatInput, {
        colorMode: 0,
        hierarchical: 0,
        mode: 2,
        filterSpeckle: 4,
        colorPrecision: 6,
        layerDifference: 16,
        cornerThreshold: 60,
        lengthThreshold: 4,
        maxIterations: 10,
        spliceThreshold: 45,
        pathPrecision: 2,
      });
const gtPath = image.gt_svg ? path.join(CORPUS, image.gt_svg) : null;
const panels: Array<[string, Buffer]> = [['original', original]];
if (gtPath && existsSync(gtPath)) panels.push(['artist', await renderCropped(readFileSync(gtPath, 'utf8'))]);
panels.push(['ours', await renderCropped(ours)], [values.peer, await renderCropped(peer)]);

mkdirSync(values.out, { recursive: true });
const stem = values.crop ? `${id}-${cx}-${cy}-${cw}-${ch}` : id;
const composite = sharp({
  create: { width: panels.length * region.width + (panels.length - 1) * GAP, height: region.height, channels: 3, background: '#808080' },
}).composite(panels.map(([, png], i) => ({ input: png, left: i * (region.width + GAP), top: 0 })));
const sheet = path.join(values.out, `${stem}.png`);
await composite.png().toFile(sheet);
for (const [name, png] of panels) writeFileSync(path.join(values.out, `${stem}.${name}.png`), png);
writeFileSync(path.join(values.out, `${id}.ours.svg`), ours);
writeFileSync(path.join(values.out, `${id}.${values.peer}.svg`), peer);
console.log(`${sheet}: ${panels.map(([name]) => name).join(' | ')} at ${z}×`);

/** potrace 1.16's CLI on the input binarised at Otsu's threshold of its luma (as measure.mjs runs it). */
async function potrace(png: Buffer): Promise<string> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const luma = new Uint8Array(info.width * info.height);
  for (let i = 0; i < luma.length; i++) luma[i] = Math.round(luma601(data[3 * i], data[3 * i + 1], data[3 * i + 2]));
  const hist = new Float64Array(256);
  for (const v of luma) hist[v]++;
  const scores = otsuSplitScores(hist, luma.length);
  let threshold = 0;
  for (let t = 1; t < 256; t++) if (scores[t] > scores[threshold]) threshold = t;
  const rowBytes = Math.ceil(info.width / 8);
  const bits = Buffer.alloc(rowBytes * info.height);
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) if (luma[y * info.width + x] <= threshold) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
  const pbm = Buffer.concat([Buffer.from(`P4\n${info.width} ${info.height}\n`), bits]);
  return execFileSync('potrace', ['-s', '-o', '-', '-'], { input: pbm, maxBuffer: 1 << 30 }).toString('utf8');
}
