/**
 * The settings form's output controls (docs/api.md, "Output controls"), in Debian chromium against
 * the real server and engine: a re-run that changes only the output draws the kept geometry again
 * (POST /v1/jobs/{id}/render, no upload, no conversion), and below Pro the form says the controls
 * do not apply. Screenshot: test-output/page-output-controls.png.
 */
import t from 'tap';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildFrontEnd } from '../../../app/renderer/build.js';
import { chromiumMissing, launchChromium } from '../helpers/browser.js';
import { dropFiles, logoPng, openSignedIn, startRealServer } from '../helpers/real-server.js';

const OUTPUT = join(process.cwd(), 'test-output');
const missing = chromiumMissing();
if (!missing) await buildFrontEnd();

interface ServerJob {
  id: string;
  source: string;
  render_of?: string;
  options: Record<string, unknown>;
}

t.test('output controls: a re-run that changes only the output is drawn again, not traced', { skip: missing }, async (t) => {
  const server = await startRealServer(t);
  await mkdir(OUTPUT, { recursive: true });
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const auth = { authorization: `Bearer ${server.key}` };
  const used = async () => {
    const account = (await (await fetch(`${server.url}/v1/account`, { headers: auth })).json()) as {
      allowances: { trial: { used: number }; monthly: { used: number } | null };
    };
    return account.allowances.trial.used + (account.allowances.monthly?.used ?? 0);
  };

  await openSignedIn(page, server);
  for (const name of ['max_colors', 'palette', 'background', 'width', 'height', 'unit', 'dpi', 'group_by']) {
    t.equal(await page.locator(`#settings [name=${name}]`).count(), 1, `the form offers ${name}`);
  }
  t.equal(await page.isDisabled('[name=stroke_order]'), true, 'plotter order is for centerline only');
  await page.click('label:has(input[name=trace_style][value=centerline])');
  t.equal(await page.isDisabled('[name=stroke_order]'), false);
  await page.click('label:has(input[name=trace_style][value=fill])');
  t.equal(await page.isVisible('#background-colour-field'), false, 'no colour picker while the background is kept');
  await page.selectOption('[name=background]', 'colour');
  t.equal(await page.isVisible('#background-colour-field'), true, '"Remove a colour" shows its colour picker');
  await page.selectOption('[name=background]', 'keep');

  await dropFiles(page, [{ name: 'logo.png', type: 'image/png', bytes: await logoPng() }]);
  const row = page.locator('#queue li', { hasText: 'logo.png' });
  await row.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });
  const spent = await used();
  t.same(posts, ['/v1/vectorize']);

  await row.click();
  await page.fill('[name=palette]', '#111827, #e11d48, #2563eb, #ffffff');
  await page.check('[name=group_by]');
  await page.fill('[name=width]', '60');
  await page.selectOption('[name=unit]', 'mm');
  await page.click('#rerun');
  await page.locator('#compare-previous').waitFor({ timeout: 60_000 });
  await row.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });
  t.equal(posts.length, 2);
  t.match(posts[1], /^\/v1\/jobs\/job_\w+\/render$/, 'drawn again from the kept geometry, no upload');
  t.equal(await used(), spent, 'no conversion spent (GET /v1/account)');

  const { jobs } = (await (await fetch(`${server.url}/v1/jobs`, { headers: auth })).json()) as { jobs: ServerJob[] };
  const render = jobs.find((job) => job.source === 'render')!;
  t.ok(render, 'the server has the re-render as a job');
  t.match(render.options, { palette: ['#111827', '#e11d48', '#2563eb', '#ffffff'], group_by: 'color', width: 60, unit: 'mm' });
  const svg = await (await fetch(`${server.url}/v1/jobs/${render.id}/download`, { headers: auth })).text();
  t.match(svg, /<svg[^>]* width="60mm"/, 'the root in millimetres');
  t.match(svg, /inkscape:groupmode="layer"/, 'one layer per colour');
  const fills = new Set([...svg.matchAll(/fill="(#[0-9a-f]{6})"/gi)].map((m) => m[1].toLowerCase()));
  t.ok(
    [...fills].every((fill) => ['#111827', '#e11d48', '#2563eb', '#ffffff'].includes(fill)),
    `only palette colours (${[...fills].join(' ')})`,
  );

  // A tracing setting changed: a new upload and trace, not a re-render.
  await page.click('label:has(input[name=smoothing][value=off])');
  await page.click('#rerun');
  await page.waitForFunction(() => document.querySelector('#queue li .state')?.textContent?.includes('Done') === false);
  await row.locator('.state:has-text("Done")').waitFor({ timeout: 60_000 });
  t.equal(posts[2], '/v1/vectorize', 'smoothing needs a new trace');
  await page.screenshot({ path: join(OUTPUT, 'page-output-controls.png') });
  t.same(errors, [], 'no script errors');
});

t.test('below Pro the form says the output controls take effect on Pro', { skip: missing }, async (t) => {
  const server = await startRealServer(t);
  const trial = server.services.accounts.create('Trial studio', 'trial');
  const { secret } = server.services.keys.create(trial, { name: 'page', scope: 'app' });
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.context.newPage();
  await openSignedIn(page, { url: server.url, key: secret });
  await page.locator('#settings-hint', { hasText: 'output controls take effect on Pro' }).waitFor({ timeout: 10_000 });
  t.match(await page.textContent('#settings-hint'), /On the trial plan .* draws the SVG as traced/);
});
