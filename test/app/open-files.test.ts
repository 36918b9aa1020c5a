import t from 'tap';
import { mkdtemp, rm, writeFile, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathsFromArgv, readImages } from '../../app/open-files.js';
import { MAX_UPLOAD_BYTES } from '../../server/limits.js';

t.test('command-line paths: images and folders, not flags or the app dir', async (t) => {
  t.same(
    pathsFromArgv(
      ['/opt/Vectorize/vectorize-desktop', '--no-sandbox', '.', 'logo.png', '/abs/set', 'notes.txt', 'C:\\art\\b.webp'],
      '/home/me',
    ),
    ['/home/me/logo.png', '/abs/set', 'C:\\art\\b.webp'],
  );
});

t.test('a file over the upload limit is read only one byte past it (the server then says file_too_large)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-open-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const big = join(dir, 'huge.png');
  const handle = await open(big, 'w');
  await handle.truncate(MAX_UPLOAD_BYTES + 10_000);
  await handle.close();
  await writeFile(join(dir, 'small.bmp'), 'BM');
  const [huge] = await readImages([big]);
  t.equal(huge.bytes.length, MAX_UPLOAD_BYTES + 1);
  const [small] = await readImages([join(dir, 'small.bmp')]);
  t.same([small.name, small.path, small.type, small.bytes.length], ['small.bmp', 'small.bmp', 'image/bmp', 2]);
  t.same(await readImages([join(dir, 'missing.png')]), [], 'a path that vanished is skipped');
});
