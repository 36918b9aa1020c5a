/**
 * End to end: Debian chromium (playwright-core) against the REAL server, started in-process on
 * port 0 with a temp data dir and the real engine, an account and key made through its services.
 * Drops a PNG made here with sharp, watches the queue, sees the SVG, changes smoothing and
 * re-runs, saves (a browser download), and writes screenshots to test-output/.
 */
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildFrontEnd } from '../../app/renderer/build.js';
import { chromiumMissing, launchChromium, launchWithDownloads } from './helpers/browser.js';
import { dropFiles, logoPng, openSignedIn, startRealServer } from './helpers/real-server.js';

const OUTPUT = join(process.cwd(), 'test-output');
const missing = chromiumMissing();
// The server serves dist/renderer: build the page from the current sources once for this file.
if (!missing) await buildFrontEnd();

/** Records every state text the queue row shows, so the test sees the steps and not only the end. */
async function watchStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { __states: string[] }).__states = []);
    new MutationObserver(() => {
      for (const state of document.querySelectorAll('#queue .state')) {
        const text = state.textContent ?? '';
        if (seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document.querySelector('#queue')!, { subtree: true, childList: true, characterData: true });
  });
}

/** The next SVG the page downloads from the API (the page may not fetch its own blob: URLs under the CSP). */
function nextSvgDownload(page: Page): Promise<string> {
  return page
    .waitForResponse((response) => /\/v1\/jobs\/[^/]+\/download$/.test(response.url()) && response.ok(), { timeout: 60_000 })
    .then((r) => r.text());
}

