/**
 * A re-render with the real engine over real HTTP (server/runtime.ts startServer, one worker): the
 * trace keeps its geometry, POST /v1/jobs/{id}/render draws the same shapes again with a size and
 * layers, or repaints them with a palette and without the background, and the allowance read
 * through GET /v1/account does not move.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { loadConfig } from '../../../server/config.js';
import { startServer, type Running } from '../../../server/runtime.js';
import { until } from '../helpers.js';
import { hiddenShortcutArt, mismatch, png, render } from '../../engine/helpers/images.js';

/** A logo on white: a red disc, a blue triangle and a dark bar. */
async function logoOnWhite(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">
    <rect width="120" height="80" fill="#ffffff"/>
    <circle cx="35" cy="38" r="24" fill="#e11d48"/>
    <path d="M66 14 L110 14 L88 62 Z" fill="#2563eb"/>
    <rect x="20" y="66" width="80" height="8" fill="#111827"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

interface JobView {
  id: string;
  status: string;
  source?: string;
  render_of?: string;
  error?: { code: string };
}

t.test('real engine: a re-render draws the kept shapes again with a size and layers, free of charge', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-render-'));
  let running: Running | undefined;
  t.teardown(async () => {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = { VECTORIZE_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', VECTORIZE_WORKERS: '1', VECTORIZE_LOG_LEVEL: 'silent' };
  running = await startServer(loadConfig(env), new PassThrough());
  const { accounts, keys } = running.app.services;
  const { secret } = keys.create(accounts.create('Render studio', 'pro'), { scope: 'api' });
  const auth = { authorization: `Bearer ${secret}` };
  const url = running.url;
  const finished = (id: string) =>
    until(async () => {
      const job = (await (await fetch(`${url}/v1/jobs/${id}`, { headers: auth })).json()) as JobView;
      return job.status === 'queued' || job.status === 'processing' ? undefined : job;
    }, `job ${id}`);
  const used = async () => {
    const account = (await (await fetch(`${url}/v1/account`, { headers: auth })).json()) as {
      allowances: { trial: { used: number }; monthly: { used: number } | null };
    };
    return account.allowances.trial.used + (account.allowances.monthly?.used ?? 0);
  };
  const shapes = (svg: string) => [...svg.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]);

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await logoOnWhite())], { type: 'image/png' }), 'logo.png');
  const submitted = (await (await fetch(`${url}/v1/vectorize`, { method: 'POST', body: form, headers: auth })).json()) as JobView;
  const traced = await finished(submitted.id);
  t.equal(traced.status, 'completed', JSON.stringify(traced.error ?? {}));
  const first = await (await fetch(`${url}/v1/jobs/${traced.id}/download`, { headers: auth })).text();
  const spent = await used();

  const body = new URLSearchParams({ group_by: 'color', width: '100', unit: 'mm' });
  const response = await fetch(`${url}/v1/jobs/${traced.id}/render`, { method: 'POST', body, headers: auth });
  t.equal(response.status, 202, 'a URL-encoded form is taken too');
  const accepted = (await response.json()) as JobView;
  t.equal(accepted.source, 'render');
  t.equal(accepted.render_of, traced.id);
  const drawn = await finished(accepted.id);
  t.equal(drawn.status, 'completed', JSON.stringify(drawn.error ?? {}));
  const svg = await (await fetch(`${url}/v1/jobs/${drawn.id}/download`, { headers: auth })).text();

  t.match(svg, /<svg [^>]*width="100mm"/, 'the root in millimetres');
  t.match(svg, /<svg [^>]*height="66\.6+7?mm"/, 'the height keeps the aspect');
  t.equal(/viewBox="[^"]+"/.exec(svg)?.[0], /viewBox="[^"]+"/.exec(first)?.[0], 'the viewBox is unchanged');
  t.match(svg, /<g id="[^"]+" inkscape:groupmode="layer" inkscape:label="[^"]+">/, 'one Inkscape layer per colour');
  t.same(shapes(svg).sort(), shapes(first).sort(), 'the same geometry: nothing was traced again');
  t.ok(shapes(first).length > 0, 'the logo was traced into shapes');

  // Paint and background from the same geometry, this time as JSON with the palette as a list.
  const palette = ['#111827', '#e11d48', '#2563eb'];
  const repaint = await fetch(`${url}/v1/jobs/${traced.id}/render`, {
    method: 'POST',
    body: JSON.stringify({ palette, background: 'remove' }),
    headers: { ...auth, 'content-type': 'application/json' },
  });
  t.equal(repaint.status, 202);
  const repainted = await finished(((await repaint.json()) as JobView).id);
  t.equal(repainted.status, 'completed', JSON.stringify(repainted.error ?? {}));
  const painted = await (await fetch(`${url}/v1/jobs/${repainted.id}/download`, { headers: auth })).text();
  const fills = new Set([...painted.matchAll(/(?:fill|stop-color)="(#[0-9a-fA-F]{6})"/g)].map((m) => m[1].toLowerCase()));
  t.same([...fills].sort(), [...palette].sort(), `exactly the palette's colours (${[...fills].join(' ')})`);
  t.notOk(/fill="#fff(?:fff)?"/i.test(painted), 'no white shape left');
  t.ok(shapes(painted).length < shapes(first).length, 'the white background shape was left out');
  t.equal(await used(), spent, 'no conversion charged (GET /v1/account)');

  // Grouping the kept geometry draws the picture traced, also where a hidden outline took a
  // shortcut across a shape the layers lift below it (engine/svg/underlap.ts).
  const art = hiddenShortcutArt();
  const artForm = new FormData();
  artForm.append('file', new Blob([new Uint8Array(await png(art))], { type: 'image/png' }), 'art.png');
  artForm.append('image_type', 'clipart');
  const artJob = await finished(
    ((await (await fetch(`${url}/v1/vectorize`, { method: 'POST', body: artForm, headers: auth })).json()) as JobView).id,
  );
  t.equal(artJob.status, 'completed', JSON.stringify(artJob.error ?? {}));
  const artSvg = await (await fetch(`${url}/v1/jobs/${artJob.id}/download`, { headers: auth })).text();
  const regroup = await fetch(`${url}/v1/jobs/${artJob.id}/render`, {
    method: 'POST',
    body: new URLSearchParams({ group_by: 'color' }),
    headers: auth,
  });
  const regrouped = await finished(((await regroup.json()) as JobView).id);
  t.equal(regrouped.status, 'completed', JSON.stringify(regrouped.error ?? {}));
  const layered = await (await fetch(`${url}/v1/jobs/${regrouped.id}/download`, { headers: auth })).text();
  t.match(layered, /inkscape:groupmode="layer"/, 'in layers');
  const wrong = mismatch(render(artSvg, art.width, 1, 'white'), render(layered, art.width, 1, 'white'), 8);
  t.equal(wrong, 0, `grouped through the render route: ${(wrong * 100).toFixed(2)} % of pixels changed`);
});
