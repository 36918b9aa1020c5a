/**
 * Packaging: electron-builder's Linux `dir` target with a stand-in Electron (electronDist: a folder
 * made here with a fake `electron` executable), run offline on a staging copy of the project that
 * also holds decoys (tests, benchmarks, sources, maps, training scripts). The app.asar it writes
 * must hold the app and its production dependencies and none of the decoys or dev dependencies.
 */
import t from 'tap';
import { chmod, cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import asar from '@electron/asar';
import { build, Platform, Arch } from 'electron-builder';
import { buildFrontEnd } from '../../app/renderer/build.js';

const repo = process.cwd();
const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
  version: string;
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const electronVersion = JSON.parse(await readFile(join(repo, 'node_modules', 'electron', 'package.json'), 'utf8')).version as string;

/** The files of an unpacked Electron that electron-builder touches when it lays out `dir`. */
async function standInElectron(dir: string): Promise<void> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  await mkdir(join(dir, 'locales'), { recursive: true });
  await writeFile(join(dir, 'electron'), '#!/bin/sh\necho stand-in electron\n');
  await chmod(join(dir, 'electron'), 0o755);
  await writeFile(join(dir, 'version'), `v${electronVersion}`);
  await writeFile(join(dir, 'LICENSE'), 'MIT');
  await writeFile(join(dir, 'LICENSES.chromium.html'), '<html></html>');
  await writeFile(join(dir, 'locales', 'en-US.pak'), 'en');
  await writeFile(join(dir, 'locales', 'de.pak'), 'de');
}

