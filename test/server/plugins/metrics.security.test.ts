/**
 * Who may read /metrics: the admin rule (loopback + admin token), or VECTORIZE_METRICS_TOKEN from
 * any address; an API key never, and a bad token variable stops the boot without echoing it.
 */
import t from 'tap';
import { errorOf, harness, type Harness } from '../helpers.js';
import { ConfigError, loadConfig } from '../../../server/config.js';

const ADMIN = 'admin-token-for-the-metrics-test';
const METRICS = 'scraper-token-0123456789abcdef';

function scrape(h: Harness, token: string | null, remoteAddress = '127.0.0.1') {
  return h.app.server.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

t.test('without VECTORIZE_METRICS_TOKEN: the admin rule', async (t) => {
  const h = await harness(t, { adminToken: ADMIN });
  t.equal((await scrape(h, ADMIN)).statusCode, 200, 'admin token on loopback');
  const bare = await scrape(h, null);
  t.equal(bare.statusCode, 401);
  t.equal(errorOf(bare).code, 'unauthorized', "the contract's error body");
  t.equal((await scrape(h, ADMIN, '192.0.2.10')).statusCode, 403, 'the admin token off loopback');
  t.equal(errorOf(await scrape(h, ADMIN, '192.0.2.10')).code, 'forbidden');
  const { secret } = await h.account('pro');
  t.equal((await scrape(h, secret)).statusCode, 401, 'an API key is not an admin token');
  t.equal((await scrape(h, METRICS)).statusCode, 401, 'a metrics token that was never configured');
});

t.test('no admin token and no metrics token: nobody', async (t) => {
  const h = await harness(t);
  t.equal((await scrape(h, null)).statusCode, 401);
  t.equal((await scrape(h, '')).statusCode, 401);
});

t.test('with VECTORIZE_METRICS_TOKEN: that token from anywhere, the admin rule as before', async (t) => {
  const h = await harness(t, { adminToken: ADMIN, env: { VECTORIZE_METRICS_TOKEN: METRICS } });
  const remote = await scrape(h, METRICS, '192.0.2.10');
  t.equal(remote.statusCode, 200, 'a scraper on another machine');
  t.match(remote.payload, /^# HELP vectorize_/);
  t.equal((await scrape(h, ADMIN)).statusCode, 200, 'the admin rule still opens it');
  t.equal((await scrape(h, `${METRICS}x`, '192.0.2.10')).statusCode, 403, 'a wrong token off loopback falls to the admin rule');
  t.equal((await scrape(h, METRICS.slice(0, -1))).statusCode, 401, 'a prefix of the token');
  t.equal((await scrape(h, ADMIN, '192.0.2.10')).statusCode, 403, 'the admin token stays loopback-only');
});

t.test('a bad VECTORIZE_METRICS_TOKEN stops the boot and is not repeated in the error', async (t) => {
  for (const bad of ['short-token', 'has spaces in it 0123456789', 'x'.repeat(257)]) {
    let error: unknown;
    try {
      loadConfig({ VECTORIZE_METRICS_TOKEN: bad });
    } catch (caught) {
      error = caught;
    }
    t.type(error, ConfigError);
    t.equal((error as ConfigError).variable, 'VECTORIZE_METRICS_TOKEN');
    t.match((error as ConfigError).message, /16–256 visible ASCII/);
    t.notOk((error as ConfigError).message.includes(bad), 'the value is not echoed');
  }
  t.equal(loadConfig({ VECTORIZE_METRICS_TOKEN: METRICS }).metricsToken, METRICS);
  t.equal(loadConfig({}).metricsToken, null);
});
