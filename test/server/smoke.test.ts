import t from 'tap';
import { harness, settle, statusOf, waitFor } from './helpers.js';

t.test('submit, process, complete, download', async (t) => {
  const h = await harness(t);
  const { secret } = await h.account('pro');
  const res = await h.submit(secret, { retention: '3d' });
  t.equal(res.statusCode, 202, res.payload);
  const job = h.json<{ id: string; status: string; queue_position: number; progress: number }>(res);
  t.equal(job.status, 'queued');
  t.equal(job.queue_position, 1);
  t.equal(job.progress, 0);
  await settle();
  const processing = h.json<{ status: string }>(await h.get(secret, `/v1/jobs/${job.id}`));
  t.equal(processing.status, 'processing');
  h.pool.complete(job.id);
  // Completion checks the result file on disk first, so wait for the move rather than a fixed number of ticks.
  await waitFor(() => statusOf(h, job.id) === 'completed', 'completed');
  const done = h.json<{ status: string; download_url: string; progress: number }>(await h.get(secret, `/v1/jobs/${job.id}`));
  t.equal(done.status, 'completed');
  t.equal(done.progress, 100);
  const dl = await h.get(secret, `/v1/jobs/${job.id}/download`);
  t.equal(dl.statusCode, 200);
  t.match(dl.headers['content-type'], /image\/svg\+xml/);
  t.match(dl.payload, /<svg/);
});
