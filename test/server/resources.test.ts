/** Retention, folders, reports, account, keys, admin API and the OpenAPI document. */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { errorOf, harness, statusOf, waitFor } from './helpers.js';
import { statusOf as httpStatusOf } from '../../server/http-errors.js';
import { SUBMIT_ERROR_CODES } from '../../server/plugins/vectorize.js';

type Job = {
  id: string;
  status: string;
  retention: string;
  requested_retention?: string;
  expires_at?: string;
  completed_at?: string;
  folder_id?: string;
};

t.test('retention is clamped to the plan maximum and reported as effective', async (t) => {
  const h = await harness(t);
  const trial = await h.account('trial');
  const job = h.json<Job>(await h.submit(trial.secret, { retention: '10d' }));
  t.equal(job.retention, '24h', 'trial keeps at most 24h');
  t.equal(job.requested_retention, '10d');
  const pro = await h.account('pro');
  t.equal(h.json<Job>(await h.submit(pro.secret, { retention: '10d' })).retention, '7d');
  t.equal(h.json<Job>(await h.submit(pro.secret, { retention: '3d' })).retention, '3d');
  t.equal(h.json<Job>(await h.submit(pro.secret, {})).retention, '24h', 'default 24h');
  const studio = await h.account('studio');
  t.equal(h.json<Job>(await h.submit(studio.secret, { retention: '10d' })).retention, '10d');
  t.equal(h.json<Job>(await h.submit(studio.secret, { retention: 'none' })).retention, 'none');
});

t.test('retention=none: the result downloads once and is deleted as it is served', async (t) => {
  const h = await harness(t, { autoComplete: true });
  const { secret } = await h.account('pro');
  const job = h.json<Job>(await h.submit(secret, { retention: 'none' }));
  await waitFor(() => statusOf(h, job.id) === 'completed');
  const done = h.json<Job>(await h.get(secret, `/v1/jobs/${job.id}`));
  t.ok(done.expires_at, 'an unclaimed result still has an expiry');
  const first = await h.get(secret, `/v1/jobs/${job.id}/download`);
  t.equal(first.statusCode, 200);
  t.match(first.payload, /<svg/);
  t.notOk(await h.app.context.blobs.exists(`results/${job.id}.svg`), 'gone from disk');
  const second = await h.get(secret, `/v1/jobs/${job.id}/download`);
  t.equal(second.statusCode, 410);
  t.equal(errorOf(second).code, 'result_expired');
  t.equal(h.json<Job>(await h.get(secret, `/v1/jobs/${job.id}`)).status, 'expired');
});

t.test('the sweeper expires due results, prunes old records and forgets idempotency keys', async (t) => {
  const h = await harness(t, { autoComplete: true });
  const { secret } = await h.account('pro');
  const job = h.json<Job>(await h.submit(secret, { retention: '24h' }, undefined, { 'idempotency-key': 'sweep-1' }));
  const failing = h.json<Job>(await h.submit(secret, { retention: '3d' }));
  await waitFor(() => statusOf(h, job.id) === 'completed' && statusOf(h, failing.id) === 'completed');
  const retention = h.app.services.retention;
  t.match(await retention.sweep(), { expired: 0, pruned: 0 });
  h.clock.advance(24 * 3600_000 + 1);
  t.match(await retention.sweep(), { expired: 1, idempotency: 1 });
  t.equal(statusOf(h, job.id), 'expired');
  t.equal(statusOf(h, failing.id), 'completed', 'a 3d result is kept');
  t.notOk(await h.app.context.blobs.exists(`results/${job.id}.svg`));
  h.clock.advance(31 * 24 * 3600_000);
  const swept = await retention.sweep();
  t.equal(swept.pruned, 2, 'records older than the TTL are removed');
  t.equal(h.app.context.store.jobs.count(), 0);
});

