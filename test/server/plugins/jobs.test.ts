/** docs/api.md, "Jobs and their states": every row of the states table, the fields each state shows, DELETE and listing. */
import t from 'tap';
import { harness, settle, waitFor, statusOf } from '../helpers.js';

type Job = Record<string, unknown> & { id: string; status: string };

t.test('queued → processing → completed: fields appear exactly when they should', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const first = h.json<Job>(await h.submit(secret, { batch_id: 'b-1', retention: '7d' }));
  t.equal(first.status, 'queued');
  t.equal(first.progress, 0);
  t.equal(first.queue_position, 1);
  t.equal(first.batch_id, 'b-1');
  t.equal(first.retention, '7d');
  t.match(first.id, /^job_[0-9A-Za-z]{16,}$/);
  t.match(first.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.equal(first.megapixels, 16e-6);
  for (const absent of ['download_url', 'completed_at', 'expires_at']) t.notOk(absent in first, `${absent} absent while queued`);
  const second = h.json<Job>(await h.submit(secret, {}));
  t.notOk('batch_id' in second, 'no batch_id when none was given');
  const third = h.json<Job>(await h.submit(secret, {}));

  await waitFor(() => statusOf(h, first.id) === 'processing');
  const processing = h.json<Job>(await h.get(secret, `/v1/jobs/${first.id}`));
  t.equal(processing.status, 'processing');
  t.notOk('queue_position' in processing);
  t.notOk('download_url' in processing);
  const waiting = h.json<Job>(await h.get(secret, `/v1/jobs/${second.id}`));
  t.equal(waiting.queue_position, 1, 'the next job to start is at 1');
  t.equal(h.json<Job>(await h.get(secret, `/v1/jobs/${third.id}`)).queue_position, 2, 'real position behind it');

  h.pool.progress(first.id, 0.999);
  const capped = h.json<Job>(await h.get(secret, `/v1/jobs/${first.id}`));
  t.equal(capped.progress, 95, 'capped at 95 until the result file exists');
  h.pool.progress(first.id, 0.5);
  t.equal(h.json<Job>(await h.get(secret, `/v1/jobs/${first.id}`)).progress, 95, 'never goes backwards');

  h.pool.complete(first.id);
  await waitFor(() => statusOf(h, first.id) === 'completed');
  const done = h.json<Job>(await h.get(secret, `/v1/jobs/${first.id}`));
  t.equal(done.status, 'completed');
  t.equal(done.progress, 100);
  t.equal(done.mode, 'clipart');
  t.match(done.download_url, new RegExp(`^http://[^/]+/v1/jobs/${first.id}/download$`), 'download_url form');
  const completedAt = new Date(String(done.completed_at)).getTime();
  t.equal(new Date(String(done.expires_at)).getTime() - completedAt, 7 * 24 * 3600_000, 'expires_at = completed_at + retention');
  await waitFor(() => statusOf(h, second.id) === 'processing', 'the next job starts when a worker frees');
});

t.test('processing → failed carries the error; the conversion is refunded', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('trial');
  const job = h.json<Job>(await h.submit(secret));
  await waitFor(() => statusOf(h, job.id) === 'processing');
  h.pool.fail(job.id, 'unreadable_file');
  await waitFor(() => statusOf(h, job.id) === 'failed');
  const failed = h.json<Job>(await h.get(secret, `/v1/jobs/${job.id}`));
  t.equal(failed.status, 'failed');
  t.same(failed.error, { code: 'unreadable_file', message: 'engine failed' });
  t.notOk('download_url' in failed);
  // The refund takes the account's admission lock (a transaction on PostgreSQL), just after the failure.
  const trialUsed = async () =>
    h.json<{ allowances: { trial: { used: number } } }>(await h.get(secret, '/v1/account')).allowances.trial.used;
  await waitFor(async () => (await trialUsed()) === 0, 'the conversion to be refunded');
  t.equal(await trialUsed(), 0);
});

