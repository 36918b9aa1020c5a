/**
 * docs/api.md, "Errors": each of the 23 codes (and invalid_parameter) under its condition,
 * with its HTTP status, the `{ error: { code, message, details } }` body and Retry-After on 429/503.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_ERROR_CODES } from '../../engine/errors.js';
import { API_ERROR_CODES, HTTP_STATUS, isApiErrorCode, statusOf as httpStatusOf } from '../../server/http-errors.js';
import { errorOf, harness, hugePngHeader, plansFile, pngBytes, statusOf, waitFor } from './helpers.js';

type Asserts = Pick<typeof t, 'equal' | 'type'>;

function expectError(
  t: Asserts,
  res: { statusCode: number; payload: string; headers: Record<string, unknown> },
  status: number,
  code: string,
) {
  t.equal(res.statusCode, status, `HTTP ${status} for ${code}`);
  const error = errorOf(res);
  t.equal(error.code, code);
  t.type(error.message, 'string');
  t.type(error.details, 'object');
  return error;
}

const MIB50 = 52_428_800;

t.test('400 missing_file, empty_file, unreadable_file; 415 unsupported_format', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  expectError(t, await h.submit(secret, { image_type: 'auto' }, null), 400, 'missing_file');
  expectError(t, await h.submit(secret, {}, { name: 'upload' }), 400, 'missing_file');
  const notMultipart = await h.app.server.inject({
    method: 'POST',
    url: '/v1/vectorize',
    payload: { file: 'x' },
    headers: { authorization: `Bearer ${secret}` },
  });
  expectError(t, notMultipart, 400, 'missing_file');
  expectError(t, await h.submit(secret, {}, { data: Buffer.alloc(0) }), 400, 'empty_file');
  const garbage = Buffer.concat([h.png.subarray(0, 8), Buffer.from('definitely not a png body')]);
  expectError(t, await h.submit(secret, {}, { data: garbage }), 400, 'unreadable_file');
  expectError(
    t,
    await h.submit(secret, {}, { data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), filename: 'fake.png' }),
    415,
    'unsupported_format',
  );
  expectError(t, await h.submit(secret, {}, { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') }), 415, 'unsupported_format');
  t.same(readdirSync(join(h.dir, 'tmp')), [], 'every refused upload left no temp file');
  t.same(readdirSync(join(h.dir, 'uploads')), []);
});

t.test('400 unsupported_output_format; unknown trace_style and other bad values → 400 invalid_parameter with details.field', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  for (const format of ['eps', 'png', 'pdf', 'dxf', 'ai']) {
    const error = expectError(t, await h.submit(secret, { output_format: format }), 400, 'unsupported_output_format');
    t.equal(error.details.field, 'output_format');
  }
  t.equal((await h.submit(secret, { output_format: 'svg' })).statusCode, 202);
  const cases: [string, string][] = [
    ['trace_style', 'zigzag'],
    ['image_type', 'vector'],
    ['retention', '30d'],
    ['detail', '0'],
    ['detail', '101'],
    ['detail', 'ultra'],
    ['smoothing', '101'],
    ['smoothing', '-1'],
    ['gradients', 'rainbow'],
    ['close_seams', 'maybe'],
  ];
  for (const [field, value] of cases) {
    const error = expectError(t, await h.submit(secret, { [field]: value }), 400, 'invalid_parameter');
    t.equal(error.details.field, field, `${field}=${value}`);
  }
  for (const [field, value] of [
    ['detail', '1'],
    ['detail', '100'],
    ['smoothing', '0'],
    ['smoothing', '100'],
    ['trace_style', 'centerline'],
  ]) {
    t.equal((await h.submit(secret, { [field]: value })).statusCode, 202, `${field}=${value} accepted`);
  }
  const twice = expectError(t, await h.submit(secret, { detail: ['low', 'high'] }), 400, 'invalid_parameter');
  t.equal(twice.details.field, 'detail');
});

t.test('an unknown form field answers 400 invalid_parameter naming it, instead of being ignored', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  for (const field of ['colour', 'detial', 'Detail']) {
    const error = expectError(t, await h.submit(secret, { [field]: 'red' }), 400, 'invalid_parameter');
    t.equal(error.details.field, field);
    t.match(error.message, new RegExp(`Unknown form field \`${field}\``));
    t.ok((error.details.allowed as string[]).includes('detail'), 'the answer lists the fields there are');
  }
  t.equal(h.app.context.store.jobs.all().length, 0, 'nothing was queued');
});

t.test('a known path with a method it does not take answers 405 with Allow; an unknown path stays 404', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const headers = { authorization: `Bearer ${secret}` };
  const put = await h.app.server.inject({ method: 'PUT', url: '/v1/vectorize', headers });
  const error = expectError(t, put, 405, 'method_not_allowed');
  t.equal(put.headers.allow, 'POST');
  t.same(error.details.allowed, ['POST']);
  const patch = await h.app.server.inject({ method: 'PATCH', url: '/v1/jobs/job_0123456789abcdefgh', headers });
  expectError(t, patch, 405, 'method_not_allowed');
  t.equal(patch.headers.allow, 'GET, HEAD, DELETE');
  t.equal(
    (await h.app.server.inject({ method: 'POST', url: '/v1/account' })).headers.allow,
    'GET, HEAD',
    'said before the key is checked: the route does not exist either way',
  );
  expectError(t, await h.app.server.inject({ method: 'PUT', url: '/v1/nothing-here', headers }), 404, 'not_found');
});

t.test('batch_id / folder_name: 128 ok, 129 or control characters → 400; folder_name needs batch_id', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  t.equal((await h.submit(secret, { batch_id: 'b'.repeat(128), folder_name: 'f'.repeat(128) })).statusCode, 202);
  expectError(t, await h.submit(secret, { batch_id: 'b'.repeat(129) }), 400, 'invalid_batch_id');
  expectError(t, await h.submit(secret, { batch_id: 'tab\there' }), 400, 'invalid_batch_id');
  expectError(t, await h.submit(secret, { batch_id: '' }), 400, 'invalid_batch_id');
  expectError(t, await h.submit(secret, { batch_id: 'ok', folder_name: 'f'.repeat(129) }), 400, 'invalid_folder_name');
  expectError(t, await h.submit(secret, { batch_id: 'ok', folder_name: 'line\u0085next' }), 400, 'invalid_folder_name');
  const orphan = expectError(t, await h.submit(secret, { folder_name: 'Client X' }), 400, 'invalid_folder_name');
  t.equal(orphan.details.field, 'folder_name');
});

t.test('400 batch_limit_exceeded: below Pro a batch holds one file; Pro its group size', async (t) => {
  const h = await harness(t, { env: { VECTORIZE_PLANS_FILE: plansFile({ pro: { batchGroup: 2 } }) } });
  const trial = await h.account('trial');
  t.equal((await h.submit(trial.secret, { batch_id: 'set' })).statusCode, 202);
  expectError(t, await h.submit(trial.secret, { batch_id: 'set' }), 400, 'batch_limit_exceeded');
  const lite = await h.account('lite', 'app');
  t.equal((await h.submit(lite.secret, { batch_id: 'set' })).statusCode, 202);
  expectError(t, await h.submit(lite.secret, { batch_id: 'set' }), 400, 'batch_limit_exceeded');
  const pro = await h.account('pro');
  t.equal((await h.submit(pro.secret, { batch_id: 'set' })).statusCode, 202);
  t.equal((await h.submit(pro.secret, { batch_id: 'set' })).statusCode, 202);
  const full = expectError(t, await h.submit(pro.secret, { batch_id: 'set' }), 400, 'batch_limit_exceeded');
  t.equal(full.details.max_files, 2);
  t.equal((await h.submit(pro.secret, { batch_id: 'other' })).statusCode, 202, 'another batch has its own room');
});

t.test('401 unauthorized: missing, malformed, unknown and revoked keys; open routes stay open', async (t) => {
  const h = await harness(t);
  const { id, secret } = await h.account('pro');
  for (const authorization of [
    undefined,
    'Basic abc',
    'Bearer',
    'Bearer service_sk_live_short',
    // The last character changed, never to itself (a secret ending in x would stay valid).
    `Bearer ${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`,
    `Bearer ${secret.replace('live', 'test')}`,
  ]) {
    const res = await h.app.server.inject({ method: 'GET', url: '/v1/account', headers: authorization ? { authorization } : {} });
    expectError(t, res, 401, 'unauthorized');
  }
  const account = h.app.services.accounts.get(id);
  const extra = h.app.services.keys.create(account);
  t.equal((await h.get(extra.secret, '/v1/account')).statusCode, 200);
  t.equal((await h.del(secret, `/v1/keys/${extra.key.id}`)).statusCode, 204);
  expectError(t, await h.get(extra.secret, '/v1/account'), 401, 'unauthorized');
  for (const url of ['/healthz', '/v3/api-docs', '/docs/swagger']) {
    t.equal((await h.get(null, url)).statusCode, 200, `${url} needs no key`);
  }
});

t.test("403 forbidden: a lite account's api keys on every /v1 call; its app keys work", async (t) => {
  const h = await harness(t);
  const lite = await h.account('lite', 'api');
  for (const [method, url] of [
    ['GET', '/v1/jobs'],
    ['GET', '/v1/jobs/job_aaaaaaaaaaaaaaaaaaaa'],
    ['GET', '/v1/account'],
    ['GET', '/v1/keys'],
    ['GET', '/v1/folders'],
    ['DELETE', '/v1/jobs/job_aaaaaaaaaaaaaaaaaaaa'],
  ]) {
    expectError(t, await h.app.server.inject({ method, url, headers: { authorization: `Bearer ${lite.secret}` } }), 403, 'forbidden');
  }
  expectError(t, await h.submit(lite.secret), 403, 'forbidden');
  const app = h.app.services.keys.create(h.app.services.accounts.get(lite.id), { scope: 'app' });
  t.equal((await h.submit(app.secret)).statusCode, 202, 'app key of a lite account may convert');
  t.equal((await h.get(app.secret, '/v1/jobs')).statusCode, 200);
  expectError(
    t,
    await h.app.server.inject({ method: 'POST', url: '/v1/keys', payload: {}, headers: { authorization: `Bearer ${app.secret}` } }),
    403,
    'forbidden',
  );
});

t.test('402 quota_exhausted: trial 5 then reset_at null; monthly with reset_at', async (t) => {
  const h = await harness(t, { autoComplete: true, env: { VECTORIZE_PLANS_FILE: plansFile({ pro: { monthlyAllowance: 2 } }) } });
  const trial = await h.account('trial');
  for (let i = 0; i < 5; i++) {
    const res = await h.submit(trial.secret);
    t.equal(res.statusCode, 202);
    await waitFor(() => statusOf(h, h.json<{ id: string }>(res).id) === 'completed');
  }
  const spent = expectError(t, await h.submit(trial.secret), 402, 'quota_exhausted');
  t.equal(spent.details.reset_at, null, 'the trial never renews');
  const acct = h.json<{ allowances: { trial: unknown; monthly: unknown } }>(await h.get(trial.secret, '/v1/account'));
  t.same(acct.allowances, { trial: { total: 5, used: 5, left: 0 }, monthly: null });

  const pro = await h.account('pro');
  h.app.context.store.accounts.update(pro.id, { trial_used: 5 });
  // On PostgreSQL the admission re-reads the account inside its transaction: the test's own write must be in.
  await h.app.context.store.flush();
  for (let i = 0; i < 2; i++) t.equal((await h.submit(pro.secret)).statusCode, 202);
  const monthly = expectError(t, await h.submit(pro.secret), 402, 'quota_exhausted');
  // The account was made on 2025-01-15 (the manual clock): it resets on the 15th.
  t.equal(monthly.details.reset_at, '2025-02-15T00:00:00.000Z');
  const view = h.json<{ allowances: { monthly: Record<string, unknown> } }>(await h.get(pro.secret, '/v1/account'));
  t.same(view.allowances.monthly, { total: 2, used: 2, left: 0, reset_at: '2025-02-15T00:00:00.000Z' });
  h.clock.set('2025-02-15T00:00:01.000Z');
  t.equal((await h.submit(pro.secret)).statusCode, 202, 'the allowance is back after the reset date');
  const after = h.json<{ allowances: { monthly: Record<string, unknown> } }>(await h.get(pro.secret, '/v1/account'));
  t.same(after.allowances.monthly, { total: 2, used: 1, left: 1, reset_at: '2025-03-15T00:00:00.000Z' });
});

t.test('a pro account spends the trial first, then the monthly allowance', async (t) => {
  const h = await harness(t, { autoComplete: true });
  const pro = await h.account('pro');
  for (let i = 0; i < 6; i++) {
    const res = await h.submit(pro.secret);
    await waitFor(() => statusOf(h, h.json<{ id: string }>(res).id) === 'completed');
  }
  const view = h.json<{ allowances: { trial: Record<string, number>; monthly: Record<string, unknown> } }>(
    await h.get(pro.secret, '/v1/account'),
  );
  t.same(view.allowances.trial, { total: 5, used: 5, left: 0 });
  t.match(view.allowances.monthly, { total: 500, used: 1, left: 499 });
});

t.test('402 megapixels_exceeded from the header, before queueing', async (t) => {
  const h = await harness(t);
  const trial = await h.account('trial');
  const error = expectError(t, await h.submit(trial.secret, {}, { data: hugePngHeader(5000, 4000) }), 402, 'megapixels_exceeded');
  t.equal(error.details.max_megapixels, 16);
  t.equal(h.app.context.store.jobs.count(), 0, 'nothing was queued');
  const studio = await h.account('studio');
  t.equal((await h.submit(studio.secret, {}, { data: hugePngHeader(5000, 4000) })).statusCode, 202, 'studio takes 64 MP');
});

t.test('402 high_detail_not_included when a plan is configured without high detail', async (t) => {
  const h = await harness(t, { env: { VECTORIZE_PLANS_FILE: plansFile({ pro: { highDetail: false } }) } });
  const pro = await h.account('pro');
  expectError(t, await h.submit(pro.secret, { detail: 'high' }), 402, 'high_detail_not_included');
  expectError(t, await h.submit(pro.secret, { detail: '67' }), 402, 'high_detail_not_included');
  const ok = await h.submit(pro.secret, { detail: '66' });
  t.equal(ok.statusCode, 202);
  t.equal(h.json<{ options: { detail: string } }>(ok).options.detail, 'medium');
  const studio = await h.account('studio');
  t.equal((await h.submit(studio.secret, { detail: 'high' })).statusCode, 202, 'on the defaults every plan includes it');
});

t.test("404 not_found: another account's resources read as missing ones", async (t) => {
  const h = await harness(t);
  const a = await h.account('pro');
  const b = await h.account('pro');
  const job = h.json<{ id: string; folder_id: string }>(await h.submit(a.secret, { batch_id: 'x' }));
  const keyB = h.app.services.keys.list(b.id)[0];
  for (const [method, url] of [
    ['GET', `/v1/jobs/${job.id}`],
    ['GET', `/v1/jobs/${job.id}/download`],
    ['DELETE', `/v1/jobs/${job.id}`],
    ['DELETE', `/v1/folders/${job.folder_id}`],
    ['GET', '/v1/nothing-here'],
  ]) {
    expectError(t, await h.app.server.inject({ method, url, headers: { authorization: `Bearer ${b.secret}` } }), 404, 'not_found');
  }
  expectError(
    t,
    await h.app.server.inject({
      method: 'POST',
      url: `/v1/jobs/${job.id}/report`,
      payload: { reason: 'x' },
      headers: { authorization: `Bearer ${b.secret}` },
    }),
    404,
    'not_found',
  );
  expectError(t, await h.del(a.secret, `/v1/keys/${keyB.id}`), 404, 'not_found');
  t.equal((await h.get(a.secret, `/v1/jobs/${job.id}`)).statusCode, 200, 'the owner still sees it');
  t.equal((await h.get(b.secret, '/v1/jobs')).payload.includes(job.id), false, 'not listed for another account');
});

t.test('409 not_ready before a result; 410 result_expired after retention', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const job = h.json<{ id: string }>(await h.submit(secret, { retention: '24h' }));
  expectError(t, await h.get(secret, `/v1/jobs/${job.id}/download`), 409, 'not_ready');
  await waitFor(() => statusOf(h, job.id) === 'processing');
  expectError(t, await h.get(secret, `/v1/jobs/${job.id}/download`), 409, 'not_ready');
  h.pool.complete(job.id);
  await waitFor(() => statusOf(h, job.id) === 'completed');
  h.clock.advance(24 * 3600_000 - 1000);
  t.equal((await h.get(secret, `/v1/jobs/${job.id}/download`)).statusCode, 200, 'still there just before expires_at');
  h.clock.advance(2000);
  expectError(t, await h.get(secret, `/v1/jobs/${job.id}/download`), 410, 'result_expired');
  const expired = h.json<{ status: string; progress: number }>(await h.get(secret, `/v1/jobs/${job.id}`));
  t.equal(expired.status, 'expired');
  t.notOk(await h.app.context.blobs.exists(`results/${job.id}.svg`), 'the file is gone');
});

t.test('409 idempotency_key_reuse and request_in_progress; replay answers 202 with the first job', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const key = { 'idempotency-key': '8f14e45f-ceea-467f-a8e5-2b1d6e8b7d4c' };
  const first = await h.submit(secret, { detail: 'low' }, undefined, key);
  t.equal(first.statusCode, 202);
  const replay = await h.submit(secret, { detail: 'low' }, undefined, key);
  t.equal(replay.statusCode, 202);
  t.equal(h.json<{ id: string }>(replay).id, h.json<{ id: string }>(first).id, 'the first job');
  t.equal(h.app.context.store.jobs.count(), 1, 'no second job');
  expectError(t, await h.submit(secret, { detail: 'medium' }, undefined, key), 409, 'idempotency_key_reuse');
  expectError(t, await h.submit(secret, { detail: 'low' }, { data: await pngBytes(5, 5) }, key), 409, 'idempotency_key_reuse');
  expectError(t, await h.submit(secret, { detail: 'low', batch_id: 'x' }, undefined, key), 409, 'idempotency_key_reuse');

  const other = await h.account('pro');
  t.equal((await h.submit(other.secret, { detail: 'low' }, undefined, key)).statusCode, 202, 'keys are per account');

  const release = h.holdProbes();
  const concurrentKey = { 'idempotency-key': 'concurrent-1' };
  const slow = h.submit(secret, {}, undefined, concurrentKey);
  // The first request is parked inside acceptance (its probe is held).
  await new Promise((resolve) => setTimeout(resolve, 50));
  const duplicate = await h.submit(secret, {}, undefined, concurrentKey);
  expectError(t, duplicate, 409, 'request_in_progress');
  t.equal(duplicate.headers['retry-after'], '1', 'a request in progress clears by itself: retry shortly');
  release();
  t.equal((await slow).statusCode, 202);
  t.equal((await h.submit(secret, {}, undefined, concurrentKey)).statusCode, 202, 'after acceptance the duplicate replays');

  h.clock.advance(24 * 3600_000 + 1);
  const fresh = await h.submit(secret, { detail: 'medium' }, undefined, key);
  t.equal(fresh.statusCode, 202, 'remembered 24 h only');
  t.not(h.json<{ id: string }>(fresh).id, h.json<{ id: string }>(first).id);
  expectError(t, await h.submit(secret, {}, undefined, { 'idempotency-key': 'x'.repeat(256) }), 400, 'invalid_parameter');
});

t.test('413 file_too_large above 52,428,800 bytes; exactly 50 MiB is accepted', async (t) => {
  const h = await harness(t, { env: { VECTORIZE_PLANS_FILE: plansFile({}) } });
  const { secret } = await h.account('pro');
  const exact = Buffer.alloc(MIB50);
  h.png.copy(exact);
  t.equal((await h.submit(secret, {}, { data: exact })).statusCode, 202, '50 MiB exactly');
  const over = Buffer.alloc(MIB50 + 1);
  h.png.copy(over);
  const error = expectError(t, await h.submit(secret, {}, { data: over }), 413, 'file_too_large');
  t.equal(error.details.max_bytes, MIB50);
  expectError(t, await h.submit(secret, {}, { data: Buffer.alloc(MIB50 + 400_000) }), 413, 'file_too_large');
  t.same(readdirSync(join(h.dir, 'tmp')), [], 'temp files removed');
});

t.test('429 too_many_active_jobs and daily_fuse_tripped carry Retry-After', async (t) => {
  const h = await harness(t, { workers: 1, env: { VECTORIZE_PLANS_FILE: plansFile({ pro: { dailyFuse: 3 } }) } });
  const trial = await h.account('trial');
  t.equal((await h.submit(trial.secret)).statusCode, 202);
  t.equal((await h.submit(trial.secret)).statusCode, 202);
  const busy = await h.submit(trial.secret);
  expectError(t, busy, 429, 'too_many_active_jobs');
  t.match(busy.headers['retry-after'], /^\d+$/);

  const pro = await h.account('pro');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(h.json<{ id: string }>(await h.submit(pro.secret)).id);
  for (const id of ids) t.equal((await h.del(pro.secret, `/v1/jobs/${id}`)).statusCode, 200);
  const fuse = await h.submit(pro.secret);
  expectError(t, fuse, 429, 'daily_fuse_tripped');
  t.equal(fuse.headers['retry-after'], String(24 * 3600), 'seconds until the oldest acceptance leaves the window');
  h.clock.advance(24 * 3600_000 + 1);
  t.equal((await h.submit(pro.secret)).statusCode, 202, 'the window slides');
});

t.test('503 queue_full and storage_full carry Retry-After', async (t) => {
  const h = await harness(t, { workers: 1, env: { VECTORIZE_QUEUE_MAX: '1' } });
  const { secret } = await h.account('pro');
  const a = h.json<{ id: string }>(await h.submit(secret));
  await waitFor(() => statusOf(h, a.id) === 'processing');
  t.equal((await h.submit(secret)).statusCode, 202);
  const full = await h.submit(secret);
  expectError(t, full, 503, 'queue_full');
  t.match(full.headers['retry-after'], /^\d+$/);
  h.pool.complete(a.id);
  await waitFor(() => h.app.services.jobs.queueLength === 0);
  h.disk.free = 1024 ** 3 - 1;
  const disk = await h.submit(secret);
  expectError(t, disk, 503, 'storage_full');
  t.match(disk.headers['retry-after'], /^\d+$/);
});

t.test('trial and lite: manual fields are accepted and replaced by their defaults', async (t) => {
  const h = await harness(t);
  const trial = await h.account('trial');
  const manual = {
    detail: 'low',
    gradients: 'stepped',
    smoothing: 'off',
    trace_style: 'centerline',
    image_type: 'photo',
    close_seams: 'false',
    max_colors: '8',
    palette: '#FF0000,#00ff00',
    background: 'remove',
    group_by: 'color',
    width: '100',
    unit: 'mm',
    dpi: '300',
    stroke_order: 'plotter',
  };
  const job = h.json<{ options: Record<string, unknown>; mode: string }>(await h.submit(trial.secret, manual));
  const asTraced = {
    max_colors: null,
    palette: null,
    background: 'keep',
    group_by: 'none',
    width: null,
    height: null,
    unit: 'px',
    dpi: 96,
    stroke_order: 'none',
  };
  t.same(job.options, {
    image_type: 'photo',
    detail: 'high',
    gradients: 'smooth',
    smoothing: 'strong',
    trace_style: 'fill',
    close_seams: false,
    ...asTraced,
  });
  const pro = await h.account('pro');
  const proJob = h.json<{ options: Record<string, unknown> }>(await h.submit(pro.secret, manual));
  t.same(proJob.options, {
    image_type: 'photo',
    detail: 'low',
    gradients: 'stepped',
    smoothing: 'off',
    trace_style: 'centerline',
    close_seams: false,
    max_colors: 8,
    palette: ['#ff0000', '#00ff00'],
    background: 'remove',
    group_by: 'color',
    width: 100,
    height: null,
    unit: 'mm',
    dpi: 300,
    stroke_order: 'plotter',
  });
});

t.test('every code the engine throws has an HTTP status', async (t) => {
  for (const code of ENGINE_ERROR_CODES) t.ok(isApiErrorCode(code), code);
  t.equal(httpStatusOf('megapixels_exceeded'), 402);
  t.equal(httpStatusOf('no_such_code'), 500, 'an unknown code is a server fault');
  t.notOk(isApiErrorCode('toString'), 'only the table’s own keys count');
});

t.test("docs/api.md's error table is the server's table", async (t) => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Errors'), doc.indexOf('\n## ', doc.indexOf('\n## Errors') + 1));
  const documented = Object.fromEntries([...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((row) => [row[1], Number(row[2])]));
  t.same(documented, HTTP_STATUS);
  t.equal(Object.keys(documented).length, API_ERROR_CODES.length);
});
