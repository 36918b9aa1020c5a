import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { secretBox } from '../../../server/adapters/secret-box.js';
import { MAX_ATTEMPTS } from '../../../server/services/webhooks.js';
import { verifySignature } from '../../../server/webhooks/signature.js';
import { openWebhookService, startReceiver } from '../webhooks/fixtures.js';
import { harness, waitFor } from '../helpers.js';

const firstState = (store: { deliveries: { all(): Array<{ state: string }> } }) => store.deliveries.all()[0]?.state;

t.test('a delivery carries the contract headers and a signature the receiver can verify', async (t) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const { service, store } = await openWebhookService(t);
  service.start(50);
  t.teardown(() => service.stop());
  const { secret } = await service.create('acct_a', { url: receiver.url });
  t.match(secret, /^whsec_[0-9A-Za-z]{32}$/);
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => receiver.received.length === 1);
  const [request] = receiver.received;
  t.equal(request!.headers['x-service-event'], 'processing.completed');
  t.ok(verifySignature(request!.body, secret, request!.headers['x-service-signature'] as string), 'signature verifies');
  t.notOk(verifySignature(request!.body, 'whsec_wrong', request!.headers['x-service-signature'] as string), 'a wrong secret does not');
  t.notOk(verifySignature(`${request!.body} `, secret, request!.headers['x-service-signature'] as string), 'a changed body does not');
  const body = JSON.parse(request!.body);
  t.match(body, { id: /^evt_[0-9A-Za-z]{16,}$/, event: 'processing.completed', data: { job_id: 'job_1', status: 'completed' } });
  t.ok(!Number.isNaN(Date.parse(body.created_at)));
  t.match(request!.headers['x-service-delivery'], /^dlv_/);
  await waitFor(() => firstState(store) === 'delivered');
});

t.test('500 twice then 200 gets exactly 3 attempts', async (t) => {
  const receiver = await startReceiver((n) => ({ status: n <= 2 ? 500 : 200 }));
  t.teardown(receiver.close);
  const { service, store } = await openWebhookService(t);
  service.start(1000);
  t.teardown(() => service.stop());
  const { webhook: endpoint } = await service.create('acct_a', { url: receiver.url });
  await service.emit('acct_a', 'processing.failed', { job_id: 'job_2', status: 'failed', error: { code: 'unreadable_file' } });
  await waitFor(() => firstState(store) === 'delivered');
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(receiver.received.length, 3);
  const ids = new Set(receiver.received.map((r) => JSON.parse(r.body).id));
  t.equal(ids.size, 1, 'every attempt carries the same event id, so the receiver can deduplicate');
  const log = service.attempts(endpoint.id, 'acct_a');
  t.same(
    log.map((a) => [a.attempt, a.status, a.ok]),
    [
      [3, 200, true],
      [2, 500, false],
      [1, 500, false],
    ],
  );
});

t.test('a receiver that always answers 500 gets 4 attempts in all, then the delivery is failed', async (t) => {
  const receiver = await startReceiver(() => ({ status: 500 }));
  t.teardown(receiver.close);
  const { service, store } = await openWebhookService(t);
  service.start(1000);
  t.teardown(() => service.stop());
  await service.create('acct_a', { url: receiver.url });
  await service.emit('acct_a', 'processing.started', { job_id: 'job_3', status: 'processing' });
  await waitFor(() => firstState(store) === 'failed');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(receiver.received.length, MAX_ATTEMPTS);
  t.equal(MAX_ATTEMPTS, 4);
});

