import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveNames, crc32, zipFiles } from '../../../app/renderer/zip.js';

const UNZIP = '/usr/bin/unzip';
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

t.test('crc32 matches the standard check value', async (t) => {
  t.equal(crc32(encode('123456789')), 0xcbf43926);
  t.equal(crc32(new Uint8Array(0)), 0);
});

t.test('archive names: folders kept, nothing escapes the folder it is unpacked in, no duplicates', async (t) => {
  t.same(archiveNames(['logo.svg', 'logo.svg', 'Logo.svg', 'logos/acme.svg', 'logos/acme.svg']), [
    'logo.svg',
    'logo (2).svg',
    'Logo (3).svg',
    'logos/acme.svg',
    'logos/acme (2).svg',
  ]);
  t.same(archiveNames(['../../etc/x.svg', '/abs/y.svg', 'C:\\Users\\z.svg', 'a/./b/../c.svg']), [
    'etc/x.svg',
    'abs/y.svg',
    'C_/Users/z.svg',
    'a/b/c.svg',
  ]);
  t.same(archiveNames(['', '..', 'what?.svg']), ['image.svg', 'image (2).svg', 'what_.svg']);
});

t.test('unzip reads back every file byte for byte', { skip: existsSync(UNZIP) ? false : 'unzip not installed' }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-zip-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const big = `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0L10 10Z" fill="#e11d48"/>'.repeat(2_000)}</svg>`;
  const entries = [
    { name: 'logo.svg', data: encode(big) },
    { name: 'logos/café – 1.svg', data: encode('<svg/>') },
    { name: 'empty.svg', data: new Uint8Array(0) },
  ];
  const blob = await zipFiles(entries, new Date(2026, 10, 24, 12, 30, 10));
  t.equal(blob.type, 'application/zip');
  t.ok(blob.size < big.length / 5, `the repetitive SVG is deflated (${blob.size} bytes for ${big.length})`);
  const archive = join(dir, 'all.zip');
  await writeFile(archive, new Uint8Array(await blob.arrayBuffer()));
  t.match(execFileSync(UNZIP, ['-t', archive], { encoding: 'utf8' }), /No errors detected/);
  const listing = execFileSync(UNZIP, ['-Z', '-T', archive], { encoding: 'utf8' });
  t.match(listing, /20261124\.1230(10|08)/, 'the timestamp survives (two-second steps)');
  execFileSync(UNZIP, ['-q', archive, '-d', join(dir, 'out')]);
  t.equal(await readFile(join(dir, 'out', 'logo.svg'), 'utf8'), big);
  t.equal(await readFile(join(dir, 'out', 'logos', 'café – 1.svg'), 'utf8'), '<svg/>', 'UTF-8 names unpack with their accents');
  t.equal((await readFile(join(dir, 'out', 'empty.svg'))).length, 0);
});
