/**
 * The plan picker's notes come from the server (GET /admin/v1/plans), so a VECTORIZE_PLANS_FILE
 * override shows in the TUI: a real server on loopback, the real admin client, the real screen.
 */
import t from 'tap';
import { AdminClient } from '../../client/admin.js';
import { harness, plansFile } from '../server/helpers.js';
import { KEYS, press, renderApp, waitForText } from './helpers.js';
import { FakeAdmin } from './fake-admin.js';
import { planNote } from '../../tui/plans.js';

const ADMIN_TOKEN = 'plans-test-admin-token';

t.test('the picker shows the allowances the server is configured with', async (t) => {
  const file = plansFile({
    pro: { monthlyAllowance: 800 },
    lite: { api: true, monthlyAllowance: 40 },
    enterprise: { monthlyAllowance: 12_000 },
  });
  const h = await harness(t, { env: { PORT: '0', HOST: '127.0.0.1', VECTORIZE_PLANS_FILE: file }, adminToken: ADMIN_TOKEN });
  await h.app.server.start();
  h.app.services.accounts.create('Studio North', 'trial');
  const admin = new AdminClient({ baseUrl: `http://127.0.0.1:${h.app.server.info.port}`, adminToken: ADMIN_TOKEN });

  const app = renderApp(admin, 'accounts');
  t.teardown(() => app.unmount());
  await waitForText(app, 'Studio North');
  await press(app, 'p');
  const frame = await waitForText(app, '800 a month');
  t.match(frame, /pro\s+800 a month, API/, 'the overridden pro allowance, not the default 500');
  t.notMatch(frame, /500 a month/);
  t.match(frame, /lite\s+40 a month, API/, 'lite as configured: metered and allowed the API');
  t.match(frame, /studio\s+2,000 a month, API/, 'a plan the file leaves alone keeps its default');
  t.match(frame, /enterprise\s+12,000 a month, API/);
  t.match(frame, /trial\s+5 conversions once, API until spent/);
  await press(app, KEYS.escape);
});

t.test('defaults read as the plan table says', async (t) => {
  const terms = await new FakeAdmin().listPlans();
  t.equal(planNote('lite', terms), 'not metered monthly, browser/desktop app only, no API');
  t.equal(planNote('pro', terms), '500 a month, API');
  t.equal(planNote('enterprise', terms), 'not metered monthly, API');
});
