import t from 'tap';
import type { AdminDelivery } from '../../../client/admin.js';
import { FakeAdmin } from '../fake-admin.js';
import { KEYS, press, renderApp, waitForFrame, waitForText } from '../helpers.js';

function delivery(webhookId: string, patch: Partial<AdminDelivery>): AdminDelivery {
  return {
    id: `dlv_${patch.event_id ?? 'x'}`,
    webhook_id: webhookId,
    event: 'processing.completed',
    event_id: 'evt_x',
    status: 'delivered',
    attempts: 1,
    last_status_code: 200,
    last_error: null,
    created_at: '2025-03-05T09:00:00.000Z',
    next_attempt_at: null,
    ...patch,
  };
}

t.test("a webhook's failed deliveries show their attempts and why", async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  fake.webhooks.push({
    id: 'whk_aaaaaaaaaaaaaaaa',
    account_id: account.id,
    url: 'https://hooks.example.com/vectorize',
    created_at: '2025-03-01T00:00:00.000Z',
  });
  fake.deliveries.push(
    delivery('whk_aaaaaaaaaaaaaaaa', {
      event_id: 'evt_1',
      event: 'processing.failed',
      status: 'failed',
      attempts: 4,
      last_status_code: 503,
      last_error: 'HTTP 503 Service Unavailable',
    }),
    delivery('whk_aaaaaaaaaaaaaaaa', {
      event_id: 'evt_2',
      event: 'processing.started',
      status: 'pending',
      attempts: 2,
      last_status_code: null,
      last_error: 'connect ETIMEDOUT',
      next_attempt_at: '2025-03-05T09:02:00.000Z',
    }),
    delivery('whk_aaaaaaaaaaaaaaaa', { event_id: 'evt_3' }),
  );
  const app = renderApp(fake, 'webhooks');
  t.teardown(() => app.unmount());
  await waitForText(app, 'hooks.example.com');
  t.match(app.lastFrame(), 'Studio North', 'the owner is named');

  await press(app, KEYS.enter);
  const frame = await waitForText(app, 'processing.failed');
  const line = (text: string) => frame.split('\n').find((row) => row.includes(text)) ?? '';
  t.match(line('processing.failed'), /failed\s+4\s+503\s+HTTP 503 Service Unavailable/, 'failed: 4 attempts, last status and error');
  t.match(
    line('processing.started'),
    /pending\s+2\s+—\s+connect ETIMEDOUT\s+09:02/,
    'pending retry: attempts so far, no HTTP status, next try',
  );
  t.match(line('processing.completed'), /delivered\s+1\s+200/);
  t.match(frame, '3 recent, 1 failed');

  await press(app, 't');
  await waitForText(app, 'Test event sent');
  t.ok(fake.calls.includes('sendTestEvent whk_aaaaaaaaaaaaaaaa'));
  await press(app, KEYS.escape);
  await waitForFrame(app, (f) => !f.includes('Deliveries to'), 'the webhook list');
});

t.test('creating an endpoint shows its signing secret once; delete asks first', async (t) => {
  const fake = new FakeAdmin();
  fake.addAccount('Solo', 'studio');
  const app = renderApp(fake, 'webhooks');
  t.teardown(() => app.unmount());
  await waitForText(app, 'No webhook endpoints');
  await press(app, 'n');
  await waitForText(app, 'Endpoint URL for Solo');
  await press(app, 'https://example.org/hook', KEYS.enter); // a paste arrives as one chunk
  const shown = await waitForText(app, 'Signing secret for https://example.org/hook');
  t.match(shown, 'whsec_SigningSecretSigningSecret');
  await press(app, KEYS.enter);
  const listed = await waitForFrame(app, (f) => f.includes('example.org/hook') && !f.includes('Signing secret'), 'the list');
  t.notOk(listed.includes('whsec_'), 'gone once dismissed');

  await press(app, 'x');
  await waitForText(app, 'Delete the endpoint https://example.org/hook?');
  await press(app, 'y');
  await waitForText(app, 'Deleted https://example.org/hook.');
  t.equal(fake.webhooks.length, 0);
});

t.test('a server without webhook admin routes says so instead of failing', async (t) => {
  const fake = new FakeAdmin();
  fake.webhooksAvailable = false;
  const app = renderApp(fake, 'webhooks');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'Webhooks are not available on this server.');
  t.notMatch(frame, /error/i);
  await press(app, 'n');
  t.notOk(fake.calls.includes('createWebhook'), 'no create on a server without the routes');
  await press(app, '4');
  await waitForText(app, 'The queue is empty.');
});