t.test('front end against the real server: drop, progress, preview, re-run, save', { skip: missing }, async (t) => {
  const server = await startRealServer(t);
  await mkdir(OUTPUT, { recursive: true });
  const { browser } = await launchWithDownloads(t);
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A CSP violation shows up as a console error; the page must run clean under its policy.
    // (The one 401 is the wrong key this test types on purpose.)
    if (message.type() === 'error' && !/status of 401/.test(message.text())) errors.push(message.text());
  });

  const response = await page.goto(server.url);
  t.match(response?.headers()['content-security-policy'], /default-src 'none'/);

  // A wrong key is refused in plain words; the right one is kept for the tab.
  await page.fill('#key-input', 'service_sk_live_wrongwrongwrongwrongwrongwrong12');
  await page.click('#key-form button[type=submit]');
  await page.waitForSelector('#key-error:has-text("(unauthorized)")');
  await page.fill('#key-input', server.key);
  await page.click('#key-form button[type=submit]');
  await page.waitForSelector('#trial:has-text("Pro plan · 505 conversions left")');
  t.equal(await page.evaluate(() => sessionStorage.getItem('vectorize.apiKey')), server.key);

  await watchStates(page);
  const png = await logoPng();
  const firstDownload = nextSvgDownload(page);
  await dropFiles(page, [{ name: 'logo.png', type: 'image/png', bytes: png }]);
  const row = page.locator('#queue li').first();
  await row.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });
  const states = await page.evaluate(() => (window as unknown as { __states: string[] }).__states);
  t.ok(
    states.some((s) => /Uploading|Queued|Processing|Waiting/.test(s)),
    `progress was shown before the end (${states.join(' → ')})`,
  );
  t.equal(await row.locator('progress').evaluate((bar) => (bar as HTMLProgressElement).value), 100);
  t.equal(await row.getAttribute('aria-selected'), 'true', 'the first dropped file is selected');

  // The SVG preview: a loaded vector image over the original, and its numbers.
  await page.waitForFunction(() => {
    const img = document.querySelector('#vector-image') as HTMLImageElement;
    return !img.hidden && img.complete && img.naturalWidth > 0;
  });
  const firstSvg = await firstDownload;
  t.match(firstSvg, /^(<\?xml[^>]*>\s*)?<svg[\s\S]*<\/svg>\s*$/);
  t.match(await page.textContent('#stat-nodes'), /^\d[\d,]*$/);
  t.not(await page.textContent('#stat-nodes'), '0');
  t.match(await page.textContent('#stat-bytes'), /\d+(\.\d+)? (B|KiB)/);
  await page.waitForSelector('#trial:has-text("Pro plan · 504 conversions left")');

  // Zoom to 800 % keeps the SVG a vector: the image's layout size grows, no CSS scale of a bitmap.
  await page.locator('#stage').focus();
  for (let i = 0; i < 12; i++) await page.keyboard.press('+');
  t.equal(await page.textContent('#zoom-level'), '800 %');
  const layoutWidth = await page.evaluate(
    () => (document.querySelector('#vector-image') as HTMLImageElement).getBoundingClientRect().width,
  );
  t.equal(Math.round(layoutWidth), 240 * 8, 'the SVG is laid out at 8× its size');
  await page.screenshot({ path: join(OUTPUT, 'app-e2e-zoom800.png') });
  await page.keyboard.press('0');

  // Change smoothing, re-run: a new job with smoothing=off, and a different result.
  await page.click('label:has(input[name=smoothing][value=off])');
  const secondDownload = nextSvgDownload(page);
  const previousSrc = await page.getAttribute('#vector-image', 'src');
  await page.click('#rerun');
  const secondSvg = await secondDownload;
  t.not(secondSvg, firstSvg, 'smoothing off traces differently from strong');
  await row.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });
  await page.waitForFunction((previous) => {
    const img = document.querySelector('#vector-image') as HTMLImageElement;
    return img.src !== previous && img.complete && img.naturalWidth > 0;
  }, previousSrc);
  t.equal(await page.isChecked('input[name=smoothing][value=off]'), true, 'the item keeps the settings it was run with');

  // Save: the browser download of the selected SVG, by shortcut.
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('s')]);
  t.equal(download.suggestedFilename(), 'logo.svg');
  const saved = await readFile((await download.path())!, 'utf8');
  t.equal(saved, secondSvg, 'the saved file is the SVG on screen');

  await page.screenshot({ path: join(OUTPUT, 'app-e2e.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(OUTPUT, 'app-e2e-dark.png') });
  t.same(errors, [], 'no script errors and no CSP violations');
});

t.test('a file the server refuses shows its code in plain words', { skip: missing }, async (t) => {
  const server = await startRealServer(t);
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  await openSignedIn(page, server);
  await page.waitForSelector('#trial:has-text("conversions left")');
  // A .png name over bytes that are no image: the server reads the bytes, not the name.
  await page.setInputFiles('#file-input', { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image at all') });
  const state = page.locator('#queue li .state');
  await page.waitForSelector('#queue li[data-state=failed]', { timeout: 30_000 });
  t.match(await state.textContent(), /\((unsupported_format|unreadable_file)\)$/);
  t.notMatch(await state.textContent(), /^\(/, 'words first, code after');
});

/** Xvfb on a display number it picks itself (-displayfd), for a headed run like a desktop has. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess } | null> {
  if (!existsSync('/usr/bin/Xvfb')) return null;
  const child = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const display = await new Promise<string | null>((resolve) => {
    let text = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    child.once('exit', () => resolve(null));
    setTimeout(() => resolve(null), 10_000);
  });
  if (!display) {
    child.kill();
    return null;
  }
  return { display, process: child };
}

t.test('headed chromium under Xvfb renders the same page (screenshot)', { skip: missing }, async (t) => {
  const xvfb = await startXvfb();
  if (!xvfb) {
    t.pass('skipped: Xvfb not installed (apt-get install -y xvfb xauth)');
    return;
  }
  t.teardown(() => void xvfb.process.kill());
  const server = await startRealServer(t);
  const previous = process.env.DISPLAY;
  process.env.DISPLAY = xvfb.display;
  t.teardown(() => {
    if (previous === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = previous;
  });
  const browser = await launchChromium({ headless: false });
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  await openSignedIn(page, server);
  await page.setInputFiles('#file-input', { name: 'logo.png', mimeType: 'image/png', buffer: await logoPng() });
  await page.locator('#queue li .state:has-text("Done")').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => (document.querySelector('#vector-image') as HTMLImageElement).naturalWidth > 0);
  await mkdir(OUTPUT, { recursive: true });
  await page.screenshot({ path: join(OUTPUT, 'app-e2e-xvfb.png') });
  t.ok(existsSync(join(OUTPUT, 'app-e2e-xvfb.png')));
});
