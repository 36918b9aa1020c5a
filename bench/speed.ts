/**
 * `npm run bench:speed [-- --rounds 5] [--class clipart,photo] [--ids a,b] [--save DIR] [--ours-only] [--cold] [--memory] [--source]`
 *
 * Trace speed, our engine beside VTracer, in ONE process: for every clip-* / photo-* image of the
 * public corpus (../shared/bench/corpus, read in place, never copied) the two tracers alternate,
 * round after round, so both see the same load on a shared, noisy box. Only the ratio ours/VTracer
 * from the same run is worth quoting; absolute milliseconds move with the machine's load.
 *
 * - ours: vectorize() with image_type from the manifest (the classifier is not timed), from the
 *   file's bytes, decode included (the engine decodes).
 * - VTracer: @neplex/vectorizer's vectorizeRaw with the settings ../shared/bench/measure.mjs uses
 *   for its `vtracer` peer, after the same decode measure.mjs does (sharp, flattened on white,
 *   RGB, widened to RGBA), decode included.
 * Unless --cold, one untimed pass over all images comes first (JIT warm-up, see below).
 * Per image: median wall ms and CPU ms (process.cpuUsage: every thread of this process, so a
 * tracer that works on other threads pays for it) of R rounds after one warm-up, and ms per
 * megapixel; per class: the median ms/MP of each and the ratio. --save DIR writes our SVGs (from
 * the last round) so a pure speed change can be proven byte-identical with `diff -r`.
 * --memory instead traces, each in a fresh process, one 16 MP photo and 16 MP of pure noise (the
 * busiest valid input: engine/budget.ts bounds it) and prints their peak resident memory.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { compileEngine, compiledEnginePath } from './compile-engine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    class: { type: 'string', default: 'clipart,photo' },
    ids: { type: 'string' },
    corpus: { type: 'string', default: path.resolve(ROOT, '..', 'shared', 'bench', 'corpus') },
    save: { type: 'string' },
    'ours-only': { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    memory: { type: 'boolean', default: false },
    'memory-child': { type: 'string' },
    source: { type: 'boolean', default: false },
  },
});
const rounds = Math.max(1, Number(args.rounds));

/** Unless --source, the compiled engine, as the server runs it (./compile-engine.ts says why). */
async function loadEngine(): Promise<{
  vectorize: typeof import('../engine/index.js').vectorize;
  parseTraceOptions: typeof import('../engine/options.js').parseTraceOptions;
}> {
  if (args.source) return { ...(await import('../engine/index.js')), ...(await import('../engine/options.js')) };
  // --memory's child reuses what its parent compiled.
  const engineDir = args['memory-child'] ? compiledEnginePath('vectorize-speed') : compileEngine('vectorize-speed');
  const at = (file: string) => pathToFileURL(path.join(engineDir, file)).href;
  return { ...(await import(at('index.js'))), ...(await import(at('options.js'))) };
}
const { vectorize, parseTraceOptions } = await loadEngine();

if (args['memory-child']) {
  // --memory's child: one trace of the given file, then this process's peak resident memory.
  // The noise goes the way the classifier sends it (scan: the line-art path, the costliest on
  // noise); the compiled engine carries no classifier model, so the class is named here.
  const input = new Uint8Array(readFileSync(args['memory-child']));
  const t0 = performance.now();
  const result = await vectorize(input, parseTraceOptions({ image_type: args['memory-child'].endsWith('noise.png') ? 'scan' : 'photo' }));
  const ms = performance.now() - t0;
  console.log(
    JSON.stringify({ ms: Math.round(ms), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), bytes: result.stats.bytes }),
  );
  process.exit(0);
}
const classes = new Set(args.class.split(','));
const ids = args.ids ? new Set(args.ids.split(',')) : null;

