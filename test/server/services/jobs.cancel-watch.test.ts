/**
 * The cancel watch (server/services/jobs.ts): on a durable queue a DELETE may land on another
 * node, so the node tracing a job watches its row and stops the trace when the row leaves
 * 'processing'. The node's own completion also moves the row: the watch must not take it for a
 * cancel and delete the result it just wrote.
 *
 * The queue here is the embedded one marked durable (what turns the watch on); the upload's
 * removal is slowed past two watch periods, which is when the watch used to fire on the
 * completed row (the scale-out test saw it as a 410 on download, now and then).
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { harness, statusOf, waitFor, type Harness } from '../helpers.js';
import { embeddedQueue, type JobQueue } from '../../../server/adapters/job-queue.js';
import type { Store } from '../../../server/adapters/store.js';

const SLOW_UPLOAD_REMOVAL_MS = 700;

function markedDurable(store: Store): JobQueue {
  const queue = embeddedQueue(store);
  return new Proxy(queue, { get: (target, key) => (key === 'durable' ? true : Reflect.get(target, key, target)) });
}

async function durableHarness(t: Parameters<typeof harness>[0]): Promise<Harness> {
  return harness(t, {
    workers: 1,
    queue: markedDurable,
    blobs: (real) => ({
      ...real,
      async remove(relative) {
        if (relative?.startsWith('uploads')) await new Promise((resolve) => setTimeout(resolve, SLOW_UPLOAD_REMOVAL_MS));
        return real.remove(relative);
      },
    }),
  });
}

async function processing(h: Harness, secret: string): Promise<string> {
  const res = await h.submit(secret);
  if (res.statusCode !== 202) throw new Error(`submit answered ${res.statusCode}: ${res.payload}`);
  const id = h.json<{ id: string }>(res).id;
  await waitFor(() => h.pool.active.includes(id), 'the job handed to the engine');
  return id;
}

t.test('a job this node completes keeps its result while its upload is still being removed', async (t) => {
  const h = await durableHarness(t);
  const { secret } = await h.account('pro');
  const id = await processing(h, secret);
  h.pool.complete(id);
  await waitFor(() => statusOf(h, id) === 'completed', 'the job completed');
  // Past the slow removal and a few watch periods: whatever the watch would do, it has done.
  await new Promise((resolve) => setTimeout(resolve, SLOW_UPLOAD_REMOVAL_MS + 500));
  const resultPath = h.app.context.store.jobs.get(id)!.result_path;
  t.ok(resultPath && existsSync(join(h.dir, resultPath)), 'the result file is there');
  const download = await h.get(secret, `/v1/jobs/${id}/download`);
  t.equal(download.statusCode, 200, 'the result downloads');
  t.match(download.payload, /^<svg /);
});

t.test('a row canceled by another node stops the trace here', async (t) => {
  const h = await durableHarness(t);
  const { secret } = await h.account('pro');
  const id = await processing(h, secret);
  // Another node's DELETE, as this node sees it: the shared row turns canceled.
  h.app.context.store.jobs.update(id, { status: 'canceled', ended_at: new Date().toISOString() });
  await waitFor(() => h.pool.canceled.includes(id), 'the engine told to stop the trace');
  t.notOk(h.pool.active.includes(id), 'the trace is no longer running');
});
