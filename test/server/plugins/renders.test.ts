/**
 * POST /v1/jobs/{id}/render (docs/api.md, "Re-rendering"): a new job drawn from the first job's
 * kept geometry, free of charge, gated by plan, answering 409/410 by the first job's state. The
 * fake pool stands in for the worker here; renders.real-engine.test.ts draws with the real engine.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorOf, harness, statusOf, waitFor, type Harness } from '../helpers.js';

type Job = Record<string, unknown> & { id: string; status: string; options: Record<string, unknown> };

/** A job of `secret`'s account traced (by the fake pool) and completed, with its geometry kept. */
async function completedJob(h: Harness, secret: string, fields: Record<string, string> = {}): Promise<Job> {
  const job = h.json<Job>(await h.submit(secret, fields));
  await waitFor(() => statusOf(h, job.id) === 'processing');
  h.pool.complete(job.id);
  await waitFor(() => statusOf(h, job.id) === 'completed');
  return h.json<Job>(await h.get(secret, `/v1/jobs/${job.id}`));
}

async function conversionsUsed(h: Harness, secret: string): Promise<number> {
  const account = h.json<{ allowances: { trial: { used: number }; monthly: { used: number } | null } }>(await h.get(secret, '/v1/account'));
  return account.allowances.trial.used + (account.allowances.monthly?.used ?? 0);
}

t.test('a re-render is a new job drawn from the kept geometry, with no conversion charged', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const first = await completedJob(h, secret, { group_by: 'color', width: '100', unit: 'mm' });
  const record = h.app.context.store.jobs.get(first.id)!;
  t.equal(record.document_path, `results/${first.id}.json`, 'the geometry is kept beside the result');
  const geometry = readFileSync(join(h.dir, record.document_path!), 'utf8');
  const used = await conversionsUsed(h, secret);

  const response = await h.render(secret, first.id, { palette: '#112233,#ffffff', background: 'remove' });
  t.equal(response.statusCode, 202);
  const render = h.json<Job>(response);
  t.not(render.id, first.id, 'a job of its own');
  t.equal(response.headers.location, `http://${response.request.info.host}/v1/jobs/${render.id}`);
  t.equal(render.status, 'queued');
  t.equal(render.source, 'render');
  t.equal(render.render_of, first.id);
  t.equal(render.file_name, first.file_name);
  t.match(render.options, {
    palette: ['#112233', '#ffffff'],
    background: 'remove',
    group_by: 'color',
    width: 100,
    unit: 'mm',
  });
  t.equal(first.source, 'api', 'an upload names the key scope that sent it');

  await waitFor(() => statusOf(h, render.id) === 'processing');
  const task = h.pool.runs.get(render.id)!.task;
  t.equal(task.kind, 'render', 'the worker draws, it does not trace');
  t.equal(readFileSync(task.inputPath, 'utf8'), geometry, "the render reads the first job's geometry");
  t.same(task.options.output.palette, ['#112233', '#ffffff']);
  h.pool.complete(render.id, '<svg xmlns="http://www.w3.org/2000/svg"><g id="c"/></svg>');
  await waitFor(() => statusOf(h, render.id) === 'completed');
  const done = h.json<Job>(await h.get(secret, `/v1/jobs/${render.id}`));
  t.equal(done.mode, first.mode, "the first job's class");
  const download = await h.get(secret, `/v1/jobs/${render.id}/download`);
  t.equal(download.statusCode, 200);
  t.equal(download.payload, '<svg xmlns="http://www.w3.org/2000/svg"><g id="c"/></svg>');
  t.equal(await conversionsUsed(h, secret), used, 'the allowance is unchanged (GET /v1/account)');
  t.equal((await h.get(secret, `/v1/jobs/${first.id}/download`)).statusCode, 200, 'the first result stays');

  // A re-render keeps its geometry too, so it can be drawn again.
  const again = await h.render(secret, render.id, { group_by: 'none' });
  t.equal(again.statusCode, 202);
  t.match(h.json<Job>(again).options, { group_by: 'none', palette: ['#112233', '#ffffff'], background: 'remove' });
});

t.test('the size fields replace each other together; other controls stay', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const first = await completedJob(h, secret, { width: '100', height: '50', unit: 'mm', dpi: '300', group_by: 'color' });
  const render = h.json<Job>(await h.render(secret, first.id, { height: '2', unit: 'in' }));
  t.match(render.options, { height: 2, unit: 'in', dpi: 96, group_by: 'color' });
  t.equal(first.options.width, 100);
  t.equal(render.options.width, null, 'the old width does not stretch the new height');
});

