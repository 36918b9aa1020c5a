import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openLowdbStore } from '../../../server/adapters/lowdb-store.js';
import { AddressPolicy } from '../../../server/webhooks/address-policy.js';
import { WebhookSender, systemResolver } from '../../../server/webhooks/sender.js';
import { WebhookService } from '../../../server/webhooks/service.js';
import { StoreWebhookRepository } from '../../../server/webhooks/store-repository.js';
import { waitFor } from '../helpers.js';
import { startReceiver } from './fixtures.js';

const policy = new AddressPolicy('127.0.0.1/32');

async function serviceOver(file: string, backoffMs: number) {
  const store = await openLowdbStore(file, { writeDelayMs: 1 });
  const service = new WebhookService({
    repository: new StoreWebhookRepository(store), policy, resolve: systemResolver, backoffMs,
    sender: new WebhookSender({ policy, resolve: systemResolver }),
  });
  return { store, service };
}

t.test('a delivery pending in the database when the process stops is delivered by the next one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-webhooks-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'db.json');
  let up = false;
  const receiver = await startReceiver(() => ({ status: up ? 200 : 503 }));
  t.teardown(receiver.close);

  // First process: the receiver is down, the retry is a minute away when the process ends.
  const first = await serviceOver(file, 60_000);
  first.service.start(1000);
  const endpoint = await first.service.create('acct_a', { url: receiver.url });
  await first.service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => receiver.received.length === 1, 'first attempt');
  await first.service.drain();
  await first.service.stop();
  await first.store.close();
  const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { deliveries: Array<{ state: string; attempts: number; next_attempt_at: string }> };
  t.match(onDisk.deliveries, [{ state: 'pending', attempts: 1 }], 'the pending delivery is on disk');

  // The retry falls due while no process runs.
  const second = await serviceOver(file, 5);
  const [pending] = second.store.deliveries.all();
  second.store.deliveries.update(pending!.id, { next_attempt_at: new Date(Date.now() - 1000).toISOString() });
  up = true;
  second.service.start(1000);
  t.teardown(async () => { await second.service.stop(); await second.store.close(); });
  await waitFor(async () => (await second.service.deliveries(endpoint.id))[0]?.state === 'delivered', 'delivered after restart');
  t.equal(receiver.received.length, 2);
  t.equal(JSON.parse(receiver.received[1]!.body).id, JSON.parse(receiver.received[0]!.body).id, 'the same event, so the receiver deduplicates');
  t.same((await second.service.attempts(endpoint.id)).map((a) => a.status), [200, 503]);
});

t.test('finished deliveries past the log limit are pruned so the database stays small', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vectorize-webhooks-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const receiver = await startReceiver(() => ({ status: 204 }));
  t.teardown(receiver.close);
  const { store, service } = await serviceOver(join(dir, 'db.json'), 5);
  service.start(1000);
  t.teardown(async () => { await service.stop(); await store.close(); });
  const endpoint = await service.create('acct_a', { url: receiver.url });
  for (let i = 0; i < 60; i++) await service.emit('acct_a', 'processing.completed', { job_id: `job_${i}`, status: 'completed' });
  await waitFor(() => receiver.received.length === 60, '60 deliveries');
  await service.drain();
  const kept = await service.deliveries(endpoint.id);
  t.ok(kept.length <= 50, `kept ${kept.length} of 60`);
  t.ok(kept.length >= 49, 'the most recent ones stay');
});
