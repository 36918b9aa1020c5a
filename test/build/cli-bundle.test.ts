/**
 * build/cli-bundle.mjs: the bundled CLI that bin/vectorize.js runs for `convert` traces the same
 * SVG bytes as the compiled dist/ it is made from, for clip art, `auto` (the classifier's model
 * found from the bundle) and an image over a megapixel (fitting threads started from dist/).
 * Needs `npm run build` (dist/), as the other tests of the built CLI.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Flat clip art: a disc and a bar on a tinted ground, `side` pixels square. */
async function clipArt(file: string, side: number): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
<rect width="100%" height="100%" fill="#e8eef4"/><circle cx="${side * 0.4}" cy="${side * 0.45}" r="${side * 0.28}" fill="#2a7a3a"/>
<rect x="${side * 0.6}" y="${side * 0.1}" width="${side * 0.25}" height="${side * 0.6}" rx="${side * 0.05}" fill="#c04080"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}

/**
 * Runs `main(['convert', ...args])` of one CLI entry in a fresh process (from a script file: the
 * fitting threads inherit the process's flags, so no `--input-type -e`); its stdout is the SVG.
 */
function convert(dir: string, entry: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const runner = path.join(dir, `run-${path.basename(path.dirname(entry))}.mjs`);
  const url = JSON.stringify(pathToFileURL(entry).href);
  writeFileSync(runner, `const { main } = await import(${url});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  return spawnSync(process.execPath, [runner, 'convert', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

const compiled = path.join(ROOT, 'dist', 'cli', 'main.js');
const notBuilt = existsSync(compiled) ? false : 'dist/ is not built (npm run build)';

t.test('the bundled convert writes the same bytes as dist/', { skip: notBuilt }, async (t) => {
  const dir = t.testdir();
  const bundle = path.join(dir, 'bundle');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'build', 'cli-bundle.mjs'), bundle], { encoding: 'utf8', timeout: 120_000 });
  t.equal(built.status, 0, built.stderr);
  const source = readFileSync(path.join(bundle, 'main.js'), 'utf8');
  t.notMatch(source, /from "\.\.?\//, 'no relative imports left: the CLI is in the bundle');

  const small = path.join(dir, 'small.png');
  const large = path.join(dir, 'large.png');
  await clipArt(small, 300);
  await clipArt(large, 1100);
  for (const args of [[small, '--image-type', 'clipart'], [small], [large, '--image-type', 'clipart']]) {
    const fromBundle = convert(dir, path.join(bundle, 'main.js'), args);
    const fromDist = convert(dir, compiled, args);
    t.equal(fromBundle.status, 0, fromBundle.stderr);
    t.equal(fromDist.status, 0, fromDist.stderr);
    t.ok(fromBundle.stdout.startsWith('<svg'), `an SVG for ${args.slice(1).join(' ') || 'auto'}`);
    t.equal(fromBundle.stdout, fromDist.stdout, `same SVG: ${path.basename(args[0])} ${args.slice(1).join(' ') || 'auto'}`);
  }
});
