import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { signBody } from '../../../server/webhooks/signature.js';
import { openWebhookService } from './fixtures.js';
import { waitFor } from '../helpers.js';

// The receiver in docs/webhooks.md is what integrators copy: run it as written against real deliveries.
async function loadReadmeReceiver() {
  const section = await readFile(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no receiver example');
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'vectorize-readme-')), 'webhook-receiver.mjs');
  await writeFile(file, code);
  return (await import(pathToFileURL(file).href)) as {
    createReceiver(options: { secret: string; onEvent: (e: unknown) => void; maxAgeMs?: number; now?: () => number }): Server;
  };
}

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

t.test('the README receiver accepts signed deliveries once, and refuses forged, stale and replayed ones', async (t) => {
  const { createReceiver } = await loadReadmeReceiver();
  const { service, store } = await openWebhookService(t);
  const handled: unknown[] = [];
  // The secret exists only once the endpoint does; the receiver's address is filled in after.
  const { webhook: endpoint, secret } = await service.create('acct_a', { url: 'http://127.0.0.1:9/' });
  const receiver = createReceiver({
    secret,
    onEvent: (e) => {
      handled.push(e);
    },
  });
  const realUrl = await listen(receiver);
  t.teardown(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  store.webhooks.update(endpoint.id, { url: realUrl });

  service.start(1000);
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => handled.length === 1 && store.deliveries.all()[0]?.state === 'delivered');

  const body = JSON.stringify({
    id: 'evt_0000000000000000',
    event: 'processing.completed',
    created_at: new Date().toISOString(),
    data: { job_id: 'job_2', status: 'completed' },
  });
  const post = (payload: string, signature: string) =>
    fetch(realUrl, { method: 'POST', body: payload, headers: { 'x-service-signature': signature } });
  t.equal((await post(body, signBody(body, 'whsec_forged'))).status, 401, 'a forged signature is refused');
  t.equal((await post(body, signBody(body, secret))).status, 204, 'a fresh signed event is handled');
  t.equal((await post(body, signBody(body, secret))).status, 200, 'its replay is acknowledged but not handled again');
  const stale = JSON.stringify({
    id: 'evt_1111111111111111',
    event: 'processing.completed',
    created_at: new Date(Date.now() - 20 * 60_000).toISOString(),
    data: {},
  });
  t.equal((await post(stale, signBody(stale, secret))).status, 400, 'a stale event is refused');
  t.equal(handled.length, 2);
});
