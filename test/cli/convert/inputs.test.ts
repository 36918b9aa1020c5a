import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { planBatch } from '../../../cli/convert/inputs.js';

async function png(file: string): Promise<void> {
  await sharp({ create: { width: 8, height: 6, channels: 3, background: '#204080' } })
    .png()
    .toFile(file);
}

t.test('folders are walked recursively; images are found by their bytes, the rest skipped', async (t) => {
  const dir = t.testdir({
    art: { 'a.png': '', deep: { er: { 'b.jpg': '' } }, 'notes.txt': 'hello', 'fake.png': 'not a png at all', 'empty.png': '' },
    'c.png': '',
  });
  await png(path.join(dir, 'art', 'a.png'));
  await sharp({ create: { width: 8, height: 6, channels: 3, background: '#204080' } })
    .jpeg()
    .toFile(path.join(dir, 'art', 'deep', 'er', 'b.jpg'));
  // an image with a misleading name is still an image
  await png(path.join(dir, 'art', 'notes.txt'));
  await png(path.join(dir, 'c.png'));
  const out = path.join(dir, 'out');
  const plan = await planBatch([path.join(dir, 'art'), path.join(dir, 'c.png')], out, false);
  t.same(plan.images.map((i) => path.relative(dir, i.output)).sort(), ['out/a.svg', 'out/c.svg', 'out/deep/er/b.svg', 'out/notes.svg']);
  t.same(plan.skipped.map((s) => [path.basename(s.label), s.reason]).sort(), [
    ['empty.png', 'not_an_image'],
    ['fake.png', 'not_an_image'],
  ]);
  t.same(plan.missing, []);

  const beside = await planBatch([path.join(dir, 'art')], undefined, false);
  t.same(beside.images.map((i) => path.relative(dir, i.output)).sort(), ['art/a.svg', 'art/deep/er/b.svg', 'art/notes.svg']);
});

t.test('existing SVGs are skipped unless force; two images sharing a name keep their extensions', async (t) => {
  const dir = t.testdir({ 'logo.png': '', 'logo.jpg': '', 'icon.png': '', 'icon.svg': 'already here' });
  await png(path.join(dir, 'logo.png'));
  await sharp({ create: { width: 8, height: 6, channels: 3, background: '#000' } })
    .jpeg()
    .toFile(path.join(dir, 'logo.jpg'));
  await png(path.join(dir, 'icon.png'));
  const plan = await planBatch([dir], undefined, false);
  t.same(plan.images.map((i) => path.basename(i.output)).sort(), ['logo.jpg.svg', 'logo.png.svg']);
  t.same(plan.skipped.map((s) => [path.basename(s.label), s.reason]).sort(), [
    ['icon.png', 'exists'],
    ['icon.svg', 'not_an_image'],
  ]);
  const forced = await planBatch([dir], undefined, true);
  t.same(forced.images.map((i) => path.basename(i.output)).sort(), ['icon.svg', 'logo.jpg.svg', 'logo.png.svg']);
});

t.test('a missing input is reported; the output folder inside an input folder is not walked', async (t) => {
  const dir = t.testdir({ 'a.png': '', out: { 'old.png': '' } });
  await png(path.join(dir, 'a.png'));
  await png(path.join(dir, 'out', 'old.png'));
  writeFileSync(path.join(dir, 'b.png'), '');
  const plan = await planBatch([dir, path.join(dir, 'nope')], path.join(dir, 'out'), false);
  t.same(
    plan.images.map((i) => path.basename(i.input)),
    ['a.png'],
  );
  t.equal(plan.missing.length, 1);
  t.match(plan.missing[0].message, 'no such file or folder');
});