t.test('trial and lite: the controls are replaced by their defaults, as on submit', async (t) => {
  const h = await harness(t, { workers: 1 });
  for (const plan of ['trial', 'lite'] as const) {
    const { secret } = await h.account(plan, 'app');
    const first = await completedJob(h, secret);
    const response = await h.render(secret, first.id, { palette: '#000000', group_by: 'color', width: '10', unit: 'cm' });
    t.equal(response.statusCode, 202, `${plan}: accepted`);
    t.match(h.json<Job>(response).options, { palette: null, group_by: 'none', width: null, unit: 'px' }, `${plan}: the defaults applied`);
    const render = h.json<Job>(response);
    await waitFor(() => statusOf(h, render.id) === 'processing');
    h.pool.complete(render.id);
    await waitFor(() => statusOf(h, render.id) === 'completed');
  }
});

t.test('409 not_ready before the result exists and for a failed job; 410 once it expired', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  // One worker: the first job holds it, so the second stays queued.
  const busy = h.json<Job>(await h.submit(secret));
  const queued = h.json<Job>(await h.submit(secret));
  await waitFor(() => statusOf(h, busy.id) === 'processing');
  const notReady = await h.render(secret, queued.id, { group_by: 'color' });
  t.equal(notReady.statusCode, 409);
  t.match(errorOf(notReady), { code: 'not_ready', details: { status: 'queued' } });
  t.match(errorOf(await h.render(secret, busy.id, { group_by: 'color' })), { code: 'not_ready', details: { status: 'processing' } });
  h.pool.fail(busy.id);
  await waitFor(() => statusOf(h, queued.id) === 'processing');
  h.pool.fail(queued.id);
  await waitFor(() => statusOf(h, queued.id) === 'failed');
  t.match(errorOf(await h.render(secret, queued.id, { group_by: 'color' })), { code: 'not_ready', details: { status: 'failed' } });

  const first = await completedJob(h, secret);
  const documentPath = join(h.dir, h.app.context.store.jobs.get(first.id)!.document_path!);
  h.clock.advance(24 * 3600_000 + 1);
  const expired = await h.render(secret, first.id, { group_by: 'color' });
  t.equal(expired.statusCode, 410);
  t.equal(errorOf(expired).code, 'result_expired');
  t.notOk(existsSync(documentPath), 'the geometry went with the result');
  t.equal(statusOf(h, first.id), 'expired');
});

t.test('the geometry goes with the result: retention sweep, retention=none download, delete', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const swept = await completedJob(h, secret);
  const sweptPath = join(h.dir, `results/${swept.id}.json`);
  t.ok(existsSync(sweptPath));
  h.clock.advance(24 * 3600_000 + 1);
  await h.app.services.retention.sweep();
  t.notOk(existsSync(sweptPath), 'expired by the sweeper');

  const once = await completedJob(h, secret, { retention: 'none' });
  t.equal((await h.get(secret, `/v1/jobs/${once.id}/download`)).statusCode, 200);
  await waitFor(() => !existsSync(join(h.dir, `results/${once.id}.json`)), 'the geometry of a downloaded retention=none job to go');
  t.equal((await h.render(secret, once.id, { group_by: 'color' })).statusCode, 410);

  const deleted = await completedJob(h, secret);
  const render = h.json<Job>(await h.render(secret, deleted.id, { group_by: 'color' }));
  t.equal((await h.del(secret, `/v1/jobs/${deleted.id}`)).statusCode, 204);
  t.notOk(existsSync(join(h.dir, `results/${deleted.id}.json`)), 'deleted with its job');
  await waitFor(() => statusOf(h, render.id) === 'processing');
  h.pool.complete(render.id);
  await waitFor(() => statusOf(h, render.id) === 'completed');
  t.ok(existsSync(join(h.dir, `results/${render.id}.json`)), 'a re-render queued before the delete had its own copy');
});

t.test('Idempotency-Key: the same re-render again answers the first; other fields are a reuse', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const first = await completedJob(h, secret);
  const key = { 'idempotency-key': 'render-1' };
  const a = h.json<Job>(await h.render(secret, first.id, { group_by: 'color' }, key));
  const b = await h.render(secret, first.id, { group_by: 'color' }, key);
  t.equal(b.statusCode, 202);
  t.equal(h.json<Job>(b).id, a.id, 'no second job');
  t.equal(
    h.app.context.store.jobs.count((j) => j.render_of === first.id),
    1,
  );
  const reuse = await h.render(secret, first.id, { group_by: 'none' }, key);
  t.equal(reuse.statusCode, 409);
  t.equal(errorOf(reuse).code, 'idempotency_key_reuse');
});