t.test('retries wait backoff × 4^n', async (t) => {
  const receiver = await startReceiver((n) => ({ status: n <= 2 ? 503 : 200 }));
  t.teardown(receiver.close);
  const { service, store } = await openWebhookService(t, { backoffMs: 40 });
  service.start(1000);
  t.teardown(() => service.stop());
  const { webhook: endpoint } = await service.create('acct_a', { url: receiver.url });
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_4', status: 'completed' });
  await waitFor(() => firstState(store) === 'delivered');
  const times = service
    .attempts(endpoint.id)
    .reverse()
    .map((a) => Date.parse(a.at));
  const first = times[1]! - times[0]!;
  const second = times[2]! - times[1]!;
  t.ok(first >= 40 * 0.8, `first retry after ≥ 32 ms (${first})`);
  t.ok(second >= 160 * 0.8, `second retry after ≥ 128 ms (${second})`);
});

t.test('endpoints filter event kinds', async (t) => {
  const receiver = await startReceiver(() => ({ status: 200 }));
  t.teardown(receiver.close);
  const { service } = await openWebhookService(t);
  service.start(1000);
  t.teardown(() => service.stop());
  await service.create('acct_a', { url: receiver.url, events: ['processing.failed'] });
  t.same(await service.emit('acct_a', 'processing.completed', { job_id: 'job_5', status: 'completed' }), []);
  t.equal((await service.emit('acct_a', 'processing.failed', { job_id: 'job_5', status: 'failed' })).length, 1);
  await waitFor(() => receiver.received.length === 1);
  await t.rejects(service.create('acct_a', { url: receiver.url, events: ['job.exploded'] }), { code: 'invalid_parameter' });
});

t.test("another account's endpoint is not_found", async (t) => {
  const { service } = await openWebhookService(t);
  const { webhook: endpoint } = await service.create('acct_a', { url: 'http://127.0.0.1:9/hook' });
  t.throws(() => service.get(endpoint.id, 'acct_b'), { code: 'not_found' });
  await t.rejects(service.remove(endpoint.id, 'acct_b'), { code: 'not_found' });
  await service.remove(endpoint.id, 'acct_a');
  t.same(service.list('acct_a'), []);
});

t.test('a delivery pending in the database when the process stops is delivered by the next one', async (t) => {
  let up = false;
  const receiver = await startReceiver(() => ({ status: up ? 200 : 503 }));
  t.teardown(receiver.close);

  // First process: the receiver is down, the retry is a minute away when the process ends.
  const first = await openWebhookService(t, { backoffMs: 60_000 });
  first.service.start(1000);
  const { webhook: endpoint } = await first.service.create('acct_a', { url: receiver.url });
  await first.service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => receiver.received.length === 1, 'first attempt');
  await first.service.drain();
  await first.close();
  const onDisk = JSON.parse(readFileSync(first.file, 'utf8')) as {
    deliveries: Array<{ state: string; attempts: number; next_attempt_at: string }>;
  };
  t.match(onDisk.deliveries, [{ state: 'pending', attempts: 1 }], 'the pending delivery is on disk');

  // The retry falls due while no process runs.
  const second = await openWebhookService(t, { file: first.file, secrets: first.secrets });
  const [pending] = second.store.deliveries.all();
  second.store.deliveries.update(pending!.id, { next_attempt_at: new Date(Date.now() - 1000).toISOString() });
  up = true;
  second.service.start(1000);
  await waitFor(() => second.service.deliveries(endpoint.id)[0]?.state === 'delivered', 'delivered after restart');
  t.equal(receiver.received.length, 2);
  t.equal(
    JSON.parse(receiver.received[1]!.body).id,
    JSON.parse(receiver.received[0]!.body).id,
    'the same event, so the receiver deduplicates',
  );
  t.same(
    second.service.attempts(endpoint.id).map((a) => a.status),
    [200, 503],
  );
});

t.test('finished deliveries past the log limit are pruned so the database stays small', async (t) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const { service } = await openWebhookService(t);
  service.start(1000);
  const { webhook: endpoint } = await service.create('acct_a', { url: receiver.url });
  for (let i = 0; i < 60; i++) await service.emit('acct_a', 'processing.completed', { job_id: `job_${i}`, status: 'completed' });
  await waitFor(() => receiver.received.length === 60, '60 deliveries');
  await service.drain();
  const kept = service.deliveries(endpoint.id);
  t.ok(kept.length <= 50, `kept ${kept.length} of 60`);
  t.ok(kept.length >= 49, 'the most recent ones stay');
});

