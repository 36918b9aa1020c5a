import t, { type Test } from 'tap';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { CHANNELS, type OpenedFile, type SaveResult } from '../../app/bridge.js';
import { registerBridgeHandlers, safeSvgName } from '../../app/ipc.js';
import { FakeDialog, FakeIpcMain } from './helpers/fake-electron.js';

const ORIGIN = 'http://127.0.0.1:43123';
const PAGE = `${ORIGIN}/`;

async function setup(t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'vectorize-ipc-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const ipcMain = new FakeIpcMain();
  const dialog = new FakeDialog();
  const unregister = registerBridgeHandlers({
    ipcMain: ipcMain as never,
    dialog: dialog as never,
    window: () => null,
    appOrigin: ORIGIN,
    apiKey: 'service_sk_live_appkey',
    defaultSaveDir: dir,
  });
  return { dir, ipcMain, dialog, unregister };
}

t.test('the key goes only to the app page', async (t) => {
  const { ipcMain, unregister } = await setup(t);
  t.equal(await ipcMain.invoke(CHANNELS.getApiKey, PAGE), 'service_sk_live_appkey');
  await t.rejects(ipcMain.invoke(CHANNELS.getApiKey, 'https://evil.example/'), /outside the app/);
  await t.rejects(ipcMain.invoke(CHANNELS.getApiKey, ''), /outside the app/, 'a frame without a URL is refused');
  unregister();
  t.equal(ipcMain.handlers.size, 0, 'unregister removes every handler');
});

t.test('save one SVG through the native dialog', async (t) => {
  const { dir, ipcMain, dialog } = await setup(t);
  dialog.saveAnswers.push({ canceled: false, filePath: join(dir, 'out') });
  const result = (await ipcMain.invoke(CHANNELS.saveSvg, PAGE, { name: '../../etc/logo.png', svg: '<svg/>' })) as SaveResult;
  t.same(result, { saved: [join(dir, 'out.svg')], canceled: false }, '.svg is added when the user drops it');
  t.equal(await readFile(join(dir, 'out.svg'), 'utf8'), '<svg/>');
  t.equal((dialog.saveCalls[0] as { defaultPath: string }).defaultPath, join(dir, 'logo.svg'), 'the suggested name is a bare .svg name');
  t.same(await ipcMain.invoke(CHANNELS.saveSvg, PAGE, { name: 'a', svg: '<svg/>' }), { saved: [], canceled: true });
  await t.rejects(ipcMain.invoke(CHANNELS.saveSvg, PAGE, { name: 'a', svg: 42 }), /name: string, svg: string/);
});

t.test('save all into a picked folder without overwriting, or one by one', async (t) => {
  const { dir, ipcMain, dialog } = await setup(t);
  const target = join(dir, 'picked');
  await mkdir(target);
  await writeFile(join(target, 'a.svg'), 'existing');
  dialog.openAnswers.push({ canceled: false, filePaths: [target] });
  const files = [
    { name: 'a.svg', svg: '<svg id="1"/>' },
    { name: 'a.svg', svg: '<svg id="2"/>' },
    { name: 'b.png', svg: '<svg id="3"/>' },
  ];
  const result = (await ipcMain.invoke(CHANNELS.saveAll, PAGE, files, 'folder')) as SaveResult;
  t.same(result.saved, [join(target, 'a (2).svg'), join(target, 'a (3).svg'), join(target, 'b.svg')]);
  t.equal(await readFile(join(target, 'a.svg'), 'utf8'), 'existing');
  t.equal(await readFile(join(target, 'b.svg'), 'utf8'), '<svg id="3"/>');
  t.same((dialog.openCalls[0] as { properties: string[] }).properties, ['openDirectory', 'createDirectory']);

  dialog.saveAnswers.push({ canceled: false, filePath: join(dir, 'one.svg') }, { canceled: true });
  const each = (await ipcMain.invoke(CHANNELS.saveAll, PAGE, files, 'each')) as SaveResult;
  t.same(each, { saved: [join(dir, 'one.svg')], canceled: true }, 'canceling one dialog stops the rest');
  await t.rejects(ipcMain.invoke(CHANNELS.saveAll, PAGE, 'nope', 'folder'), /list of files/);
});

t.test('open images (files or a folder) reads them for the page', async (t) => {
  const { dir, ipcMain, dialog } = await setup(t);
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  await mkdir(join(dir, 'set', 'sub'), { recursive: true });
  await mkdir(join(dir, 'set', '.hidden'));
  await writeFile(join(dir, 'set', 'b.png'), png);
  await writeFile(join(dir, 'set', 'notes.txt'), 'x');
  await writeFile(join(dir, 'set', 'sub', 'a.JPG'), png);
  await writeFile(join(dir, 'set', '.hidden', 'c.png'), png);
  dialog.openAnswers.push({ canceled: false, filePaths: [join(dir, 'set')] });
  const files = (await ipcMain.invoke(CHANNELS.openImages, PAGE, { folder: true })) as OpenedFile[];
  t.same(
    files.map((f) => [f.path, f.type]),
    [
      ['set/b.png', 'image/png'],
      ['set/sub/a.JPG', 'image/jpeg'],
    ],
  );
  t.same(Buffer.from(files[0].bytes), png);
  t.same((dialog.openCalls[0] as { properties: string[] }).properties, ['openDirectory']);

  dialog.openAnswers.push({ canceled: false, filePaths: [join(dir, 'set', 'b.png')] });
  const one = (await ipcMain.invoke(CHANNELS.openImages, PAGE, {})) as OpenedFile[];
  t.same(
    one.map((f) => f.path),
    ['b.png'],
  );
  t.same((dialog.openCalls[1] as { properties: string[] }).properties, ['openFile', 'multiSelections']);
  t.same(await ipcMain.invoke(CHANNELS.openImages, PAGE, {}), [], 'a canceled dialog opens nothing');
});

t.test('safeSvgName', async (t) => {
  t.equal(safeSvgName('C:\\work\\logo.final.png'), 'logo.final.svg');
  t.equal(safeSvgName('..'), 'image.svg');
  t.equal(safeSvgName('a:b*c?.png'), 'a_b_c_.svg');
  t.equal(safeSvgName('\u0007bell.svg'), '_bell.svg');
});
