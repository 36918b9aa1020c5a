/**
 * The page as a newcomer meets it (issue 19), in Debian chromium against the real server: the plan
 * badge, files that are skipped or too large, re-run rules and the previous result, the queue
 * rebuilt after a reload, the narrow layout, "Save all" as one ZIP and reporting a bad result.
 * Screenshots go to test-output/ (page-1280.png,
 * page-800.png, page-800-settings.png).
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { buildFrontEnd } from '../../app/renderer/build.js';
import { AdminClient } from '../../client/admin.js';
import { REPORT_REASONS } from '../../server/services/reports.js';
import { chromiumMissing, launchChromium, launchWithDownloads } from './helpers/browser.js';
import { dropFiles, logoPng, openSignedIn, startRealServer } from './helpers/real-server.js';

const OUTPUT = join(process.cwd(), 'test-output');
const missing = chromiumMissing();
if (!missing) await buildFrontEnd();

/** Drops a file of `size` zero bytes made inside the page, so no 50 MiB travels over the test's pipe. */
async function dropLargeFile(page: Page, name: string, size: number): Promise<void> {
  await page.evaluate(
    ({ name, size }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(size)], name, { type: 'image/png' }));
      document.querySelector('#stage')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { name, size },
  );
}

t.test('the page: plan badge, skipped and oversized files, re-run rules, reload, narrow layout', { skip: missing }, async (t) => {
  const server = await startRealServer(t);
  // A Pro account that has spent four of its five trial conversions: it used to read a red "1 trial conversion left".
  for (let i = 0; i < 4; i++) server.services.accounts.charge(server.services.accounts.get(server.account.id));
  await mkdir(OUTPUT, { recursive: true });
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/v1/vectorize')) uploads.push(request.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await openSignedIn(page, server);
  const badge = page.locator('#trial');
  await badge.filter({ hasText: 'conversions left' }).waitFor();
  t.match(await badge.textContent(), /^Pro plan · 501 conversions left · resets \d{4}-\d\d-\d\d$/, 'the plan and what is left of it');
  t.notOk(await badge.evaluate((element) => element.classList.contains('low')), 'no warning colour while conversions are left');
  t.match(await badge.getAttribute('title'), /1 trial conversion first, then 500/);

  // The empty stage's text hides under the drop overlay instead of showing through it.
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'a.png', { type: 'image/png' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  t.equal(await page.locator('#drop-overlay').isVisible(), true);
  t.equal(
    await page
      .locator('#empty p')
      .first()
      .evaluate((p) => getComputedStyle(p).visibility),
    'hidden',
  );
  await page.evaluate(() => window.dispatchEvent(new DragEvent('dragleave', { bubbles: true })));

  // Non-images are named, not dropped silently; the image is queued.
  await dropFiles(page, [
    { name: 'logo.png', type: 'image/png', bytes: await logoPng() },
    { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello') },
    { name: 'data.bin', type: 'application/octet-stream', bytes: Buffer.from([1, 2, 3]) },
  ]);
  await page.locator('#skipped').waitFor();
  t.match(await page.textContent('#skipped-title'), /Skipped 2 files/);
  t.same(await page.locator('#skipped-list li').allTextContents(), ['notes.txt', 'data.bin']);
  t.equal(await page.locator('#queue li').count(), 1);
  const logoRow = page.locator('#queue li', { hasText: 'logo.png' });
  await logoRow.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });

  // Over 50 MiB: refused in the page at once, in the one unit the drop zone names.
  t.match(await page.textContent('#dropzone'), /50 MiB/);
  await dropLargeFile(page, 'huge.png', 50 * 1024 * 1024 + 1);
  const hugeRow = page.locator('#queue li', { hasText: 'huge.png' });
  await hugeRow.locator('.state:has-text("file_too_large")').waitFor({ timeout: 5_000 });
  t.match(await hugeRow.locator('.state').textContent(), /50 MiB/);
  t.equal(uploads.length, 1, 'only logo.png was uploaded');
  await hugeRow.click();
  t.match(await page.textContent('#stat-original'), /^50\.0 MiB$/);
  t.equal(await page.isDisabled('#rerun'), true, 'no re-run for a file the server cannot take');

  // A file the server cannot read: no re-run either.
  await page.setInputFiles('#file-input', { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image at all') });
  const fakeRow = page.locator('#queue li', { hasText: 'fake.png' });
  await fakeRow.locator('.state:has-text("unsupported_format")').waitFor({ timeout: 30_000 });
  await fakeRow.click();
  t.equal(await page.isDisabled('#rerun'), true, 'unsupported_format: re-running the same bytes cannot help');

  // Re-run keeps the previous result to compare with.
  await logoRow.click();
  t.equal(await page.isDisabled('#rerun'), false);
  t.equal(await page.isVisible('#compare-previous'), false);
  await page.click('label:has(input[name=smoothing][value=off])');
  await page.click('#rerun');
  await page.locator('#compare-previous').waitFor({ timeout: 60_000 });
  await logoRow.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });
  t.match(await page.textContent('#stat-previous'), /\d(?:\.\d+)? (?:B|KiB) · \d[\d,]* nodes/);
  await page.click('#compare-previous');
  t.equal(await page.getAttribute('#compare-previous', 'aria-pressed'), 'true');
  await page.waitForFunction(
    () =>
      (document.querySelector('#original-image') as HTMLImageElement).src.startsWith('blob:') &&
      !(document.querySelector('#original-image') as HTMLImageElement).hidden,
  );
  await page.screenshot({ path: join(OUTPUT, 'page-1280.png') });

  // A reload keeps what was spent: the server's jobs come back with their results.
  await page.reload();
  // Both runs of logo.png are jobs on the server; each comes back with its result.
  await page.locator('#queue li', { hasText: 'logo.png' }).nth(1).locator('.state:has-text("Done")').waitFor({ timeout: 30_000 });
  t.equal(await page.locator('#queue li', { hasText: 'logo.png' }).count(), 2);
  const restored = page.locator('#queue li', { hasText: 'logo.png' }).last();
  t.equal(await page.locator('#queue li', { hasText: 'fake.png' }).count(), 0, 'refused at submit: no job on the server');
  t.equal(await page.locator('#queue li', { hasText: 'huge.png' }).count(), 0, 'never reached the server');
  await restored.click();
  await page.waitForFunction(() => {
    const img = document.querySelector('#vector-image') as HTMLImageElement;
    return !img.hidden && img.complete && img.naturalWidth > 0;
  });
  t.equal(await page.isVisible('#empty'), false, 'the SVG is shown without its original');
  t.equal(await page.isDisabled('#rerun'), true, 'the page kept no copy of the file');
  t.equal(await page.isDisabled('#save-all'), false);

  // Narrow: the panel folds behind a button; the toolbar stays on one line.
  await page.setViewportSize({ width: 800, height: 640 });
  t.equal(await page.isVisible('#settings-panel'), false);
  t.equal(await page.isVisible('#settings-toggle'), true);
  const tops = await page
    .locator('.topbar button:visible')
    .evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().top)));
  t.equal(new Set(tops).size, 1, `one line of buttons (tops ${tops.join(', ')})`);
  t.ok(await page.locator('.topbar').evaluate((bar) => bar.getBoundingClientRect().height < 56), 'the top bar is one row high');
  t.ok((await page.locator('#help').boundingBox())!.x + 20 <= 800, 'the long badge shortens instead of pushing buttons off screen');
  t.equal(await page.isVisible('#empty'), false);
  t.equal(await page.locator('#split-handle').isVisible(), false, 'no slider when there is no original to compare with');
  await page.screenshot({ path: join(OUTPUT, 'page-800.png') });
  await page.click('#settings-toggle');
  t.equal(await page.isVisible('#rerun'), true);
  t.equal(await page.isVisible('#stat-nodes'), true);
  const panel = (await page.locator('#settings-panel').boundingBox())!;
  t.ok(panel.x + panel.width <= 800, 'the panel fits in the window');
  await page.screenshot({ path: join(OUTPUT, 'page-800-settings.png') });
  t.same(errors, [], 'no script errors');
});