t.test('folders: first admitted file names it; default name is the creation date; DELETE removes everything', async (t) => {
  const h = await harness(t, { autoComplete: true });
  const { secret } = await h.account('pro');
  const a = h.json<Job>(await h.submit(secret, { batch_id: 'shoot-7', folder_name: 'Client X' }));
  const b = h.json<Job>(await h.submit(secret, { batch_id: 'shoot-7', folder_name: 'Renamed?' }));
  const c = h.json<Job>(await h.submit(secret, { batch_id: 'undated' }));
  const loose = h.json<Job>(await h.submit(secret, {}));
  t.equal(a.folder_id, b.folder_id);
  t.notOk(loose.folder_id, 'a job without batch_id belongs to no folder');
  const list = h.json<{ folders: { id: string; name: string; files: number; batch_id: string }[] }>(await h.get(secret, '/v1/folders'));
  const named = list.folders.find((f) => f.batch_id === 'shoot-7')!;
  t.equal(named.name, 'Client X', 'later files do not rename it');
  t.equal(named.files, 2);
  t.equal(list.folders.find((f) => f.batch_id === 'undated')!.name, '2025-01-15');
  await waitFor(() => statusOf(h, a.id) === 'completed' && statusOf(h, b.id) === 'completed');
  t.equal((await h.del(secret, `/v1/folders/${a.folder_id}`)).statusCode, 204);
  t.equal((await h.get(secret, `/v1/jobs/${a.id}`)).statusCode, 404);
  t.equal((await h.get(secret, `/v1/jobs/${b.id}`)).statusCode, 404);
  t.notOk(await h.app.context.blobs.exists(`results/${a.id}.svg`));
  t.equal((await h.get(secret, `/v1/jobs/${c.id}`)).statusCode, 200, 'other folders untouched');
  t.equal((await h.del(secret, `/v1/folders/${a.folder_id}`)).statusCode, 404);
});

t.test('reports: 201 with the report; bad bodies answer invalid_parameter', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const job = h.json<Job>(await h.submit(secret));
  const post = (payload: unknown) =>
    h.app.server.inject({
      method: 'POST',
      url: `/v1/jobs/${job.id}/report`,
      payload: payload as object,
      headers: { authorization: `Bearer ${secret}` },
    });
  const res = await post({ reason: 'bad_result', message: 'the eyes merged' });
  t.equal(res.statusCode, 201);
  t.match(h.json(res), { id: /^rpt_[0-9A-Za-z]{16,}$/, job_id: job.id, reason: 'bad_result', message: 'the eyes merged' });
  const missing = await post({ message: 'no reason' });
  t.equal(missing.statusCode, 400);
  t.equal(errorOf(missing).details.field, 'reason');
  t.equal(errorOf(await post({ reason: 'x', message: 'm'.repeat(4001) })).details.field, 'message');
});

t.test('keys: created secret shown once, stored hashed, listed by prefix + last 4', async (t) => {
  const h = await harness(t);
  const { id, secret } = await h.account('pro');
  const created = await h.app.server.inject({
    method: 'POST',
    url: '/v1/keys',
    payload: { name: 'ci', scope: 'app' },
    headers: { authorization: `Bearer ${secret}` },
  });
  t.equal(created.statusCode, 201);
  const body = h.json<{ id: string; secret: string; last4: string; scope: string; prefix: string }>(created);
  t.match(body.secret, /^service_sk_live_[0-9A-Za-z]{32}$/);
  t.equal(body.last4, body.secret.slice(-4));
  t.equal(body.scope, 'app');
  const list = await h.get(secret, '/v1/keys');
  t.notOk(list.payload.includes(body.secret), 'the list never shows a secret');
  const keys = h.json<{ keys: { id: string; masked: string; last_used_at: string | null }[] }>(list).keys;
  t.equal(keys.length, 2);
  t.equal(keys.find((k) => k.id === body.id)!.masked, `service_sk_live_…${body.last4}`);
  t.ok(keys.find((k) => k.id !== body.id)!.last_used_at, 'last_used_at is kept');
  const raw = JSON.stringify(h.app.context.store.keys.all());
  t.notOk(raw.includes(body.secret) || raw.includes(secret), 'only hashes are stored');
  t.equal(h.app.context.store.keys.filter((k) => k.account_id === id).length, 2);
  const bad = await h.app.server.inject({
    method: 'POST',
    url: '/v1/keys',
    payload: { scope: 'root' },
    headers: { authorization: `Bearer ${secret}` },
  });
  t.equal(errorOf(bad).details.field, 'scope');
});