interface ManifestImage {
  id: string;
  file: string;
  class: string;
  split: string;
  width: number;
  height: number;
  megapixels: number;
}
let manifest: { images: ManifestImage[] };
try {
  manifest = JSON.parse(readFileSync(path.join(args.corpus, 'manifest.json'), 'utf8'));
} catch {
  console.log(`No corpus at ${args.corpus} (put ../shared/bench beside this repository). Nothing was measured.`);
  process.exit(0);
}
if (args.memory) {
  // Peak memory of one 16 MP photo trace, in a fresh process: the corpus's largest photo scaled up
  // to 5120×3200 and saved as a JPEG in a temp dir (made here, never kept).
  const photo = manifest.images.filter((m) => m.class === 'photo' && m.split === 'public').sort((a, b) => b.megapixels - a.megapixels)[0];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vectorize-speed-'));
  const big = path.join(dir, '16mp.jpg');
  await sharp(readFileSync(path.join(args.corpus, photo.file)))
    .resize(5120, 3200, { fit: 'fill' })
    .jpeg({ quality: 90 })
    .toFile(big);
  // 4000×4000 random RGB as a PNG: 50.7 MB, under the 50 MiB upload limit, allowed on every plan.
  const noise = path.join(dir, 'noise.png');
  await sharp(randomBytes(4000 * 4000 * 3), { raw: { width: 4000, height: 4000, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toFile(noise);
  const cases = [
    { file: big, label: `16 MP photo (${photo.id} scaled to 5120×3200)` },
    { file: noise, label: '16 MP pure noise (4000×4000 PNG, 50.7 MB)' },
  ];
  try {
    for (const { file, label } of cases) {
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), '--memory-child', file, ...(args.source ? ['--source'] : [])],
        { cwd: ROOT, encoding: 'utf8' },
      );
      if (child.status !== 0) {
        console.error(child.stderr);
        process.exit(1);
      }
      const r = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as { ms: number; maxRssMb: number; bytes: number };
      console.log(`${label}: ${r.ms} ms, peak RSS ${r.maxRssMb} MB (whole process, Node included), SVG ${r.bytes} bytes`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
const images = manifest.images.filter((m) => m.split === 'public' && classes.has(m.class) && (!ids || ids.has(m.id)));

// the same decode and settings measure.mjs uses for its `vtracer` peer (sharp single-threaded there too)
sharp.concurrency(1);
const require = createRequire(import.meta.url);
const { vectorizeRaw } = require('@neplex/vectorizer') as {
  vectorizeRaw(data: Buffer, size: { width: number; height: number }, config: Record<string, number>): Promise<string>;
};
const VTRACER_CONFIG = {
  colorMode: 0,
  hierarchical: 0,
  filterSpeckle: 4,
  colorPrecision: 6,
  layerDifference: 16,
  mode: 2,
  cornerThreshold: 60,
  lengthThreshold: 4.0,
  maxIterations: 10,
  spliceThreshold: 45,
  pathPrecision: 2,
};
async function decodeRgba(file: string): Promise<{ width: number; height: number; rgba: Buffer }> {
  const buf = readFileSync(file);
  const { data, info } = await sharp(buf, { failOn: 'none' })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const rgba = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) {
    rgba[4 * i] = data[3 * i];
    rgba[4 * i + 1] = data[3 * i + 1];
    rgba[4 * i + 2] = data[3 * i + 2];
    rgba[4 * i + 3] = 255;
  }
  return { width: info.width, height: info.height, rgba };
}

const tracers = {
  ours: async (image: ManifestImage): Promise<string> => {
    const options = parseTraceOptions({ image_type: image.class });
    return (await vectorize(new Uint8Array(await readFile(path.join(args.corpus, image.file))), options)).svg;
  },
  vtracer: async (image: ManifestImage): Promise<string> => {
    const decoded = await decodeRgba(path.join(args.corpus, image.file));
    return vectorizeRaw(decoded.rgba, { width: decoded.width, height: decoded.height }, VTRACER_CONFIG);
  },
};
type TracerName = keyof typeof tracers;
const names: TracerName[] = args['ours-only'] ? ['ours'] : ['ours', 'vtracer'];

async function timed(run: () => Promise<string>): Promise<{ wall: number; cpu: number; svg: string }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const svg = await run();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, svg };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
const fmt = (v: number) => (Number.isFinite(v) ? Math.round(v).toString() : '–');

interface Row {
  image: ManifestImage;
  wall: Record<string, number>;
  cpu: Record<string, number>;
}
const rows: Row[] = [];
if (args.save) mkdirSync(args.save, { recursive: true });
if (!args.cold) {
  // One pass over every image first, so our JavaScript is measured compiled (as in a server that
  // has traced a few images) rather than while V8 still tiers it up; VTracer is native and gains
  // nothing from this, but gets the same pass. --cold leaves it out (a one-shot CLI run).
  for (const image of images) for (const name of names) await tracers[name](image);
}
for (const image of images) {
  const wall: Record<string, number[]> = { ours: [], vtracer: [] };
  const cpu: Record<string, number[]> = { ours: [], vtracer: [] };
  let lastSvg = '';
  for (const name of names) await tracers[name](image); // warm-up: JIT, sharp, file cache
  for (let round = 0; round < rounds; round++) {
    // alternate who goes first so neither always runs right after the other's garbage
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const r = await timed(() => tracers[name](image));
      wall[name].push(r.wall);
      cpu[name].push(r.cpu);
      if (name === 'ours') lastSvg = r.svg;
    }
  }
  if (args.save) writeFileSync(path.join(args.save, `${image.id}.svg`), lastSvg);
  const row: Row = { image, wall: {}, cpu: {} };
  for (const name of names) {
    row.wall[name] = median(wall[name]);
    row.cpu[name] = median(cpu[name]);
  }
  rows.push(row);
  const mp = image.megapixels;
  console.error(
    `${image.id.padEnd(28)} ` +
      names.map((n) => `${n} ${fmt(row.wall[n])} ms (${fmt(row.wall[n] / mp)} ms/MP, cpu ${fmt(row.cpu[n])})`).join('  '),
  );
}

const lines: string[] = [];
lines.push(
  `Trace speed, ${rounds} rounds alternating in one process ` +
    `(median per image, ${args.cold ? 'cold: no warm-up pass' : 'after one warm-up pass over all images'}), ` +
    new Date().toISOString().slice(0, 10),
);
lines.push('');
lines.push('| image | MP | ours ms | ours cpu ms | ours ms/MP | VTracer ms | VTracer cpu ms | VTracer ms/MP | ours/VTracer |');
lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const mp = r.image.megapixels;
  const ratio = r.wall.ours / r.wall.vtracer;
  lines.push(
    `| ${r.image.id} | ${mp.toFixed(2)} | ${fmt(r.wall.ours)} | ${fmt(r.cpu.ours)} | ${fmt(r.wall.ours / mp)} | ` +
      `${fmt(r.wall.vtracer)} | ${fmt(r.cpu.vtracer)} | ${fmt(r.wall.vtracer / mp)} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : '–'} |`,
  );
}
lines.push('');
lines.push('| class | images | ours ms/MP | VTracer ms/MP | ours/VTracer (wall) | ours/VTracer (cpu) |');
lines.push('|---|---:|---:|---:|---:|---:|');
for (const cls of classes) {
  const of = rows.filter((r) => r.image.class === cls);
  if (!of.length) continue;
  const perMp = (name: TracerName, what: 'wall' | 'cpu') => median(of.map((r) => r[what][name] / r.image.megapixels));
  const ours = perMp('ours', 'wall');
  const vt = perMp('vtracer', 'wall');
  const cpuRatio = perMp('ours', 'cpu') / perMp('vtracer', 'cpu');
  lines.push(
    `| ${cls} | ${of.length} | ${fmt(ours)} | ${fmt(vt)} | ${Number.isFinite(ours / vt) ? (ours / vt).toFixed(2) : '–'} | ` +
      `${Number.isFinite(cpuRatio) ? cpuRatio.toFixed(2) : '–'} |`,
  );
}
console.log(lines.join('\n'));
