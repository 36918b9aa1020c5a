import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminClient, FeatureUnavailableError } from '../../client/admin.js';
import { ApiError, UnreachableError } from '../../client/http.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/** A loopback stand-in for the server's admin API: records each request, answers from `routes`. */
async function fakeServer(
  t: { teardown(fn: () => Promise<void>): void },
  routes: Record<string, (seen: Seen) => { status: number; body?: unknown }>,
) {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body };
      seen.push(entry);
      const route = routes[`${entry.method} ${entry.url.split('?')[0]}`];
      const answer = route ? route(entry) : { status: 404, body: { error: { code: 'not_found', message: 'Not Found', details: {} } } };
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { seen, client: new AdminClient({ baseUrl: `http://127.0.0.1:${port}/`, adminToken: 'tok-123' }) };
}

t.test('sends the admin token and unwraps each list', async (t) => {
  const { seen, client } = await fakeServer(t, {
    'GET /admin/v1/accounts': () => ({ status: 200, body: { accounts: [{ id: 'acct_1', name: 'A' }] } }),
    'GET /admin/v1/keys': () => ({ status: 200, body: { keys: [{ id: 'key_1' }] } }),
    'GET /admin/v1/jobs': () => ({ status: 200, body: { jobs: [{ id: 'job_1' }], next_cursor: null } }),
    'GET /admin/v1/reports': () => ({ status: 200, body: { reports: [{ id: 'rpt_1' }] } }),
    'GET /admin/v1/webhooks': () => ({ status: 200, body: { webhooks: [{ id: 'whk_1' }] } }),
    'GET /admin/v1/webhooks/whk_1/deliveries': () => ({ status: 200, body: { deliveries: [{ id: 'dlv_1', attempts: 4 }] } }),
  });
  t.same(
    (await client.listAccounts()).map((a) => a.id),
    ['acct_1'],
  );
  t.same(
    (await client.listKeys({ accountId: 'acct_1' })).map((k) => k.id),
    ['key_1'],
  );
  t.same(
    (await client.listJobs({ status: 'queued' })).map((j) => j.id),
    ['job_1'],
  );
  t.same(
    (await client.listReports()).map((r) => r.id),
    ['rpt_1'],
  );
  t.same(
    (await client.listWebhooks()).map((w) => w.id),
    ['whk_1'],
  );
  t.same(
    (await client.listDeliveries('whk_1')).map((d) => d.attempts),
    [4],
  );
  t.ok(
    seen.every((request) => request.authorization === 'Bearer tok-123'),
    'every call carries the admin token',
  );
  t.match(seen[1].url, '/admin/v1/keys?account_id=acct_1');
  t.match(seen[2].url, /status=queued/);
});

t.test('create and change calls use the server routes and bodies', async (t) => {
  const { seen, client } = await fakeServer(t, {
    'POST /admin/v1/accounts': (s) => ({ status: 201, body: { id: 'acct_2', ...JSON.parse(s.body) } }),
    'PUT /admin/v1/accounts/acct_2/plan': (s) => ({ status: 200, body: { id: 'acct_2', plan: JSON.parse(s.body).plan } }),
    'POST /admin/v1/keys': () => ({
      status: 201,
      body: { id: 'key_2', last4: 'WXYZ', prefix: 'service_sk_live_', secret: 'service_sk_live_abcWXYZ' },
    }),
    'DELETE /admin/v1/keys/key_2': () => ({ status: 204 }),
    'POST /admin/v1/jobs/job_9/cancel': () => ({ status: 200, body: { id: 'job_9', status: 'canceled' } }),
    'POST /admin/v1/webhooks': () => ({ status: 201, body: { id: 'whk_2', url: 'https://x.example/h', secret: 'whsec' } }),
    'DELETE /admin/v1/webhooks/whk_2': () => ({ status: 204 }),
    'POST /admin/v1/webhooks/whk_2/test': () => ({ status: 202, body: { id: 'dlv_9' } }),
  });
  t.equal((await client.createAccount({ name: 'N', plan: 'pro' })).plan, 'pro');
  t.equal((await client.setPlan('acct_2', 'studio')).plan, 'studio');
  const created = await client.createKey({ accountId: 'acct_2', name: 'ci' });
  t.equal(created.secret, 'service_sk_live_abcWXYZ');
  t.notOk('secret' in created.key, 'the secret is kept apart from the key record');
  t.same(JSON.parse(seen[2].body), { account_id: 'acct_2', name: 'ci' });
  await client.revokeKey('key_2');
  t.equal((await client.cancelJob('job_9')).status, 'canceled', 'cancel answers the job as it is afterwards');
  const hook = await client.createWebhook({ accountId: 'acct_2', url: 'https://x.example/h' });
  t.same(hook, { webhook: { id: 'whk_2', url: 'https://x.example/h' }, secret: 'whsec' });
  await client.deleteWebhook('whk_2');
  await client.sendTestEvent('whk_2');
  t.same(
    seen.map((request) => `${request.method} ${request.url}`),
    [
      'POST /admin/v1/accounts',
      'PUT /admin/v1/accounts/acct_2/plan',
      'POST /admin/v1/keys',
      'DELETE /admin/v1/keys/key_2',
      'POST /admin/v1/jobs/job_9/cancel',
      'POST /admin/v1/webhooks',
      'DELETE /admin/v1/webhooks/whk_2',
      'POST /admin/v1/webhooks/whk_2/test',
    ],
  );
});

t.test('a server without webhook routes is told apart from a missing webhook', async (t) => {
  const { client } = await fakeServer(t, {
    'GET /admin/v1/webhooks/whk_1/deliveries': () => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'No such webhook.', details: {} } },
    }),
  });
  await t.rejects(client.listWebhooks(), FeatureUnavailableError, 'no list route: the feature is missing');
  await t.rejects(client.listDeliveries('whk_1'), { code: 'not_found' }, 'a missing endpoint stays not_found');
  await t.rejects(client.setPlan('acct_x', 'pro'), ApiError);
});

t.test('a refused connection is an UnreachableError naming the address', async (t) => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const client = new AdminClient({ baseUrl: `http://127.0.0.1:${port}`, adminToken: 'x' });
  const error = await client.stats().catch((caught: unknown) => caught);
  t.type(error, UnreachableError);
  t.equal((error as UnreachableError).baseUrl, `http://127.0.0.1:${port}`);
});
