/**
 * The job watchdog (server/services/jobs.ts): a job processing longer than
 * max(VECTORIZE_JOB_TIMEOUT_MIN_MS, VECTORIZE_JOB_TIMEOUT_FACTOR × estimate) is failed with a
 * reason, announced as job.failed, its worker is told to stop, and the next queued job starts.
 *
 * The watchdog is a wall-clock timer (setTimeout), not the injected clock, so these tests use the
 * smallest timeouts the config accepts (1 s) instead of the manual clock. Nothing here asserts
 * speed: it only waits for the move to happen.
 */
import t from 'tap';
import { harness, settle, statusOf, waitFor, type Harness } from '../helpers.js';
import type { JobEvent } from '../../../server/events.js';

async function submitted(h: Harness, secret: string): Promise<string> {
  const res = await h.submit(secret);
  if (res.statusCode !== 202) throw new Error(`submit answered ${res.statusCode}: ${res.payload}`);
  return h.json<{ id: string }>(res).id;
}

/** Conversions charged to the account, from its trial first, then its month. */
function spent(h: Harness, accountId: string): number {
  const account = h.app.services.accounts.get(accountId);
  return account.trial_used + account.period_used;
}

function watchFailures(h: Harness): JobEvent[] {
  const failed: JobEvent[] = [];
  h.app.context.events.on('job.failed', (event) => failed.push(event));
  return failed;
}

t.test('the minimum timeout applies when the estimate is small', async (t) => {
  const h = await harness(t, { workers: 1, env: { VECTORIZE_JOB_TIMEOUT_MIN_MS: '1000', VECTORIZE_JOB_TIMEOUT_FACTOR: '1' } });
  const failed = watchFailures(h);
  // The order of starts and failures, not the time between them: the second submission may take
  // longer than the 1 s timeout on a loaded machine (on PostgreSQL it is a transaction and a
  // flush), so whether the second job is still queued when it is answered is not this test's point.
  const order: string[] = [];
  h.app.context.events.on('job.started', (event) => order.push(`started ${event.job.id}`));
  h.app.context.events.on('job.failed', (event) => order.push(`failed ${event.job.id}`));
  const { id: accountId, secret } = await h.account('pro');
  const stuck = await submitted(h, secret);
  const next = await submitted(h, secret);
  for (const id of [stuck, next]) t.not(h.app.context.store.jobs.get(id)!.charged, 'none', 'each submission was charged');
  const estimate = h.app.context.store.jobs.get(stuck)!.estimate_ms;
  t.ok(estimate > 0 && estimate < 1000, `the estimate (${estimate} ms) is below the minimum, so the minimum rules`);

  // The fake engine never finishes this job: only the watchdog can end it.
  await waitFor(() => statusOf(h, stuck) === 'failed', 'the watchdog to fail the job');
  const record = h.app.context.store.jobs.get(stuck)!;
  t.equal(record.error?.code, 'internal_error');
  t.match(record.error?.message, /longer than 1 s and was stopped/, 'the reason names the timeout');
  t.ok(record.ended_at, 'the job has an end time');
  t.equal(record.upload_path, null, 'the upload is let go');

  t.ok(h.pool.canceled.includes(stuck), 'the worker was told to stop');
  t.notOk(h.pool.active.includes(stuck));

  t.equal(failed.length, 1, 'one job.failed event');
  t.equal(failed[0]!.job.id, stuck);
  t.equal(failed[0]!.job.status, 'failed');
  t.same(failed[0]!.job.error, record.error);

  // The refund takes the account's admission lock (a transaction on PostgreSQL): it follows the failure.
  await waitFor(() => spent(h, accountId) === 1, 'the conversion to be given back');
  await waitFor(() => statusOf(h, next) === 'processing', 'the freed worker to take the next job');
  t.same(
    order,
    [`started ${stuck}`, `failed ${stuck}`, `started ${next}`],
    'one worker: the second job started only once the first was stopped',
  );

  const view = h.json<{ status: string; progress: number; error: { code: string; message: string } }>(
    await h.get(secret, `/v1/jobs/${stuck}`),
  );
  t.equal(view.status, 'failed');
  t.equal(view.error.code, 'internal_error');
  t.match(view.error.message, /was stopped/);

  h.pool.complete(next);
  await waitFor(() => statusOf(h, next) === 'completed', 'the next job to complete');
  t.equal(statusOf(h, next), 'completed', "the next job is not hit by the first one's watchdog");
  t.equal(failed.length, 1);
});

t.test('the factor × estimate applies when it exceeds the minimum', async (t) => {
  // estimate ≈ 300 ms for a 4×4 image, × 8 ≈ 2.4 s > the 1 s minimum.
  const h = await harness(t, { workers: 1, env: { VECTORIZE_JOB_TIMEOUT_MIN_MS: '1000', VECTORIZE_JOB_TIMEOUT_FACTOR: '8' } });
  const failed = watchFailures(h);
  const { secret } = await h.account('pro');
  const submittedAt = Date.now();
  const stuck = await submitted(h, secret);
  await settle();
  const estimate = h.app.context.store.jobs.get(stuck)!.estimate_ms;
  const timeout = Math.max(1000, 8 * estimate);
  t.ok(timeout > 1000, `factor × estimate (${timeout} ms) is above the minimum`);

  await waitFor(() => statusOf(h, stuck) === 'failed', 'the watchdog to fail the job');
  const record = h.app.context.store.jobs.get(stuck)!;
  // A lower bound only (the job started after submittedAt): it fails if the watchdog fires at the
  // minimum instead of the factor timeout, never because the machine is slow.
  t.ok(Date.now() - submittedAt >= timeout - 20, 'not failed at the minimum: the longer factor timeout ruled');
  t.match(record.error?.message, new RegExp(`longer than ${Math.round(timeout / 1000)} s and was stopped`));
  t.same(h.pool.canceled, [stuck], 'the worker was told to stop');
  t.equal(failed.length, 1);
  t.equal(failed[0]!.job.id, stuck);
});

t.test('a job that finishes in time is not touched by its watchdog', async (t) => {
  const h = await harness(t, { workers: 1, env: { VECTORIZE_JOB_TIMEOUT_MIN_MS: '1000', VECTORIZE_JOB_TIMEOUT_FACTOR: '1' } });
  const failed = watchFailures(h);
  const { secret } = await h.account('pro');
  const id = await submitted(h, secret);
  await settle();
  h.pool.complete(id);
  await waitFor(() => statusOf(h, id) === 'completed', 'the job to complete');
  // Past the timeout: a stale timer would fail or cancel the finished job.
  await new Promise((resolve) => setTimeout(resolve, 1300));
  t.equal(statusOf(h, id), 'completed');
  t.same(h.pool.canceled, []);
  t.equal(failed.length, 0);
});
