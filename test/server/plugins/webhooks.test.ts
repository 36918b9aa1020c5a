import t from 'tap';
import { harness, settle, waitFor, errorOf } from '../helpers.js';
import { startReceiver } from '../webhooks/fixtures.js';
import { verifySignature } from '../../../server/webhooks/signature.js';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
// The receivers listen on 127.0.0.1, admitted the way an operator admits a LAN receiver.
const env = { VECTORIZE_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', VECTORIZE_WEBHOOK_BACKOFF_MS: '5' };

async function setup(t: { teardown(fn: () => unknown): void }) {
  const h = await harness(t, { env, adminToken: ADMIN_TOKEN });
  const service = h.app.services.webhooks;
  service.start(20);
  t.teardown(() => service.stop());
  const post = (secret: string, url: string, payload: unknown) =>
    h.app.server.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: `Bearer ${secret}` } });
  const admin = (method: string, url: string, payload?: unknown) =>
    h.app.server.inject({
      method,
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      remoteAddress: '127.0.0.1',
    });
  return { h, service, post, admin };
}

t.test('the secret is returned once, at creation, and listings never carry it', async (t) => {
  const { h, post } = await setup(t);
  const { secret } = await h.account('pro');
  const created = await post(secret, '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['processing.completed'] });
  t.equal(created.statusCode, 201);
  const body = h.json<{ id: string; secret: string; events: string[] }>(created);
  t.match(body, { id: /^whk_[0-9A-Za-z]{16,}$/, secret: /^whsec_/, events: ['processing.completed'] });
  const list = await h.get(secret, '/v1/webhooks');
  t.equal(list.statusCode, 200);
  t.notMatch(list.payload, body.secret);
  t.same(
    h.json<{ webhooks: Array<{ id: string }> }>(list).webhooks.map((w) => w.id),
    [body.id],
  );
});

t.test('job moves deliver processing.started / completed / failed, signed, with the contract body', async (t) => {
  const { h, post } = await setup(t);
  const receiver = await startReceiver(() => ({ status: 200 }));
  t.teardown(receiver.close);
  const { secret } = await h.account('pro');
  const endpoint = h.json<{ secret: string }>(await post(secret, '/v1/webhooks', { url: receiver.url }));

  const ok = h.json<{ id: string }>(await h.submit(secret));
  await settle();
  h.pool.complete(ok.id);
  const bad = h.json<{ id: string }>(await h.submit(secret));
  await settle();
  h.pool.fail(bad.id, 'unreadable_file');
  await waitFor(() => receiver.received.length === 4, 'four deliveries');

  const events = receiver.received.map((r) => ({ header: r.headers['x-service-event'], body: JSON.parse(r.body) }));
  for (const request of receiver.received) {
    t.ok(verifySignature(request.body, endpoint.secret, request.headers['x-service-signature'] as string), 'signature verifies');
  }
  t.ok(events.every((e) => e.header === e.body.event));
  const byJob = (id: string) => events.filter((e) => e.body.data.job_id === id).map((e) => e.body);
  t.match(
    byJob(ok.id)
      .map((b) => [b.event, b.data.status])
      .sort(),
    [
      ['processing.completed', 'completed'],
      ['processing.started', 'processing'],
    ],
  );
  const failed = byJob(bad.id).find((b) => b.event === 'processing.failed');
  t.match(failed, { id: /^evt_/, data: { status: 'failed', error: { code: 'unreadable_file' } } });
  t.notOk('download_url' in failed.data, 'a failed job has nothing to download');
  const completed = byJob(ok.id).find((b) => b.event === 'processing.completed');
  t.match(completed.data.download_url, new RegExp(`^http://[^/]+/v1/jobs/${ok.id}/download$`), 'the receiver can fetch the SVG at once');
});

t.test('private targets answer 400 invalid_parameter naming url; malformed bodies too', async (t) => {
  const { h, post } = await setup(t);
  const { secret } = await h.account('pro');
  for (const url of ['http://10.0.0.1/', 'http://[::ffff:169.254.169.254]/', 'http://127.0.0.2/']) {
    const response = await post(secret, '/v1/webhooks', { url });
    t.equal(response.statusCode, 400, url);
    t.match(errorOf(response), { code: 'invalid_parameter', details: { field: 'url' } });
  }
  t.equal((await post(secret, '/v1/webhooks', { url: 'http://127.0.0.1/', events: ['job.done'] })).statusCode, 400);
  t.equal((await post(secret, '/v1/webhooks', {})).statusCode, 400);
  t.equal((await h.get(secret, '/v1/webhooks')).payload, JSON.stringify({ webhooks: [] }), 'nothing was stored');
});

t.test("deliveries show each attempt; another account's endpoint is 404 not_found", async (t) => {
  const { h, post } = await setup(t);
  const receiver = await startReceiver((n) => ({ status: n === 1 ? 500 : 204 }));
  t.teardown(receiver.close);
  const owner = await h.account('pro');
  const stranger = await h.account('pro');
  const endpoint = h.json<{ id: string }>(await post(owner.secret, '/v1/webhooks', { url: receiver.url }));
  t.equal((await post(owner.secret, `/v1/webhooks/${endpoint.id}/test`, {})).statusCode, 202);
  // Retries fall due on the injected clock: move it on while waiting.
  await waitFor(() => {
    h.clock.advance(60_000);
    return receiver.received.length === 2;
  }, 'retry delivered');
  await waitFor(
    async () =>
      h.json<{ deliveries: Array<{ status: string }> }>(await h.get(owner.secret, `/v1/webhooks/${endpoint.id}/deliveries`)).deliveries[0]
        ?.status === 'delivered',
    'delivered state',
  );
  const [delivery] = h.json<{ deliveries: Array<Record<string, unknown> & { log: Array<Record<string, unknown>> }> }>(
    await h.get(owner.secret, `/v1/webhooks/${endpoint.id}/deliveries`),
  ).deliveries;
  t.match(delivery, { event: 'processing.completed', status: 'delivered', attempts: 2, last_status_code: 204 });
  t.match(delivery!.log, [
    { attempt: 1, status: 500, ok: false },
    { attempt: 2, status: 204, ok: true },
  ]);
  t.ok(delivery!.log.every((a) => typeof a.duration_ms === 'number'));

  for (const [method, url] of [
    ['GET', `/v1/webhooks/${endpoint.id}/deliveries`],
    ['DELETE', `/v1/webhooks/${endpoint.id}`],
    ['POST', `/v1/webhooks/${endpoint.id}/test`],
  ] as const) {
    const response = await h.app.server.inject({ method, url, headers: { authorization: `Bearer ${stranger.secret}` } });
    t.equal(response.statusCode, 404, `${method} ${url} as a stranger`);
    t.equal(errorOf(response).code, 'not_found');
  }
  t.equal((await h.del(owner.secret, `/v1/webhooks/${endpoint.id}`)).statusCode, 204);
  t.equal((await h.get(owner.secret, `/v1/webhooks/${endpoint.id}/deliveries`)).statusCode, 404);
});

t.test('webhook routes need the bearer key', async (t) => {
  const { h } = await setup(t);
  t.equal((await h.get(null, '/v1/webhooks')).statusCode, 401);
  t.equal(errorOf(await h.get(null, '/v1/webhooks')).code, 'unauthorized');
});

t.test('the admin API lists every endpoint, creates one for an account, shows deliveries, and sends tests', async (t) => {
  const { h, post, admin } = await setup(t);
  const receiver = await startReceiver(() => ({ status: 500 }));
  t.teardown(receiver.close);
  const a = await h.account('pro');
  const b = await h.account('studio');
  await post(a.secret, '/v1/webhooks', { url: 'http://127.0.0.1:9/a' });
  const created = await admin('POST', '/admin/v1/webhooks', { account_id: b.id, url: receiver.url });
  t.equal(created.statusCode, 201);
  const hook = h.json<{ id: string; secret: string; account_id: string }>(created);
  t.match(hook, { account_id: b.id, secret: /^whsec_/ });
  const list = h.json<{ webhooks: Array<{ account_id: string }> }>(await admin('GET', '/admin/v1/webhooks'));
  t.same(list.webhooks.map((w) => w.account_id).sort(), [a.id, b.id].sort());
  t.notMatch(JSON.stringify(list), 'whsec_');
  t.equal((await admin('POST', `/admin/v1/webhooks/${hook.id}/test`)).statusCode, 202);
  await waitFor(async () => {
    h.clock.advance(60_000);
    return (
      h.json<{ deliveries: Array<{ status: string }> }>(await admin('GET', `/admin/v1/webhooks/${hook.id}/deliveries`)).deliveries[0]
        ?.status === 'failed'
    );
  }, 'gave up');
  const [delivery] = h.json<{ deliveries: Array<{ attempts: number; log: unknown[]; last_status_code: number }> }>(
    await admin('GET', `/admin/v1/webhooks/${hook.id}/deliveries`),
  ).deliveries;
  t.match(delivery, { attempts: 4, last_status_code: 500 });
  t.equal(delivery!.log.length, 4);
  t.equal((await admin('POST', '/admin/v1/webhooks', { account_id: 'acct_nobody00000000000', url: receiver.url })).statusCode, 404);
  t.equal((await admin('DELETE', `/admin/v1/webhooks/${hook.id}`)).statusCode, 204);
  const outside = await h.app.server.inject({
    method: 'GET',
    url: '/admin/v1/webhooks',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    remoteAddress: '192.168.1.20',
  });
  t.equal(outside.statusCode, 403, 'the admin API answers on loopback only');
});