t.test('account: plan, allowances and limits', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('studio');
  const view = h.json<Record<string, unknown>>(await h.get(secret, '/v1/account'));
  t.match(view, {
    id: /^acct_/,
    plan: 'studio',
    allowances: {
      trial: { total: 5, used: 0, left: 5 },
      monthly: { total: 2000, used: 0, left: 2000, reset_at: '2025-02-15T00:00:00.000Z' },
    },
    limits: {
      max_retention: '10d',
      batch_group: 50,
      max_megapixels: 64,
      active_jobs: 20,
      daily_fuse: 800,
      high_detail: true,
      monthly_allowance: 2000,
      manual_settings: true,
    },
  });
  const trial = await h.account('trial');
  const trialView = h.json<{ limits: Record<string, unknown> }>(await h.get(trial.secret, '/v1/account'));
  t.equal(trialView.limits.manual_settings, false, 'the page reads from here that the trial traces with the automatic settings');
});

t.test('admin API: loopback + token; accounts, keys, jobs, reports, stats', async (t) => {
  const h = await harness(t, { adminToken: 'admintoken123' });
  const admin = (method: string, url: string, payload?: object, extra: Record<string, unknown> = {}) =>
    h.app.server.inject({ method, url, payload, headers: { authorization: 'Bearer admintoken123' }, ...extra });
  t.equal((await h.app.server.inject({ method: 'GET', url: '/admin/v1/stats' })).statusCode, 401);
  t.equal(
    (await h.app.server.inject({ method: 'GET', url: '/admin/v1/stats', headers: { authorization: 'Bearer wrong' } })).statusCode,
    401,
  );
  const remote = await admin('GET', '/admin/v1/stats', undefined, { remoteAddress: '192.168.1.20' });
  t.equal(remote.statusCode, 403, 'never from another machine, even with the token');
  const created = await admin('POST', '/admin/v1/accounts', { name: 'Acme', plan: 'agency' });
  t.equal(created.statusCode, 201);
  const account = h.json<{ id: string; plan: string }>(created);
  t.equal(account.plan, 'agency');
  const key = h.json<{ secret: string; id: string }>(await admin('POST', '/admin/v1/keys', { account_id: account.id, name: 'n' }));
  t.match(key.secret, /^service_sk_live_/);
  const job = h.json<Job>(await h.submit(key.secret));
  t.equal(h.json<{ plan: string }>(await admin('PUT', `/admin/v1/accounts/${account.id}/plan`, { plan: 'pro' })).plan, 'pro');
  await h.submit((await h.account('pro')).secret);
  const jobs = h.json<{ jobs: { id: string; account_id: string }[] }>(await admin('GET', `/admin/v1/jobs?account_id=${account.id}`));
  t.same(
    jobs.jobs.map((j) => [j.id, j.account_id]),
    [[job.id, account.id]],
  );
  t.equal(h.json<{ jobs: unknown[] }>(await admin('GET', '/admin/v1/jobs')).jobs.length, 2, 'across accounts');
  t.equal(h.json<{ jobs: unknown[] }>(await admin('GET', '/admin/v1/jobs?status=failed')).jobs.length, 0, 'status filter');
  await h.app.server.inject({
    method: 'POST',
    url: `/v1/jobs/${job.id}/report`,
    payload: { reason: 'other' },
    headers: { authorization: `Bearer ${key.secret}` },
  });
  t.equal(h.json<{ reports: unknown[] }>(await admin('GET', '/admin/v1/reports')).reports.length, 1);
  t.equal(h.json<{ status: string }>(await admin('DELETE', `/admin/v1/jobs/${job.id}`)).status, 'canceled');
  const stats = h.json<Record<string, unknown>>(await admin('GET', '/admin/v1/stats'));
  t.match(stats, { queue_length: 0, workers: 2, classifier: { provider: 'fake' }, event_loop_delay_ms: { max: Number } });
  t.equal((await admin('DELETE', `/admin/v1/keys/${key.id}`)).statusCode, 204);
  t.equal((await h.get(key.secret, '/v1/account')).statusCode, 401);
  t.equal(h.json<{ accounts: unknown[] }>(await admin('GET', '/admin/v1/accounts')).accounts.length, 2);
});

