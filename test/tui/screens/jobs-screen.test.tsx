import t from 'tap';
import type { AdminJob } from '../../../client/admin.js';
import { FakeAdmin } from '../fake-admin.js';
import { press, renderApp, waitForFrame, waitForText } from '../helpers.js';

function job(id: string, accountId: string, patch: Partial<AdminJob>): AdminJob {
  return { id, account_id: accountId, status: 'queued', progress: 0, created_at: '2025-03-05T09:00:00.000Z', ...patch };
}

t.test('the live queue shows position, progress and state, and follows the server', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  fake.jobs.push(
    job('job_done000000000000', account.id, { status: 'completed', progress: 100, mode: 'clipart' }),
    job('job_second0000000000', account.id, { queue_position: 2, created_at: '2025-03-05T09:02:00.000Z' }),
    job('job_running000000000', account.id, { status: 'processing', progress: 40, mode: 'photo' }),
    job('job_first00000000000', account.id, { queue_position: 1, created_at: '2025-03-05T09:01:00.000Z' }),
  );
  const app = renderApp(fake, 'jobs');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'job_running');
  const rows = frame.split('\n').filter((line) => line.includes('job_'));
  t.same(
    rows.map((row) => /job_[a-z]+/.exec(row)![0]),
    ['job_running', 'job_first', 'job_second', 'job_done'],
    'running first, then the queue in order, then finished jobs',
  );
  t.match(rows[0], /processing\s+████░░░░░░\s+40%\s+photo/);
  t.match(rows[1], /queued\s+1\s+░░░░░░░░░░\s+0%/);
  t.match(rows[3], /completed\s+██████████ 100%/);
  t.match(frame, '2 queued, 1 processing, 1 completed');

  // The screen polls: progress made on the server shows up without a key press.
  fake.jobs[2].progress = 80;
  const later = await waitForFrame(app, (f) => /processing\s+████████░░\s+80%/.test(f), 'the polled progress');
  t.ok(later);
});

t.test('cancel asks first, then cancels the selected job', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  fake.jobs.push(
    job('job_running000000000', account.id, { status: 'processing', progress: 10 }),
    job('job_done000000000000', account.id, {
      status: 'failed',
      error: { code: 'unreadable_file', message: 'The file could not be decoded.' },
    }),
  );
  const app = renderApp(fake, 'jobs');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'job_running');
  t.match(
    frame.split('\n').find((line) => line.includes('job_done')),
    /failed\s+unreadable_f/,
    'a failed job shows its error code, no progress bar',
  );
  await press(app, 'j', 'c');
  await waitForText(app, 'only queued or processing jobs can be canceled');
  await press(app, 'k', 'c');
  const dialog = await waitForText(app, 'Cancel job_running000000000 (processing) of Studio North?');
  // The rule of DELETE /v1/jobs/{id}, as the README and the page say it.
  t.match(dialog.replace(/\s+/g, ' '), 'A queued job gets its conversion back; a processing job is stopped at once');
  await press(app, 'n');
  await waitForFrame(app, (f) => !f.includes('Cancel job_running'), 'the dialog to close');
  t.equal(fake.jobs[0].status, 'processing');
  await press(app, 'c', 'y');
  await waitForText(app, 'Canceled job_running000000000.');
  t.equal(fake.jobs[0].status, 'canceled');
});

t.test('a job that ends while the cancel dialog is open is reported as it ended, not as canceled', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  fake.jobs.push(job('job_racing0000000000', account.id, { status: 'processing', progress: 90 }));
  const app = renderApp(fake, 'jobs');
  t.teardown(() => app.unmount());
  await waitForText(app, 'job_racing');
  await press(app, 'c');
  await waitForText(app, 'Cancel job_racing0000000000 (processing)');
  fake.jobs[0].status = 'completed';
  fake.jobs[0].progress = 100;
  await press(app, 'y');
  const frame = await waitForText(app, 'job_racing0000000000 had already ended: completed; nothing to cancel.');
  t.notMatch(frame, 'Canceled job_racing', 'no false "Canceled"');
  t.equal(fake.jobs[0].status, 'completed', 'the finished job keeps its result');
});

t.test('f filters by state', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('A', 'pro');
  fake.jobs.push(
    job('job_q000000000000000', account.id, { queue_position: 1 }),
    job('job_p000000000000000', account.id, { status: 'processing' }),
  );
  const app = renderApp(fake, 'jobs');
  t.teardown(() => app.unmount());
  await waitForText(app, 'job_p0');
  await press(app, 'f');
  const frame = await waitForText(app, 'queued jobs · 1 shown');
  t.notMatch(frame, 'job_p0');
  t.ok(fake.calls.includes('listJobs queued'), 'the filter is asked of the server');
});

t.test('at 100 columns each job names its file; the header counts keep up with the list', async (t) => {
  const fake = new FakeAdmin();
  const account = fake.addAccount('Studio North', 'pro');
  fake.jobs.push(job('job_logo000000000000', account.id, { queue_position: 1, file_name: 'logo.png' }));
  const app = renderApp(fake, 'jobs');
  t.teardown(() => app.unmount());
  const frame = await waitForText(app, 'job_logo');
  t.match(
    frame.split('\n').find((line) => line.includes('job_logo')),
    /0%\s+logo\.png/,
  );
  await waitForText(app, '1 queued, 0 running');
  fake.jobs.push(job('job_more000000000000', account.id, { queue_position: 2 }));
  const pushed = Date.now();
  await waitForText(app, '2 queued, 0 running');
  t.ok(Date.now() - pushed < 2000, `the header followed in ${Date.now() - pushed} ms (it polled every 3 s)`);
});
