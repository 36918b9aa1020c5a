/** The data dir is readable by the server's user alone, whatever the umask and whatever an earlier run left. */
import t from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secureDataDir } from '../../../server/adapters/data-dir.js';

t.test('existing entries are tightened and new files are created 0600', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-perms-'));
  const umask = process.umask(0o022);
  t.teardown(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });
  mkdirSync(join(dir, 'uploads'));
  writeFileSync(join(dir, 'db.json'), '{}');
  writeFileSync(join(dir, 'uploads', 'job_x'), 'png');
  chmodSync(dir, 0o755);
  t.equal(statSync(join(dir, 'db.json')).mode & 0o777, 0o644, 'the default umask left it world-readable');

  t.equal(secureDataDir(dir), 4, 'the dir, uploads/, db.json and the upload were changed');
  for (const path of [dir, join(dir, 'uploads')]) t.equal(statSync(path).mode & 0o777, 0o700, `${path} is 0700`);
  for (const path of [join(dir, 'db.json'), join(dir, 'uploads', 'job_x')]) t.equal(statSync(path).mode & 0o777, 0o600, `${path} is 0600`);
  t.equal(secureDataDir(dir), 0, 'a second start changes nothing');

  writeFileSync(join(dir, 'results.svg'), '<svg/>');
  mkdirSync(join(dir, 'tmp'));
  t.equal(statSync(join(dir, 'results.svg')).mode & 0o777, 0o600, 'a new file is 0600 under the server umask');
  t.equal(statSync(join(dir, 'tmp')).mode & 0o777, 0o700, 'a new dir is 0700');
});