t.test('DELETE: queued/processing → canceled (200, worker stopped); end state → deleted (204, then 404)', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const running = h.json<Job>(await h.submit(secret));
  const queued = h.json<Job>(await h.submit(secret));
  await waitFor(() => statusOf(h, running.id) === 'processing');
  t.equal(h.pool.active[0], running.id);

  const cancelQueued = await h.del(secret, `/v1/jobs/${queued.id}`);
  t.equal(cancelQueued.statusCode, 200);
  t.equal(h.json<Job>(cancelQueued).status, 'canceled');

  const cancelRunning = await h.del(secret, `/v1/jobs/${running.id}`);
  t.equal(cancelRunning.statusCode, 200);
  t.equal(h.json<Job>(cancelRunning).status, 'canceled');
  t.same(h.pool.canceled, [running.id], 'the worker of the processing job was stopped');
  await settle();
  t.equal(h.pool.started.includes(queued.id), false, 'a canceled queued job never starts');

  const gone = await h.del(secret, `/v1/jobs/${running.id}`);
  t.equal(gone.statusCode, 204);
  t.equal((await h.get(secret, `/v1/jobs/${running.id}`)).statusCode, 404);
  t.equal((await h.del(secret, `/v1/jobs/${running.id}`)).statusCode, 404);
});

t.test('deleting a completed job removes its result file', async (t) => {
  const h = await harness(t, { autoComplete: true });
  const { secret } = await h.account('pro');
  const job = h.json<Job>(await h.submit(secret));
  await waitFor(() => statusOf(h, job.id) === 'completed');
  t.ok(await h.app.context.blobs.exists(`results/${job.id}.svg`));
  t.equal((await h.del(secret, `/v1/jobs/${job.id}`)).statusCode, 204);
  t.notOk(await h.app.context.blobs.exists(`results/${job.id}.svg`));
});

t.test('events: started, completed, failed, canceled are announced with the job', async (t) => {
  const h = await harness(t, { workers: 3 });
  const seen: string[] = [];
  for (const name of ['job.started', 'job.completed', 'job.failed', 'job.canceled'] as const) {
    h.app.context.events.on(name, (event) => seen.push(`${event.name}:${event.job.status}`));
  }
  const { secret } = await h.account('pro');
  const a = h.json<Job>(await h.submit(secret));
  const b = h.json<Job>(await h.submit(secret));
  const c = h.json<Job>(await h.submit(secret));
  await waitFor(() => h.pool.active.length === 3);
  h.pool.complete(a.id);
  h.pool.fail(b.id);
  await h.del(secret, `/v1/jobs/${c.id}`);
  await waitFor(() => seen.length === 6);
  t.same(
    seen.sort(),
    [
      'job.canceled:canceled',
      'job.completed:completed',
      'job.failed:failed',
      'job.started:processing',
      'job.started:processing',
      'job.started:processing',
    ].sort(),
  );
});

