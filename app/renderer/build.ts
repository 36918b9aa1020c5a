/**
 * Builds the front end into dist/renderer/ (one bundled script, the page, its stylesheet and
 * icon) and the preload into dist/app/preload.cjs. The preload is bundled as CommonJS because a
 * sandboxed Electron preload cannot load ES modules; everything else in the package is ESM.
 * Run by `npm run build` after tsc; `--watch` rebuilds on change for development.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outRenderer = join(root, 'dist', 'renderer');
const watch = process.argv.includes('--watch');

const renderer: esbuild.BuildOptions = {
  entryPoints: [join(root, 'app', 'renderer', 'main.ts')],
  outfile: join(outRenderer, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  // Electron 41 ships Chromium 146; LAN browsers are evergreen. No polyfills needed.
  target: ['chrome120', 'firefox121', 'safari17'],
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  legalComments: 'none',
  logLevel: 'warning',
};

const preload: esbuild.BuildOptions = {
  entryPoints: [join(root, 'app', 'preload.ts')],
  outfile: join(root, 'dist', 'app', 'preload.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['electron'],
  sourcemap: false,
  logLevel: 'warning',
};

async function copyStatic(): Promise<void> {
  await mkdir(outRenderer, { recursive: true });
  await copyFile(join(root, 'app', 'renderer', 'index.html'), join(outRenderer, 'index.html'));
  await copyFile(join(root, 'app', 'renderer', 'app.css'), join(outRenderer, 'app.css'));
  await copyFile(join(root, 'build', 'icon.svg'), join(outRenderer, 'icon.svg'));
}

if (watch) {
  await copyStatic();
  for (const options of [renderer, preload]) await (await esbuild.context(options)).watch();
  process.stdout.write('watching app/renderer and app/preload.ts…\n');
} else {
  await Promise.all([esbuild.build(renderer), esbuild.build(preload), copyStatic()]);
}
