/**
 * CLI speed, as a user meets it: whole `node bin/vectorize.js convert` processes, timed from
 * spawn to exit (module loading, model loading and cold JIT included). Needs `npm run build`.
 *
 *   node --import tsx bench/cli.ts [--images 40] [--repeat 5]
 *
 * - batch: --images small generated clip-art PNGs (128×128) converted by one call on a folder,
 *   beside the same images converted by one call each; throughput ratio = separate / one call.
 * - cold start: one call on one generated 0.25 MP (500×500) PNG, median of --repeat, with
 *   --image-type clipart (no classifier) and with the default auto.
 * Images are made here with sharp into a temporary folder (never the shared corpus).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir, availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';

const { values: args } = parseArgs({ options: { images: { type: 'string', default: '40' }, repeat: { type: 'string', default: '5' } } });
const count = Math.max(2, Number(args.images));
const repeat = Math.max(1, Number(args.repeat));
const bin = resolve(import.meta.dirname, '../bin/vectorize.js');

/** Flat clip art: a tinted background, a disc, a rounded bar and a dark triangle. */
function clipArt(size: number, seed: number): Buffer {
  const hue = (seed * 47) % 360;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
<rect width="100%" height="100%" fill="hsl(${hue},30%,92%)"/>
<circle cx="${size * 0.4}" cy="${size * 0.45}" r="${size * 0.28}" fill="hsl(${(hue + 120) % 360},70%,40%)"/>
<rect x="${size * 0.55}" y="${size * 0.15}" width="${size * 0.3}" height="${size * 0.5}" rx="${size * 0.05}"
  fill="hsl(${(hue + 240) % 360},60%,55%)"/>
<polygon points="${size * 0.1},${size * 0.9} ${size * 0.5},${size * 0.6} ${size * 0.9},${size * 0.92}" fill="#222"/></svg>`);
}

function timed(argv: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, 'convert', ...argv], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`convert ${argv.join(' ')} exited ${run.status}: ${run.stderr}${run.stdout.slice(-500)}`);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = await mkdtemp(join(tmpdir(), 'vectorize-bench-cli-'));
try {
  const small = join(dir, 'small');
  await mkdir(small);
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    files.push(join(small, `img${String(i).padStart(3, '0')}.png`));
    await sharp(clipArt(128, i)).png().toFile(files[i]);
  }
  const quarter = join(dir, 'quarter.png');
  await sharp(clipArt(500, 7)).png().toFile(quarter);

  const separate = files.reduce((sum, file, i) => sum + timed([file, '-o', join(dir, `separate-${i}.svg`)]), 0);
  const batch = timed([small, '-o', join(dir, 'batch')]);
  console.log(`${count} images of 128×128, ${availableParallelism()} cores`);
  console.log(`  ${count} separate calls: ${separate.toFixed(2)} s (${(count / separate).toFixed(1)} images/s)`);
  console.log(`  one call on the folder: ${batch.toFixed(2)} s (${(count / batch).toFixed(1)} images/s)`);
  console.log(`  throughput ratio: ${(separate / batch).toFixed(1)}×`);

  for (const imageType of ['clipart', 'auto']) {
    const walls = Array.from({ length: repeat }, (_, i) =>
      timed([quarter, '-o', join(dir, `quarter-${imageType}-${i}.svg`), '--image-type', imageType]),
    );
    const wallList = walls.map((w) => w.toFixed(2)).join(', ');
    console.log(`one 0.25 MP image, --image-type ${imageType}: median ${median(walls).toFixed(2)} s wall (${wallList})`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