t.test('GET /v1/jobs: newest first, cursor pages, batch_id and status filters', async (t) => {
  const h = await harness(t, { workers: 1 });
  const { secret } = await h.account('pro');
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push(h.json<Job>(await h.submit(secret, i < 2 ? { batch_id: 'alpha' } : {})).id);
  const page1 = h.json<{ jobs: Job[]; next_cursor: string }>(await h.get(secret, '/v1/jobs?limit=2'));
  t.same(
    page1.jobs.map((j) => j.id),
    [ids[4], ids[3]],
  );
  t.type(page1.next_cursor, 'string');
  const page2 = h.json<{ jobs: Job[]; next_cursor: string }>(await h.get(secret, `/v1/jobs?limit=2&cursor=${page1.next_cursor}`));
  t.same(
    page2.jobs.map((j) => j.id),
    [ids[2], ids[1]],
  );
  const page3 = h.json<{ jobs: Job[]; next_cursor: string | null }>(await h.get(secret, `/v1/jobs?limit=2&cursor=${page2.next_cursor}`));
  t.same(
    page3.jobs.map((j) => j.id),
    [ids[0]],
  );
  t.equal(page3.next_cursor, null);
  const alpha = h.json<{ jobs: Job[] }>(await h.get(secret, '/v1/jobs?batch_id=alpha'));
  t.same(
    alpha.jobs.map((j) => j.id),
    [ids[1], ids[0]],
  );
  await waitFor(() => statusOf(h, ids[0]) === 'processing');
  const processing = h.json<{ jobs: Job[] }>(await h.get(secret, '/v1/jobs?status=processing'));
  t.same(
    processing.jobs.map((j) => j.id),
    [ids[0]],
  );
  const bad = await h.get(secret, '/v1/jobs?status=done');
  t.equal(bad.statusCode, 400);
  t.equal(h.json<{ error: { code: string; details: { field: string } } }>(bad).error.details.field, 'status');
  t.equal((await h.get(secret, '/v1/jobs?limit=0')).statusCode, 400);
  t.equal((await h.get(secret, '/v1/jobs?limit=101')).statusCode, 400);
  t.equal((await h.get(secret, '/v1/jobs?cursor=bogus')).statusCode, 400);
});

t.test('download: attachment, image/svg+xml, filename from the upload', async (t) => {
  const h = await harness(t, { autoComplete: true });
  const { secret } = await h.account('pro');
  const job = h.json<Job>(await h.submit(secret, {}, { filename: 'Logo Final.png' }));
  await waitFor(() => statusOf(h, job.id) === 'completed');
  const res = await h.get(secret, `/v1/jobs/${job.id}/download`);
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^image\/svg\+xml/);
  t.match(res.headers['content-disposition'], /^attachment; filename="Logo Final\.svg"; filename\*=UTF-8''Logo%20Final\.svg$/);
  t.match(res.payload, /^<svg/);
  t.equal((await h.get(secret, `/v1/jobs/${job.id}/download`)).statusCode, 200, 'a 24h result downloads again');
});

t.test('restart: queued and processing jobs are re-queued; too many attempts fail', async (t) => {
  const h = await harness(t, { workers: 1, env: { VECTORIZE_MAX_ATTEMPTS: '2' } });
  const { secret } = await h.account('pro');
  const a = h.json<Job>(await h.submit(secret));
  const b = h.json<Job>(await h.submit(secret));
  await waitFor(() => statusOf(h, a.id) === 'processing');
  const store = h.app.context.store;
  h.app.services.jobs.stop();
  // What a crashed process leaves: a job still marked processing, here on its last attempt.
  store.jobs.update(a.id, { status: 'processing', attempts: 2 });
  const { createApp } = await import('../../../server/app.js');
  const again = await createApp({
    ...h.app.context,
    prober: {
      probe: async () => {
        throw new Error('unused');
      },
    },
  });
  const result = again.services.jobs.recover();
  t.same(result, { requeued: 1, failed: 1 });
  t.equal(store.jobs.get(a.id)!.status, 'failed');
  t.match(store.jobs.get(a.id)!.error, { code: 'internal_error' });
  await waitFor(() => store.jobs.get(b.id)!.status === 'processing');
  again.services.jobs.stop();
});

t.test('the 202 carries Location: the URL of the job to poll, a replay too', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const accepted = await h.submit(secret, {}, undefined, { 'idempotency-key': 'location-check' });
  t.equal(accepted.statusCode, 202);
  const job = h.json<{ id: string }>(accepted);
  const location = String(accepted.headers.location);
  t.match(location, new RegExp(`^http://[^/]+/v1/jobs/${job.id}$`));
  const polled = await h.get(secret, new URL(location).pathname);
  t.equal(polled.statusCode, 200);
  t.equal(h.json<{ id: string }>(polled).id, job.id);
  const replay = await h.submit(secret, {}, undefined, { 'idempotency-key': 'location-check' });
  t.equal(replay.headers.location, location);
});
