import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

t.test('every compiled kernel module is what its AssemblyScript source compiles to now', async (t) => {
  // build/wasm.ts --check compiles every source again and compares, writing nothing
  const check = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'build', 'wasm.ts'), '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.equal(check.status, 0, `modules up to date (else: npm run build:wasm)\n${check.stdout}${check.stderr}`);
  t.match(check.stdout, /kernels up to date/);
});