t.test('the store keeps the signing secret sealed; a copy of the database without secrets.key cannot sign', async (t) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const first = await openWebhookService(t);
  const { webhook, secret } = await first.service.create('acct_a', { url: receiver.url });
  await first.close();
  const onDisk = readFileSync(first.file, 'utf8');
  t.notOk(onDisk.includes(secret), 'the plain secret is not in db.json');
  t.notOk(onDisk.includes(secret.slice('whsec_'.length, 20)), 'nor any recognisable part of it');

  // Another machine with the copied db.json and its own key: the delivery fails, nothing unsigned goes out.
  const copy = await openWebhookService(t, { file: first.file });
  copy.service.start(1000);
  await copy.service.sendTest(webhook.id);
  await waitFor(() => firstState(copy.store) === 'failed', 'the delivery gives up');
  t.equal(receiver.received.length, 0);
  t.match(copy.service.attempts(webhook.id)[0], { status: null, error: /signing secret unavailable/ });
});

t.test('a plain secret left by an older version is sealed at start and still signs', async (t) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const { service, store, file } = await openWebhookService(t);
  const legacy = {
    id: 'whk_legacy00000000000000',
    account_id: 'acct_a',
    url: receiver.url,
    secret: 'whsec_legacyLegacyLegacyLegacy0123',
    events: ['processing.completed'],
    created_at: new Date().toISOString(),
  };
  store.webhooks.insert(legacy as never);
  t.equal(await service.sealSecrets(), 1);
  t.equal(await service.sealSecrets(), 0, 'nothing left to seal');
  await store.flush();
  t.notOk(readFileSync(file, 'utf8').includes(legacy.secret), 'the plain field is gone from db.json');
  service.start(1000);
  await service.sendTest(legacy.id);
  await waitFor(() => receiver.received.length === 1);
  const [request] = receiver.received;
  t.ok(
    verifySignature(request!.body, legacy.secret, request!.headers['x-service-signature'] as string),
    'signed with the same secret as before',
  );
});

t.test('after a key rotation the secrets are re-sealed with the new key and the old key can go', async (t) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const first = await openWebhookService(t, { secrets: secretBox([oldKey]) });
  const { webhook, secret } = await first.service.create('acct_a', { url: receiver.url });
  await first.close();
  const rotating = await openWebhookService(t, { file: first.file, secrets: secretBox([newKey, oldKey]) });
  t.equal(await rotating.service.sealSecrets(), 1);
  await rotating.close();
  const after = await openWebhookService(t, { file: first.file, secrets: secretBox([newKey]) });
  after.service.start(1000);
  await after.service.sendTest(webhook.id);
  await waitFor(() => receiver.received.length === 1);
  t.ok(verifySignature(receiver.received[0]!.body, secret, receiver.received[0]!.headers['x-service-signature'] as string));
});

t.test('the retention sweep has the webhooks service forget deliveries older than the record lifetime', async (t) => {
  const h = await harness(t, { env: { VECTORIZE_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' } });
  const account = await h.account('pro');
  const { webhook } = await h.app.services.webhooks.create(account.id, { url: 'http://127.0.0.1:9/hook' });
  await h.app.services.webhooks.sendTest(webhook.id);
  h.clock.advance(29 * 24 * 3600_000);
  await h.app.services.webhooks.sendTest(webhook.id);
  t.equal(h.app.context.store.deliveries.count(), 2);
  h.clock.advance(2 * 24 * 3600_000);
  t.match(await h.app.services.retention.sweep(), { pruned: 1 });
  t.equal(h.app.context.store.deliveries.count(), 1, 'the 2-day-old one stays');
});
