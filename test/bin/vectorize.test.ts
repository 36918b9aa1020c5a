/**
 * bin/vectorize.js picks the CLI it runs: the bundle (build/cli-bundle.mjs) for `convert` when it
 * is at least as new as dist/, dist/ otherwise and for every other command. Checked on a copy of
 * the entry beside two stand-in CLIs that say which one ran.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const standIn = (name: string) => `export async function main(argv) { console.log('${name}', argv.join(' ')); return 0; }\n`;

t.test('convert runs the current bundle; a stale or missing one, and other commands, run dist/', async (t) => {
  const dir = t.testdir({
    bin: {},
    dist: { cli: { 'main.js': standIn('compiled') }, 'cli-bundle': { 'main.js': standIn('bundled') } },
  });
  copyFileSync(path.join(ROOT, 'bin', 'vectorize.js'), path.join(dir, 'bin', 'vectorize.js'));
  const run = (...argv: string[]) =>
    spawnSync(process.execPath, [path.join(dir, 'bin', 'vectorize.js'), ...argv], { encoding: 'utf8', timeout: 60_000 }).stdout;
  const age = (file: string, seconds: number) => utimesSync(path.join(dir, 'dist', file), seconds, seconds);

  age('cli/main.js', 1_000_000);
  age('cli-bundle/main.js', 2_000_000);
  t.equal(run('convert', 'a.png'), 'bundled convert a.png\n', 'convert: the bundle');
  t.equal(run('classify', 'a.png'), 'compiled classify a.png\n', 'another command: dist/');
  t.equal(run('serve'), 'compiled serve\n');

  age('cli/main.js', 3_000_000);
  t.equal(run('convert', 'a.png'), 'compiled convert a.png\n', 'dist/ rebuilt after the bundle: dist/');

  rmSync(path.join(dir, 'dist', 'cli-bundle'), { recursive: true });
  t.equal(run('convert', 'a.png'), 'compiled convert a.png\n', 'no bundle: dist/');
});
