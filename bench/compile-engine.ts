/**
 * The engine as the server runs it: `npm start` runs tsc's output in dist/, not TypeScript through
 * tsx (whose esbuild transform keeps function names by wrapping every closure in a helper call,
 * which costs measurably in the engine's inner loops). The benchmarks therefore compile engine/
 * with the same tsc and the project's tsconfig (emit only) into a cache folder inside node_modules,
 * so the engine's own imports resolve, and leave dist/ alone. Returns the compiled engine folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where compileEngine(cacheName) puts the engine (a child process can import it without compiling). */
export function compiledEnginePath(cacheName: string): string {
  return path.join(ROOT, 'node_modules', '.cache', cacheName, 'engine');
}

export function compileEngine(cacheName: string): string {
  const outDir = path.dirname(compiledEnginePath(cacheName));
  // Fresh files, never rewritten in place: a checkout whose node_modules is hard-linked from
  // another shares these inodes, and tsc writing through them would swap the other's engine.
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const config = path.join(outDir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.json'),
      compilerOptions: { rootDir: ROOT, outDir, sourceMap: false, noEmitOnError: false },
      include: [path.join(ROOT, 'engine')],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--noCheck'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
  return compiledEnginePath(cacheName);
}
