#!/usr/bin/env node
/**
 * The Electron binary, fetched by our own postinstall step rather than electron's: package.json's
 * allowScripts turns electron's postinstall off because it fails the whole `npm install` when
 * GitHub cannot be reached, while only `npm run app:dev` and packaging need the binary (the server,
 * CLI, TUI and tests do not).
 *
 *   node build/electron-binary.mjs           fetch it if missing; on failure say so in one line, exit 0
 *   node build/electron-binary.mjs --check   exit 1 with how to get it when it is missing (app:dev)
 *
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1 skips the fetch, as with electron's own script.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const HOW_TO_GET_IT = 'run `node build/electron-binary.mjs` while online, or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron';

function electronPackageDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null; // `npm install --omit=dev`: no desktop app tooling at all
  }
}

/** electron's index.js throws when the binary is missing; when it is there it returns its path. */
function binaryPresent() {
  try {
    return existsSync(require('electron'));
  } catch {
    return false;
  }
}

const packageDir = electronPackageDir();
if (process.argv.includes('--check')) {
  if (packageDir && binaryPresent()) process.exit(0);
  process.stderr.write(`The Electron binary is not installed (npm install could not download it): ${HOW_TO_GET_IT}.\n`);
  process.exit(1);
}
if (!packageDir || process.env.ELECTRON_SKIP_BINARY_DOWNLOAD || binaryPresent()) process.exit(0);

// electron's own installer (it checks the cache and the checksums); its output is kept for the one line below.
const run = spawnSync(process.execPath, [join(packageDir, 'install.js')], { encoding: 'utf8', timeout: 10 * 60_000 });
if (run.status === 0 && binaryPresent()) process.exit(0);
const reason =
  `${run.stderr ?? ''}\n${run.error?.message ?? ''}`
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /error|failed|timed? ?out/i.test(line)) ?? `exit ${run.status}`;
process.stdout.write(
  `vectorize: Electron's binary was not downloaded (${reason.slice(0, 120)}); ` +
    `only \`npm run app:dev\` and packaging need it: ${HOW_TO_GET_IT}.\n`,
);
