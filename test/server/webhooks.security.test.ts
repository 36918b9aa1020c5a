import t from 'tap';
import { AddressPolicy } from '../../server/webhooks/address-policy.js';
import type { Resolver } from '../../server/webhooks/sender.js';
import { openWebhookService, startReceiver } from './webhooks/fixtures.js';
import { waitFor } from './helpers.js';

const PRIVATE_LITERALS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://localhost.:80/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://198.18.0.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[ff02::1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[2002:7f00:1::1]/',
  'http://[2001:db8::1]/',
  'http://[2001:0:4136:e378::1]/',
];

/** Stubbed DNS: names map to answers; anything else fails like NXDOMAIN. */
function stubResolver(table: Record<string, string[] | (() => string[])>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (!entry) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    const addresses = typeof entry === 'function' ? entry() : entry;
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : (4 as 4 | 6) }));
  }) as Resolver & { calls: string[] };
  resolve.calls = calls;
  return resolve;
}

t.test('literal private, loopback, link-local, CGNAT, multicast, reserved and mapped addresses are refused at registration', async (t) => {
  const { service, store } = await openWebhookService(t, { resolve: stubResolver({ 'localhost.': ['127.0.0.1'] }), allow: '' });
  for (const url of PRIVATE_LITERALS) {
    await t.rejects(service.create('acct_a', { url }), { code: 'invalid_parameter', details: { field: 'url' } }, url);
  }
  t.equal(store.webhooks.count(), 0, 'nothing was stored');
});

t.test('non-http schemes and credentials in the URL are refused', async (t) => {
  const { service } = await openWebhookService(t, { resolve: stubResolver({ 'hooks.example.com': ['93.184.216.34'] }), allow: '' });
  for (const url of [
    'file:///etc/passwd',
    'gopher://hooks.example.com/',
    'ftp://hooks.example.com/',
    'http://user:pw@hooks.example.com/',
    'not a url',
  ]) {
    await t.rejects(service.create('acct_a', { url }), { code: 'invalid_parameter' }, url);
  }
  t.ok(await service.create('acct_a', { url: 'https://hooks.example.com/in' }), 'a public name is accepted');
});

t.test('a hostname resolving to a private address is refused, also when only one of its answers is private', async (t) => {
  const resolve = stubResolver({
    'internal.example.com': ['10.1.2.3'],
    'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
    'v6.example.com': ['fd00::5'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
  });
  const { service } = await openWebhookService(t, { resolve, allow: '' });
  for (const host of ['internal.example.com', 'mixed.example.com', 'v6.example.com', 'mapped.example.com']) {
    await t.rejects(service.create('acct_a', { url: `http://${host}/hook` }), { code: 'invalid_parameter' }, host);
  }
});

t.test('a name public at registration and private at delivery is refused at connect time; the receiver is never reached', async (t) => {
  const receiver = await startReceiver(() => ({ status: 200 }));
  t.teardown(receiver.close);
  let answer = '93.184.216.34';
  const resolve = stubResolver({ 'rebind.example.com': () => [answer] });
  const { service, store } = await openWebhookService(t, { resolve, allow: '' });
  service.start(1000);
  const { webhook: endpoint } = await service.create('acct_a', { url: `http://rebind.example.com:${receiver.port}/hook` });
  answer = '127.0.0.1'; // the attacker's DNS now points inside
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => store.deliveries.all()[0]?.state === 'failed');
  t.equal(receiver.received.length, 0, 'nothing reached 127.0.0.1');
  const attempts = service.attempts(endpoint.id);
  t.equal(attempts.length, 4);
  t.ok(
    attempts.every((a) => a.status === null && /loopback/.test(a.error ?? '')),
    'each attempt names the refusal',
  );
});

t.test('a 302 to a private address is not followed', async (t) => {
  const inside = await startReceiver(() => ({ status: 200 }), '127.0.0.2');
  t.teardown(inside.close);
  const outside = await startReceiver(() => ({ status: 302, headers: { location: inside.url } }));
  t.teardown(outside.close);
  // Only the first receiver is admitted; the redirect target is loopback and must stay unreached.
  const { service, store } = await openWebhookService(t, { resolve: stubResolver({}), allow: '127.0.0.1/32' });
  service.start(1000);
  await service.create('acct_a', { url: outside.url });
  await service.emit('acct_a', 'processing.completed', { job_id: 'job_1', status: 'completed' });
  await waitFor(() => store.deliveries.all()[0]?.state === 'failed');
  t.equal(outside.received.length, 4, 'the 3xx counts as a failed attempt and is retried');
  t.equal(inside.received.length, 0, 'the redirect target was never reached');
});

t.test('the allow-list admits only what it names', async (t) => {
  const policy = new AddressPolicy('192.168.10.0/24, fd00:1::/64');
  t.ok(policy.check('192.168.10.7').allowed);
  t.notOk(policy.check('192.168.11.7').allowed);
  t.ok(policy.check('fd00:1::9').allowed);
  t.notOk(policy.check('fd00:2::9').allowed);
  t.throws(() => new AddressPolicy('10.0.0.0/33'), /not a CIDR/);
  t.throws(() => new AddressPolicy('example.com/8'), /not a CIDR/);
});

t.test('a bad VECTORIZE_WEBHOOK_ALLOW_CIDRS stops boot and names the variable', async (t) => {
  const { loadConfig } = await import('../../server/config.js');
  for (const value of ['10.0.0.0/33', '999.1.1.1/8', 'lan', '10.0.0.0/8,fd00::/129']) {
    t.throws(
      () => loadConfig({ VECTORIZE_WEBHOOK_ALLOW_CIDRS: value }),
      { name: 'ConfigError', variable: 'VECTORIZE_WEBHOOK_ALLOW_CIDRS' },
      value,
    );
  }
  t.same(loadConfig({ VECTORIZE_WEBHOOK_ALLOW_CIDRS: '192.168.10.0/24, fd00:1::/64' }).webhookAllowCidrs, [
    '192.168.10.0/24',
    'fd00:1::/64',
  ]);
});