t.test('OpenAPI 3 document validates and lists every route with its error codes', async (t) => {
  const h = await harness(t, { adminToken: 'x' });
  const res = await h.get(null, '/v3/api-docs');
  t.equal(res.statusCode, 200);
  const doc = JSON.parse(res.payload) as {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
  };
  t.match(doc.openapi, /^3\.0/);
  await t.resolves(SwaggerParser.validate(structuredClone(doc) as never), 'swagger-parser accepts it');
  const endpoints = [
    ['post', '/v1/vectorize'],
    ['get', '/v1/jobs'],
    ['get', '/v1/jobs/{id}'],
    ['get', '/v1/jobs/{id}/download'],
    ['delete', '/v1/jobs/{id}'],
    ['post', '/v1/jobs/{id}/render'],
    ['post', '/v1/jobs/{id}/report'],
    ['get', '/v1/folders'],
    ['delete', '/v1/folders/{id}'],
    ['get', '/v1/account'],
    ['get', '/v1/keys'],
    ['post', '/v1/keys'],
    ['delete', '/v1/keys/{id}'],
    ['get', '/healthz'],
    ['get', '/admin/v1/stats'],
  ];
  for (const [method, path] of endpoints) t.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} documented`);
  // every code the route answers, under its own status (the route's list is the one it documents
  // with; http-errors.ts owns the statuses)
  const vectorize = doc.paths['/v1/vectorize'].post.responses;
  t.ok(SUBMIT_ERROR_CODES.length >= 20, 'the submission’s codes');
  for (const code of SUBMIT_ERROR_CODES)
    t.match(vectorize[String(httpStatusOf(code))]?.description, code, `POST /v1/vectorize documents ${code}`);
  t.match(doc.paths['/v1/jobs/{id}/download'].get.responses['410'].description, /result_expired/);
  t.match(doc.paths['/v1/jobs/{id}/download'].get.responses['409'].description, /not_ready/);
});

t.test('docs/operations.md counts the /v1 endpoints and lists every admin route', async (t) => {
  const h = await harness(t);
  const readme = readFileSync(join(process.cwd(), 'docs', 'operations.md'), 'utf8');
  const routes = h.app.server.table().map((route) => ({ method: route.method.toUpperCase(), path: route.path }));
  const v1 = routes.filter((route) => route.path.startsWith('/v1/'));
  t.equal(Number(/the (\d+) `\/v1` endpoints/.exec(readme)?.[1]), v1.length, `docs/operations.md says the ${v1.length} /v1 endpoints`);
  const adminList = readme.slice(readme.indexOf('**Admin API**'), readme.indexOf('## Configuration'));
  for (const route of routes.filter((r) => r.path.startsWith('/admin/v1/'))) {
    const path = route.path.slice('/admin/v1'.length);
    t.ok(adminList.includes(path), `${route.method} /admin/v1${path} is in the admin list of docs/operations.md`);
  }
});
