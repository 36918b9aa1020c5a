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

interface BuildOptions {
  /** Defaults to dist/renderer. */
  outDir?: string;
  /** Defaults to dist/app/preload.cjs. */
  preloadFile?: string;
  watch?: boolean;
}

function rendererOptions(outDir: string, watch: boolean): esbuild.BuildOptions {
  return {
    entryPoints: [join(root, 'app', 'renderer', 'main.ts')],
    outfile: join(outDir, 'app.js'),
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
}

const preloadOptions = (outfile: string): esbuild.BuildOptions => ({
  entryPoints: [join(root, 'app', 'preload.ts')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['electron'],
  sourcemap: false,
  logLevel: 'warning',
});

async function copyStatic(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await copyFile(join(root, 'app', 'renderer', 'index.html'), join(outDir, 'index.html'));
  await copyFile(join(root, 'app', 'renderer', 'app.css'), join(outDir, 'app.css'));
  await copyFile(join(root, 'build', 'icon.svg'), join(outDir, 'icon.svg'));
}

export async function buildFrontEnd(options: BuildOptions = {}): Promise<string> {
  const outDir = options.outDir ?? join(root, 'dist', 'renderer');
  const watch = options.watch ?? false;
  const preload = preloadOptions(options.preloadFile ?? join(root, 'dist', 'app', 'preload.cjs'));
  await copyStatic(outDir);
  if (watch) {
    for (const config of [rendererOptions(outDir, true), preload]) await (await esbuild.context(config)).watch();
  } else {
    await Promise.all([esbuild.build(rendererOptions(outDir, false)), esbuild.build(preload)]);
  }
  return outDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const watch = process.argv.includes('--watch');
  await buildFrontEnd({ watch });
  if (watch) process.stdout.write('watching app/renderer and app/preload.ts…\n');
}
