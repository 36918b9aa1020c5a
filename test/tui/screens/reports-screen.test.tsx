import t from 'tap';
import { FakeAdmin } from '../fake-admin.js';
import { KEYS, press, renderApp, waitForFrame, waitForText } from '../helpers.js';

t.test('reports list newest first and open to their full message', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  fake.reports.push(
    {
      id: 'rpt_old0000000000000',
      job_id: 'job_a',
      account_id: account.id,
      reason: 'quality',
      message: 'Edges are jagged.',
      created_at: '2025-03-01T08:00:00.000Z',
    },
    {
      id: 'rpt_new0000000000000',
      job_id: 'job_b',
      account_id: account.id,
      reason: 'wrong_type',
      message: `The logo was traced as a photo. ${'Lots of detail here. '.repeat(10)}END-OF-MESSAGE`,
      created_at: '2025-03-04T08:00:00.000Z',
    },
  );
  const app = renderApp(fake, 'reports');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'wrong_type');
  const rows = frame.split('\n').filter((line) => line.includes('2025-03-0'));
  t.match(rows[0], /2025-03-04 08:00\s+Studio North\s+wrong_type\s+The logo/);
  t.match(rows[1], 'quality');
  t.notMatch(frame, 'END-OF-MESSAGE', 'the list cuts long messages');
  await press(app, KEYS.enter);
  const open = await waitForText(app, 'END-OF-MESSAGE');
  t.match(open, 'Job     job_b');
  await press(app, KEYS.escape);
  await waitForFrame(app, (f) => !f.includes('END-OF-MESSAGE'), 'the list');
});

t.test('r refreshes the reports at once, and the footer says so', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  const app = renderApp(fake, 'reports');
  t.teardown(() => app.unmount());
  const empty = await waitForText(app, 'No reports');
  t.match(empty, /r refresh/);
  t.match(empty, /live, every 5 s/);
  fake.reports.push({
    id: 'rpt_fresh00000000000',
    job_id: 'job_c',
    account_id: account.id,
    reason: 'artifacts',
    message: 'Specks.',
    created_at: '2025-03-05T08:00:00.000Z',
  });
  const pressed = Date.now();
  await press(app, 'r');
  await waitForText(app, 'artifacts');
  t.ok(Date.now() - pressed < 1500, 'without waiting for the next poll');
});
