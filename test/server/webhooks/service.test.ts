import t from 'tap';
import { AddressPolicy } from '../../../server/webhooks/address-policy.js';
import { WebhookSender, systemResolver } from '../../../server/webhooks/sender.js';
import { MAX_ATTEMPTS, WebhookService } from '../../../server/webhooks/service.js';
import { verifySignature } from '../../../server/webhooks/signature.js';
import { MemoryWebhookRepository, startReceiver } from './fixtures.js';
import { waitFor } from '../helpers.js';

// The receivers listen on 127.0.0.1, admitted on purpose as an operator would with
// VECTORIZE_WEBHOOK_ALLOW_CIDRS; nothing outside loopback is ever addressed.
const policy = new AddressPolicy('127.0.0.1/32');

function makeService(repository = new MemoryWebhookRepository(), backoffMs = 5) {
  const sender = new WebhookSender({ policy, resolve: systemResolver, timeoutMs: 2000 });
  const service = new WebhookService({ repository, sender, policy, resolve: systemResolver, backoffMs });
  return { repository, service };
}

t.test('a delivery carries the contract headers and a signature the receiver can verify', async (t) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const { service, repository } = makeService();
  service.start(50);
  t.teardown(() => service.stop());
  const endpoint = await service.create('acct_a', { url: receiver.url });
  t.match(endpoint.secret, /^whsec_[0-9A-Za-z]{32}$/);
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => receiver.received.length === 1);
  const [request] = receiver.received;
  t.equal(request!.headers['x-service-event'], 'processing.completed');
  t.ok(verifySignature(request!.body, endpoint.secret, request!.headers['x-service-signature'] as string), 'signature verifies');
  t.notOk(verifySignature(request!.body, 'whsec_wrong', request!.headers['x-service-signature'] as string), 'a wrong secret does not');
  t.notOk(verifySignature(`${request!.body} `, endpoint.secret, request!.headers['x-service-signature'] as string), 'a changed body does not');
  const body = JSON.parse(request!.body);
  t.match(body, { id: /^evt_[0-9A-Za-z]{16,}$/, event: 'processing.completed', data: { job_id: 'job_1', status: 'completed' } });
  t.ok(!Number.isNaN(Date.parse(body.created_at)));
  t.match(request!.headers['x-service-delivery'], /^dlv_/);
  await waitFor(async () => [...repository.deliveries.values()][0]?.state === 'delivered');
});

t.test('500 twice then 200 gets exactly 3 attempts', async (t) => {
  const receiver = await startReceiver((n) => ({ status: n <= 2 ? 500 : 200 }));
  t.teardown(receiver.close);
  const { service, repository } = makeService();
  service.start(1000);
  t.teardown(() => service.stop());
  const endpoint = await service.create('acct_a', { url: receiver.url });
  await service.emit('acct_a', 'processing.failed', { job_id: 'job_2', status: 'failed', error: { code: 'unreadable_file' } });
  await waitFor(async () => [...repository.deliveries.values()][0]?.state === 'delivered');
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(receiver.received.length, 3);
  const ids = new Set(receiver.received.map((r) => JSON.parse(r.body).id));
  t.equal(ids.size, 1, 'every attempt carries the same event id, so the receiver can deduplicate');
  const log = await service.attempts(endpoint.id, 'acct_a');
  t.same(log.map((a) => [a.attempt, a.status, a.ok]), [[3, 200, true], [2, 500, false], [1, 500, false]]);
});

t.test('a receiver that always answers 500 gets 4 attempts in all, then the delivery is failed', async (t) => {
  const receiver = await startReceiver(() => ({ status: 500 }));
  t.teardown(receiver.close);
  const { service, repository } = makeService();
  service.start(1000);
  t.teardown(() => service.stop());
  await service.create('acct_a', { url: receiver.url });
  await service.emit('acct_a', 'processing.started', { job_id: 'job_3', status: 'processing' });
  await waitFor(async () => [...repository.deliveries.values()][0]?.state === 'failed');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(receiver.received.length, MAX_ATTEMPTS);
  t.equal(MAX_ATTEMPTS, 4);
});

t.test('retries wait backoff × 4^n', async (t) => {
  const receiver = await startReceiver((n) => ({ status: n <= 2 ? 503 : 200 }));
  t.teardown(receiver.close);
  const { service, repository } = makeService(new MemoryWebhookRepository(), 40);
  service.start(1000);
  t.teardown(() => service.stop());
  const endpoint = await service.create('acct_a', { url: receiver.url });
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_4', status: 'completed' });
  await waitFor(async () => [...repository.deliveries.values()][0]?.state === 'delivered');
  const times = (await service.attempts(endpoint.id)).reverse().map((a) => Date.parse(a.at));
  const first = times[1]! - times[0]!;
  const second = times[2]! - times[1]!;
  t.ok(first >= 40 * 0.8, `first retry after ≥ 32 ms (${first})`);
  t.ok(second >= 160 * 0.8, `second retry after ≥ 128 ms (${second})`);
});

t.test('endpoints filter event kinds', async (t) => {
  const receiver = await startReceiver(() => ({ status: 200 }));
  t.teardown(receiver.close);
  const { service } = makeService();
  service.start(1000);
  t.teardown(() => service.stop());
  await service.create('acct_a', { url: receiver.url, events: ['processing.failed'] });
  t.same(await service.emit('acct_a', 'processing.completed', { job_id: 'job_5', status: 'completed' }), []);
  t.equal((await service.emit('acct_a', 'processing.failed', { job_id: 'job_5', status: 'failed' })).length, 1);
  await waitFor(() => receiver.received.length === 1);
  await t.rejects(service.create('acct_a', { url: receiver.url, events: ['job.exploded'] }), { code: 'invalid_parameter' });
});

t.test("another account's endpoint is not_found", async (t) => {
  const { service } = makeService();
  const endpoint = await service.create('acct_a', { url: 'http://127.0.0.1:9/hook' });
  await t.rejects(service.get(endpoint.id, 'acct_b'), { code: 'not_found' });
  await t.rejects(service.remove(endpoint.id, 'acct_b'), { code: 'not_found' });
  await service.remove(endpoint.id, 'acct_a');
  t.same(await service.list('acct_a'), []);
});

t.test('a delivery pending across a restart is delivered after it', async (t) => {
  let up = false;
  const receiver = await startReceiver(() => ({ status: up ? 200 : 503 }));
  t.teardown(receiver.close);
  const repository = new MemoryWebhookRepository();
  const first = makeService(repository, 60_000).service;
  first.start(1000);
  await first.create('acct_a', { url: receiver.url });
  await first.emit('acct_a', 'processing.completed', { job_id: 'job_6', status: 'completed' });
  await waitFor(() => receiver.received.length === 1);
  await first.stop(); // the process dies with a retry an hour… a minute away
  const pending = [...repository.deliveries.values()][0]!;
  t.equal(pending.state, 'pending');
  // Time passes while the server is down: the retry is now due.
  await repository.updateDelivery({ ...pending, next_attempt_at: new Date(Date.now() - 1).toISOString() });
  up = true;
  const second = makeService(repository).service;
  second.start(1000);
  t.teardown(() => second.stop());
  await waitFor(async () => [...repository.deliveries.values()][0]?.state === 'delivered');
  t.equal(receiver.received.length, 2);
  t.equal(JSON.parse(receiver.received[0]!.body).id, JSON.parse(receiver.received[1]!.body).id);
});