/** A copy of what a clean checkout has after `npm run build`, plus files that must not ship. */
async function stage(dir: string): Promise<void> {
  for (const entry of ['package.json', 'electron-builder.yml', 'build']) await cp(join(repo, entry), join(dir, entry), { recursive: true });
  // The page and preload are built fresh into the stage (the e2e test may be rebuilding the repo's copy).
  await cp(join(repo, 'dist'), join(dir, 'dist'), {
    recursive: true,
    filter: (src) => !src.startsWith(join(repo, 'dist', 'renderer')) && !src.endsWith('preload.cjs'),
  });
  await buildFrontEnd({ outDir: join(dir, 'dist', 'renderer'), preloadFile: join(dir, 'dist', 'app', 'preload.cjs') });
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await mkdir(join(dir, 'models'), { recursive: true });
  for (const name of await readdir(join(repo, 'models'))) {
    if (name.endsWith('.onnx') || name.endsWith('.json')) await cp(join(repo, 'models', name), join(dir, 'models', name));
  }
  const decoys: Record<string, string> = {
    'test/app/decoy.test.ts': 'test',
    'bench/decoy.ts': 'bench',
    'app/decoy.ts': 'source',
    'models/train.ts': 'training',
    'models/.cache/data/decoy.bin': 'cache',
    'dist/app/decoy.js.map': '{}',
    'dist/test/decoy.test.js': 'compiled test',
    'dist/bench/decoy.js': 'compiled bench',
    'README.md': 'readme',
  };
  for (const [path, text] of Object.entries(decoys)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

function ensureBuilt(): void {
  // CI builds through `npm install` (prepare); a bare checkout gets the same build here.
  if (!existsSync(join(repo, pkg.main)) || !existsSync(join(repo, 'dist', 'server', 'app.js'))) {
    execFileSync('npm', ['run', 'build'], { cwd: repo, stdio: 'ignore' });
  }
}

t.test('electron-builder dir packs the app and production dependencies only', async (t) => {
  ensureBuilt();
  const work = await mkdtemp(join(tmpdir(), 'vectorize-pack-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const project = join(work, 'project');
  const electronDist = join(work, 'electron-dist');
  const output = join(work, 'release');
  await mkdir(project);
  await stage(project);
  await standInElectron(electronDist);

  await build({
    projectDir: project,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    publish: 'never',
    config: { electronDist, electronVersion, directories: { output } } as never,
  });

  const appDir = join(output, 'linux-unpacked');
  t.ok(existsSync(join(appDir, 'vectorize-desktop')), 'the stand-in electron became the app executable');
  t.same(await readdir(join(appDir, 'locales')), ['en-US.pak'], 'only the shipped language is kept');
  const archive = join(appDir, 'resources', 'app.asar');
  const files = asar.listPackage(archive, { isPack: false }).map((file) => file.replace(/\\/g, '/'));
  const has = (path: string): boolean => files.includes(path);

  const packed = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as { main: string; version: string };
  t.equal(packed.main, 'dist/app/main.js');
  t.equal(packed.version, pkg.version);
  for (const path of [
    '/dist/app/main.js',
    '/dist/app/desktop.js',
    '/dist/app/security.js',
    '/dist/app/preload.cjs',
    '/dist/renderer/index.html',
    '/dist/renderer/app.js',
    '/dist/renderer/app.css',
    '/dist/server/app.js',
    '/dist/server/plugins/frontend.js',
    '/dist/engine/index.js',
  ]) {
    t.ok(has(path), `${path} is packed`);
  }

  const modules = new Set(
    files
      .filter((file) => file.startsWith('/node_modules/'))
      .map((file) => {
        const parts = file.split('/');
        return parts[2].startsWith('@') ? `${parts[2]}/${parts[3]}` : parts[2];
      }),
  );
  const unpackedModules = join(appDir, 'resources', 'app.asar.unpacked', 'node_modules');
  for (const name of Object.keys(pkg.dependencies)) {
    t.ok(modules.has(name) || existsSync(join(unpackedModules, name)), `production dependency ${name} is packed`);
  }
  // Dev-only = dev dependencies that no production dependency pulls in (npm's own view).
  const productionTree = new Set(
    execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: repo, encoding: 'utf8' })
      .split('\n')
      .map((line) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)$/.exec(line.trim())?.[1]?.replace(/\\/g, '/'))
      .filter((name): name is string => !!name),
  );
  for (const name of Object.keys(pkg.devDependencies)) {
    if (productionTree.has(name)) continue;
    t.notOk(modules.has(name), `dev dependency ${name} is not packed`);
  }
  for (const name of ['tap', 'typescript', 'electron', 'electron-builder', 'playwright-core', 'esbuild']) {
    t.notOk(modules.has(name), `${name} (tooling) is not packed`);
  }
  t.ok(existsSync(join(unpackedModules, 'sharp')), 'native sharp is unpacked for dlopen');
  const onnxBins = join(unpackedModules, 'onnxruntime-node', 'bin', 'napi-v6');
  if (existsSync(onnxBins)) t.same(await readdir(onnxBins), [process.platform], "only this OS's onnxruntime binaries");

  const forbidden = files.filter(
    (file) =>
      /^\/(test|bench|app|engine|server|client|cli|tui)\//.test(file) ||
      /^\/models\/.*\.ts$/.test(file) ||
      file.includes('/.cache/') ||
      /^\/dist\/(test|bench|cli-bundle)\//.test(file) ||
      (/^\/dist\//.test(file) && /\.(map|ts)$/.test(file)) ||
      file === '/dist/app/renderer/build.js' ||
      file === '/README.md',
  );
  t.same(forbidden, [], 'no tests, benchmarks, sources, maps, caches or training scripts');
  t.notOk(
    files.some((file) => file.endsWith('.map')),
    'no source maps anywhere',
  );
});

t.test('the desktop entry in build/ and the one electron-builder writes agree', async (t) => {
  const entry = await readFile(join(repo, 'build', 'vectorize.desktop'), 'utf8');
  const yml = await readFile(join(repo, 'electron-builder.yml'), 'utf8');
  t.match(entry, /^Categories=Graphics;/m, 'listed under Graphics');
  for (const key of ['Name', 'GenericName', 'Comment', 'Categories', 'Keywords', 'StartupWMClass']) {
    const value = new RegExp(`^${key}=(.*)$`, 'm').exec(entry)?.[1];
    t.ok(value, `${key} is in build/vectorize.desktop`);
    t.ok(yml.includes(`      ${key}: ${value}\n`), `${key} is the same in electron-builder.yml`);
  }
  for (const size of [16, 32, 48, 64, 128, 256, 512])
    t.ok(existsSync(join(repo, 'build', 'icons', `${size}x${size}.png`)), `${size}px icon`);
});
