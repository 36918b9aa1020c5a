/**
 * Files left behind by a crash: an upload moved into uploads/ whose record never reached db.json,
 * a result whose job was expired or pruned before the file went. The sweeper removes what no
 * record owns once it is older than the grace period, and never a file a live job still needs.
 */
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { harness, statusOf, waitFor } from '../helpers.js';
import { ABANDONED_FILE_GRACE_MS } from '../../../server/services/retention.js';

type Job = { id: string };

t.test('uploads and results no record owns are removed after the grace period, owned ones stay', async (t) => {
  const h = await harness(t);
  // File mtimes are real time: the fake clock starts at the real now and is set by hand.
  h.clock.set(new Date());
  const { secret } = await h.account('pro');
  const blobs = h.app.context.blobs;
  const store = h.app.context.store;

  // Two run on the fake pool's two workers, the third waits in the queue.
  for (let i = 0; i < 3; i++) h.json<Job>(await h.submit(secret, {}));
  await waitFor(() => h.pool.active.length === 2, 'two jobs to start');
  // The crash: an upload went through the real submit path, then its record was lost.
  const lost = h.json<Job>(await h.submit(secret, {}));
  await waitFor(() => blobs.exists(`uploads/${lost.id}`), 'the lost upload on disk');
  store.jobs.delete(lost.id);
  // A result that outlived its record, and a worker's partial write of a job nobody knows.
  writeFileSync(blobs.absolute('results/job_pruned.svg'), '<svg/>');
  writeFileSync(blobs.absolute('results/job_pruned.json'), '{}');
  writeFileSync(blobs.absolute('results/job_gone.svg.partial'), '<svg');

  const [first] = h.pool.active;
  h.pool.complete(first);
  await waitFor(() => statusOf(h, first) === 'completed', 'a completed job');
  // A running job's worker writes its partial result before the record names it.
  const stillRunning = h.pool.active[0];
  writeFileSync(blobs.absolute(`results/${stillRunning}.svg.partial`), '<svg');

  const young = await h.app.services.retention.sweep();
  t.equal(young.unowned, 0, 'inside the grace period nothing is removed');
  t.ok(await blobs.exists(`uploads/${lost.id}`));

  // Past the grace for every file written so far, however long the steps above took on a busy box.
  h.clock.set(new Date(Date.now() + ABANDONED_FILE_GRACE_MS + 1000));
  const swept = await h.app.services.retention.sweep();
  t.equal(swept.unowned, 4, 'the lost upload, the pruned result and its geometry, and the stray partial');
  t.notOk(await blobs.exists(`uploads/${lost.id}`));
  t.notOk(await blobs.exists('results/job_pruned.svg'));
  t.notOk(await blobs.exists('results/job_pruned.json'));
  t.notOk(await blobs.exists('results/job_gone.svg.partial'));

  t.same(
    store.jobs
      .all()
      .map((job) => job.status)
      .sort(),
    ['completed', 'processing', 'processing'],
  );
  for (const record of store.jobs.all()) {
    if (record.upload_path) t.ok(await blobs.exists(record.upload_path), `a ${record.status} job keeps its upload`);
    if (record.result_path) t.ok(await blobs.exists(record.result_path), `a ${record.status} job keeps its result`);
    if (record.document_path) t.ok(await blobs.exists(record.document_path), `a ${record.status} job keeps its geometry`);
  }
  t.ok(await blobs.exists(`results/${stillRunning}.svg.partial`), 'a running job keeps its partial result');
  t.equal((await blobs.listStored()).length, 5, '2 uploads of running jobs, 1 result with its geometry, 1 partial');
});
