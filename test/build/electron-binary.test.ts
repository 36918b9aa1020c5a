/**
 * build/electron-binary.mjs, our postinstall step: a failed Electron download is one line and exit
 * 0 (the install goes on); `--check` (npm run app:dev) fails with how to get the binary. The
 * download is pointed at a closed port on 127.0.0.1 so the test never leaves the machine.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import path from 'node:path';

const script = path.resolve('build/electron-binary.mjs');
const run = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });

t.test('--check: exit 1 with how to get the binary when it is missing, 0 when it is there', async (t) => {
  const missing = run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: path.join(t.testdir(), 'nothing-here') });
  t.equal(missing.status, 1);
  t.match(missing.stderr, /^The Electron binary is not installed .*node build\/electron-binary\.mjs.* while online/);
  const dir = t.testdir({ electron: '#!/bin/sh\n' });
  chmodSync(path.join(dir, 'electron'), 0o755);
  t.equal(run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: dir }).status, 0);
});

t.test('a download that cannot reach its server is one line, and the install goes on', async (t) => {
  const cache = t.testdir();
  const r = run([], {
    ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    electron_config_cache: cache,
    ELECTRON_OVERRIDE_DIST_PATH: path.join(cache, 'none'),
  });
  t.equal(r.status, 0, 'exit 0');
  t.equal(r.stderr, '');
  t.match(r.stdout, /^vectorize: Electron's binary was not downloaded \([^)]*\); only `npm run app:dev` and packaging need it: [^\n]+\n$/);
  t.equal(run([], { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }).stdout, '', 'ELECTRON_SKIP_BINARY_DOWNLOAD skips it silently');
});
