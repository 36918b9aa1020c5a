/**
 * POST /admin/v1/jobs/{id}/cancel: cancels what is still running, and never deletes a job that
 * ended before the call (the race DELETE loses when a job finishes after the operator confirmed).
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { errorOf, harness, settle, statusOf, waitFor, type Harness } from '../helpers.js';

const TOKEN = 'admintoken-cancel-123';

function cancel(h: Harness, id: string, extra: { headers?: Record<string, string>; remoteAddress?: string } = {}) {
  return h.app.server.inject({
    method: 'POST',
    url: `/admin/v1/jobs/${id}/cancel`,
    headers: extra.headers ?? { authorization: `Bearer ${TOKEN}` },
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
  });
}

async function submitted(h: Harness, secret: string): Promise<string> {
  const res = await h.submit(secret);
  if (res.statusCode !== 202) throw new Error(`submit answered ${res.statusCode}: ${res.payload}`);
  return h.json<{ id: string }>(res).id;
}

t.test('a queued job is canceled and never reaches the engine', async (t) => {
  const h = await harness(t, { adminToken: TOKEN, workers: 1 });
  const { secret } = await h.account('pro');
  const first = await submitted(h, secret);
  const second = await submitted(h, secret);
  await settle();
  t.equal(statusOf(h, first), 'processing');
  t.equal(statusOf(h, second), 'queued', 'one worker: the second waits');

  const res = await cancel(h, second);
  t.equal(res.statusCode, 200, res.payload);
  const body = h.json<{ id: string; status: string }>(res);
  t.equal(body.id, second);
  t.equal(body.status, 'canceled');
  t.equal(statusOf(h, second), 'canceled', 'the store holds the move');
  t.equal(h.app.services.jobs.queuePosition(second), undefined, 'out of the queue');

  h.pool.complete(first);
  // Completion checks the result file on disk first: not bound to ticks.
  await waitFor(() => statusOf(h, first) === 'completed', 'the first job to complete');
  await settle();
  t.notOk(h.pool.started.includes(second), 'the canceled job never started');
  t.equal(statusOf(h, second), 'canceled');
});

t.test('a processing job is canceled and its worker is told to stop', async (t) => {
  const h = await harness(t, { adminToken: TOKEN });
  const { secret } = await h.account('pro');
  const id = await submitted(h, secret);
  await settle();
  t.equal(statusOf(h, id), 'processing');
  t.same(h.pool.active, [id]);

  const res = await cancel(h, id);
  t.equal(res.statusCode, 200, res.payload);
  t.equal(h.json<{ status: string }>(res).status, 'canceled');
  t.same(h.pool.canceled, [id], 'the fake pool recorded the cancel');
  t.same(h.pool.active, [], 'nothing runs any more');
  await settle();
  t.equal(statusOf(h, id), 'canceled', 'the rejected run does not move the job again');

  const again = await cancel(h, id);
  t.equal(again.statusCode, 200, 'canceling a canceled job is answered, not refused');
  t.equal(h.json<{ status: string }>(again).status, 'canceled');
  t.same(h.pool.canceled, [id], 'and does not cancel twice');
});

t.test('a completed job is answered as it is: status and result file kept', async (t) => {
  const h = await harness(t, { adminToken: TOKEN });
  const { secret } = await h.account('pro');
  const id = await submitted(h, secret);
  await settle();
  h.pool.complete(id, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><path d="M0 0h4v4z"/></svg>');
  await waitFor(() => statusOf(h, id) === 'completed', 'the job to complete');
  const before = h.app.context.store.jobs.get(id)!;
  t.equal(before.status, 'completed');
  t.ok(before.result_path, 'the job has a result');
  const resultFile = h.app.context.blobs.absolute(before.result_path!);
  t.ok(existsSync(resultFile));

  const res = await cancel(h, id);
  t.equal(res.statusCode, 200, res.payload);
  const body = h.json<{ id: string; status: string; progress: number; download_url?: string }>(res);
  t.equal(body.status, 'completed');
  t.equal(body.progress, 100);
  t.match(body.download_url, new RegExp(`/v1/jobs/${id}/download$`));

  const after = h.app.context.store.jobs.get(id)!;
  t.same(after, before, 'the record is unchanged');
  t.ok(existsSync(resultFile), 'the result file is still there');
  t.match(readFileSync(resultFile, 'utf8'), /M0 0h4v4z/);
  t.same(h.pool.canceled, [], 'no worker was told anything');
  const download = await h.get(secret, `/v1/jobs/${id}/download`);
  t.equal(download.statusCode, 200, 'the client can still download it');
});

t.test('a failed job stays failed with its reason', async (t) => {
  const h = await harness(t, { adminToken: TOKEN });
  const { secret } = await h.account('pro');
  const id = await submitted(h, secret);
  await settle();
  h.pool.fail(id, 'unreadable_file');
  await settle();
  const res = await cancel(h, id);
  t.equal(res.statusCode, 200, res.payload);
  const body = h.json<{ status: string; error: { code: string } }>(res);
  t.equal(body.status, 'failed');
  t.equal(body.error.code, 'unreadable_file');
});

t.test('unknown id, remote caller, missing or wrong token', async (t) => {
  const h = await harness(t, { adminToken: TOKEN });
  const { secret } = await h.account('pro');
  const id = await submitted(h, secret);
  await settle();

  const unknown = await cancel(h, 'job_doesnotexist');
  t.equal(unknown.statusCode, 404);
  t.equal(errorOf(unknown).code, 'not_found');

  const remote = await cancel(h, id, { remoteAddress: '192.168.1.20' });
  t.equal(remote.statusCode, 403);
  t.equal(errorOf(remote).code, 'forbidden');

  const anonymous = await cancel(h, id, { headers: {} });
  t.equal(anonymous.statusCode, 401);
  t.equal(errorOf(anonymous).code, 'unauthorized');

  const wrong = await cancel(h, id, { headers: { authorization: 'Bearer admintoken-cancel-12X' } });
  t.equal(wrong.statusCode, 401);
  t.equal(errorOf(wrong).code, 'unauthorized');

  const apiKey = await cancel(h, id, { headers: { authorization: `Bearer ${secret}` } });
  t.equal(apiKey.statusCode, 401, "an account's API key is not the admin token");

  t.equal(statusOf(h, id), 'processing', 'no refused call touched the job');
  t.same(h.pool.canceled, []);
});

t.test('the OpenAPI document lists the route under admin with its error codes', async (t) => {
  const h = await harness(t, { adminToken: TOKEN });
  const res = await h.app.server.inject({ method: 'GET', url: '/v3/api-docs' });
  t.equal(res.statusCode, 200);
  const doc = h.json<{ paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, { description: string }> }>> }>(
    res,
  );
  const operation = doc.paths['/admin/v1/jobs/{id}/cancel']?.post;
  t.ok(operation, 'documented');
  t.ok(operation!.tags?.includes('admin'), 'tagged admin');
  const statuses = Object.keys(operation!.responses).sort();
  t.same(statuses, ['200', '400', '401', '403', '404'], 'success and each error status');
  const described = JSON.stringify(operation!.responses);
  for (const code of ['unauthorized', 'forbidden', 'not_found', 'invalid_parameter']) t.match(described, code, `lists ${code}`);
});
