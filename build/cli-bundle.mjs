#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli/main.js and what it imports from dist/) into a few files in
 * dist/cli-bundle/, for `vectorize convert` (bin/vectorize.js). A cold one-file call loaded about
 * 70 ES modules one by one, each resolved, read and compiled on its own; from a handful of bundled
 * files the main thread spent about a tenth less CPU (docs/cli.md, "Cold start"). Packages stay
 * outside (sharp and onnxruntime are native), and so do the worker threads' entry files: they are
 * started from dist/ as before.
 *
 * A module that finds files beside itself through `import.meta.url` (the model, the workers,
 * package.json) gets the URL of its own file in dist/ instead of the bundle's, so every such path
 * stays what it was. Run by `npm run build` after tsc.
 *
 *   node build/cli-bundle.mjs [OUTDIR]   (default dist/cli-bundle)
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const outdir = process.argv[2] ? resolve(process.argv[2]) : join(dist, 'cli-bundle');

/** `import.meta.url` in each bundled file becomes the URL of that file in dist/, relative to the bundle. */
const ownUrlPlugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
      const fromBundle = relative(outdir, args.path).split(sep).join('/');
      const ownUrl = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', ownUrl), loader: 'js' };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [join(dist, 'cli', 'main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  plugins: [ownUrlPlugin],
});
