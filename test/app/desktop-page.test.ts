/**
 * The page as the desktop app shows it: chromium with a stand-in for the preload bridge
 * (window.vectorizeDesktop) against the small fake /v1 API. Checks that the key comes from the
 * bridge (no key dialog), that menu commands and OS-opened files drive the page, and that saving
 * goes through the bridge's native dialogs instead of a browser download.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildFrontEnd } from '../../app/renderer/build.js';
import { chromiumMissing, launchChromium } from './helpers/browser.js';
import { startFakeV1 } from './helpers/fake-v1.js';

const missing = chromiumMissing();

t.test('desktop mode: key, files and menu from the bridge; saves through it', { skip: missing }, async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'vectorize-desktop-page-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  const rendererDir = await buildFrontEnd({ outDir: join(out, 'renderer'), preloadFile: join(out, 'preload.cjs') });
  const fake = await startFakeV1({ rendererDir });
  t.teardown(() => fake.stop());
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();

  await page.addInitScript(
    ({ key, pngBase64 }) => {
      const calls: Array<[string, unknown]> = [];
      const listeners: { menu?: (command: string) => void; files?: (files: unknown[]) => void } = {};
      const bytes = Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0));
      (window as any).__bridge = { calls, listeners };
      (window as any).vectorizeDesktop = {
        platform: 'linux',
        getApiKey: async () => key,
        openImages: async (options: unknown) => {
          calls.push(['openImages', options]);
          return [{ name: 'picked.png', path: 'set/picked.png', type: 'image/png', bytes }];
        },
        saveSvg: async (file: { name: string; svg: string }) => {
          calls.push(['saveSvg', file]);
          return { saved: [`/home/me/${file.name}`], canceled: false };
        },
        saveAll: async (files: unknown[], mode: string) => {
          calls.push(['saveAll', { count: files.length, mode }]);
          return { saved: files.map((_, i) => `/out/${i}.svg`), canceled: false };
        },
        onFilesOpened: (listener: (files: unknown[]) => void) => ((listeners.files = listener), () => undefined),
        onMenuCommand: (listener: (command: string) => void) => ((listeners.menu = listener), () => undefined),
      };
    },
    { key: fake.key, pngBase64: png.toString('base64') },
  );

  await page.goto(fake.url);
  await page.waitForSelector('#trial:has-text("Trial · 5 of 5 conversions left")');
  t.equal(await page.isVisible('#key-dialog'), false, 'no key prompt: the app handed the key over');
  t.equal(await page.isVisible('#change-key'), false);
  t.equal(await page.evaluate(() => document.documentElement.dataset.desktop), 'linux');

  // File > Open… runs the native dialog through the bridge.
  await page.evaluate(() => (window as any).__bridge.listeners.menu('open'));
  await page.waitForSelector('#queue li:has-text("set/picked.png")');
  // A file the OS handed over (dropped on the icon, a second launch).
  await page.evaluate(() => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    (window as any).__bridge.listeners.files([{ name: 'from-os.png', path: 'from-os.png', type: 'image/png', bytes }]);
  });
  await page.waitForSelector('#queue li:has-text("from-os.png")');
  await page.waitForFunction(() => document.querySelectorAll('#queue li[data-state=completed]').length === 2, undefined, {
    timeout: 20_000,
  });

  await page.click('#queue li:has-text("set/picked.png")');
  await page.keyboard.press('s');
  await page.waitForSelector('#toast:has-text("Saved /home/me/picked.svg")');
  await page.evaluate(() => (window as any).__bridge.listeners.menu('save-all-each'));
  await page.waitForSelector('#toast:has-text("Saved 2 SVGs")');
  const calls = await page.evaluate(() => (window as any).__bridge.calls as Array<[string, any]>);
  t.same(calls[0], ['openImages', { folder: false }]);
  t.equal(calls[1][0], 'saveSvg');
  t.equal(calls[1][1].name, 'picked.svg');
  t.match(calls[1][1].svg, /^<svg/);
  t.same(calls[2], ['saveAll', { count: 2, mode: 'each' }]);
  // The Save all button keeps the app's folder picker; the browser's ZIP download is not used here.
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));
  await page.click('#save-all');
  await page.waitForFunction(() => (window as any).__bridge.calls.length === 4);
  t.same((await page.evaluate(() => (window as any).__bridge.calls as Array<[string, any]>))[3], ['saveAll', { count: 2, mode: 'folder' }]);
  t.same(downloads, []);
  t.equal(fake.jobs.length, 2, 'both files went to the API');
});