t.test('save all is one ZIP of every SVG; a bad result is reported to the admins', { skip: missing }, async (t) => {
  const server = await startRealServer(t);
  const { browser, downloads } = await launchWithDownloads(t);
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const arrived: string[] = [];
  page.on('download', (download) => arrived.push(download.suggestedFilename()));

  await openSignedIn(page, server);
  await page.locator('#trial').filter({ hasText: 'conversions left' }).waitFor();
  t.equal(await page.isDisabled('#report'), true, 'nothing to report before a job exists');

  // Two files of the same name (from two folders, say): the ZIP must keep both.
  const png = await logoPng();
  await dropFiles(page, [
    { name: 'logo.png', type: 'image/png', bytes: png },
    { name: 'logo.png', type: 'image/png', bytes: await sharp(png).flop().png().toBuffer() },
  ]);
  await page.locator('#queue li .state:has-text("Done")').nth(1).waitFor({ timeout: 60_000 });

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-all')]);
  t.match(download.suggestedFilename(), /^vectorize-\d{4}-\d\d-\d\d\.zip$/);
  const archive = join(downloads, 'all.zip');
  await download.saveAs(archive);
  // A second download would start within this time; none may.
  await page.waitForTimeout(1_500);
  t.same(arrived, [download.suggestedFilename()], 'one download, not one per file');

  const listing = execFileSync('/usr/bin/unzip', ['-Z1', archive], { encoding: 'utf8' }).trim().split('\n');
  t.same(listing, ['logo.svg', 'logo (2).svg']);
  const asKey = { headers: { authorization: `Bearer ${server.key}` } };
  const served = async (jobId: string): Promise<string> => (await fetch(`${server.url}/v1/jobs/${jobId}/download`, asKey)).text();
  const { jobs } = (await (await fetch(`${server.url}/v1/jobs`, asKey)).json()) as { jobs: Array<{ id: string }> };
  const unzipped = listing.map((name) => execFileSync('/usr/bin/unzip', ['-p', archive, name], { encoding: 'utf8' }));
  t.same(
    [...unzipped].sort(),
    (await Promise.all(jobs.map((job) => served(job.id)))).sort(),
    'the ZIP holds each SVG as the server made it',
  );
  t.not(unzipped[0], unzipped[1]);

  // Report the selected (first) result; the admins' list shows it with the job.
  t.same(
    await page.locator('#report-reason option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).sort()),
    [...REPORT_REASONS].sort(),
    'the reasons the server suggests',
  );
  await page.click('#report');
  await page.selectOption('#report-reason', 'artifacts');
  await page.fill('#report-message', 'Stray dots along the circle');
  await page.click('#report-send');
  await page.locator('#toast', { hasText: 'Reported logo.png' }).waitFor();
  t.equal(await page.locator('#report-dialog').evaluate((dialog) => (dialog as HTMLDialogElement).open), false);
  t.equal(await page.textContent('#report'), 'Reported');
  t.equal(await page.isDisabled('#report'), true, 'one result is reported once');
  const admin = new AdminClient({ baseUrl: server.url, adminToken: server.adminToken ?? '' });
  const reports = await admin.listReports();
  t.equal(reports.length, 1);
  t.match(reports[0], { account_id: server.account.id, reason: 'artifacts', message: 'Stray dots along the circle' });
  t.equal(await served(reports[0].job_id), unzipped[0], 'the report names the job of the selected row');

  // The other result can still be reported.
  await page.locator('#queue li').nth(1).click();
  t.equal(await page.isDisabled('#report'), false);

  // The letter O and the digit 0 are told apart in words, not only by a font's glyphs.
  await page.keyboard.press('?');
  const keys = await page.locator('#help-dialog dt').allTextContents();
  t.ok(keys.includes('O (letter)') && keys.includes('0 (zero)'), `help names O and 0 (${keys.join(' | ')})`);
  await page.screenshot({ path: join(OUTPUT, 'page-help.png') });
  t.same(errors, [], 'no script errors');
});
