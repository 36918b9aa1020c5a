import t from 'tap';
import { harness, settle, statusOf, waitFor } from './helpers.js';
import { jsonLogger } from '../../server/log.js';

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

t.test('every request is logged once with the status that went on the wire and a request id', async (t) => {
  const lines: string[] = [];
  const log = jsonLogger('info', { write: (chunk: string) => lines.push(chunk) } as unknown as NodeJS.WritableStream);
  const h = await harness(t, { log });
  const { secret } = await h.account('pro');
  const answers = [
    await h.get(null, '/'),
    await h.get(null, '/healthz'),
    await h.get(null, '/v1/account'),
    await h.get(secret, '/v1/jobs/job_missing'),
  ];
  const logged = lines
    .map((line) => JSON.parse(line) as { msg: string; path: string; status: number; request_id: string })
    .filter((entry) => entry.msg === 'request');
  t.same(
    logged.map((entry) => [entry.path, entry.status]),
    [
      ['/', answers[0].statusCode],
      ['/healthz', 200],
      ['/v1/account', 401],
      ['/v1/jobs/job_missing', 404],
    ],
  );
  t.ok(
    logged.every((entry) => typeof entry.status === 'number'),
    'a number for each, the front page too',
  );
  t.equal(new Set(logged.map((entry) => entry.request_id)).size, 4, 'distinct request ids');
});