t.test('400 for an unknown field, no field, or a bad value; 429 past the active-job limit', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('trial');
  const first = await completedJob(h, secret);
  const unknown = await h.render(secret, first.id, { detail: 'low' });
  t.equal(unknown.statusCode, 400);
  t.match(errorOf(unknown), { code: 'invalid_parameter', details: { field: 'detail' } }, 'tracing settings need a new trace');
  t.match(errorOf(await h.render(secret, first.id, {})), { code: 'invalid_parameter' });
  t.match(errorOf(await h.render(secret, first.id, { group_by: 'colour' })), { code: 'invalid_parameter', details: { field: 'group_by' } });
  t.match(errorOf(await h.render(secret, first.id, { max_colors: '1' })), { code: 'invalid_parameter', details: { field: 'max_colors' } });
  t.match(errorOf(await h.render(secret, first.id, { unit: 'ft' })), { code: 'invalid_parameter', details: { field: 'unit' } });

  // The trial runs 2 jobs at once: the third answers 429 like a submission would.
  t.equal((await h.render(secret, first.id, { group_by: 'color' })).statusCode, 202);
  t.equal((await h.render(secret, first.id, { group_by: 'color' })).statusCode, 202);
  const third = await h.render(secret, first.id, { group_by: 'color' });
  t.equal(third.statusCode, 429);
  t.equal(errorOf(third).code, 'too_many_active_jobs');
});

t.test('a malformed id answers as GET /v1/jobs/{id} answers it, whatever the body', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  for (const id of ['j'.repeat(81), `job_${'a'.repeat(77)}`]) {
    const read = await h.get(secret, `/v1/jobs/${id}`);
    t.equal(read.statusCode, 400, `GET: ${id.length} characters`);
    for (const fields of [{ group_by: 'color' }, { group_by: 'colour' }, {}] as Record<string, string>[]) {
      const render = await h.render(secret, id, fields);
      t.equal(render.statusCode, 400, `render ${JSON.stringify(fields)}`);
      t.same(JSON.parse(render.payload), JSON.parse(read.payload), 'the same body as the read');
    }
  }
  const longest = await h.render(secret, `job_${'a'.repeat(76)}`, { group_by: 'color' });
  t.equal(longest.statusCode, 404, 'an 80-character id is looked up');
});

t.test('a JSON body works as well as a form; the palette may be a list', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const first = await completedJob(h, secret);
  const response = await h.app.server.inject({
    method: 'POST',
    url: `/v1/jobs/${first.id}/render`,
    payload: { palette: ['#ff0000', '#00ff00', '#0000ff'], width: 20, unit: 'cm' },
    headers: { authorization: `Bearer ${secret}` },
  });
  t.equal(response.statusCode, 202);
  t.match(h.json<Job>(response).options, { palette: ['#ff0000', '#00ff00', '#0000ff'], width: 20, unit: 'cm' });
});

t.test('the OpenAPI document lists the output controls with their ranges on submit and on the re-render', async (t) => {
  const h = await harness(t);
  type Body = { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> };
  const doc = JSON.parse((await h.get(null, '/v3/api-docs')).payload) as { paths: Record<string, { post?: { requestBody: Body } }> };
  for (const path of ['/v1/vectorize', '/v1/jobs/{id}/render']) {
    const body = doc.paths[path]?.post?.requestBody;
    t.ok(body, `POST ${path} documented`);
    const form = Object.values(body?.content ?? {})[0]?.schema.properties ?? {};
    t.match(form.max_colors, { type: 'integer', minimum: 2, maximum: 256 }, `${path}: max_colors 2–256`);
    t.match(form.palette, { type: 'string', pattern: /\{0,63\}/ }, `${path}: palette up to 64 colours`);
    t.match(form.background, { anyOf: [{ enum: ['keep', 'remove'] }, { pattern: '^#[0-9a-fA-F]{6}$' }] });
    t.match(form.group_by, { enum: ['none', 'color'] });
    t.match(form.unit, { enum: ['px', 'mm', 'cm', 'in', 'pt'] });
    t.match(form.stroke_order, { enum: ['none', 'plotter'] });
    for (const field of ['width', 'height', 'dpi'])
      t.match(form[field], { type: field === 'dpi' ? 'integer' : 'number' }, `${path}: ${field}`);
  }
});
