import t from 'tap';
import pg from 'pg';
import { openPostgresStore, type PostgresStore } from '../../../server/adapters/postgres-store.js';
import { openPgBossQueue, type PgBossQueue } from '../../../server/adapters/pg-boss-queue.js';
import type { RunEnd } from '../../../server/adapters/job-queue.js';
import type { JobRecord } from '../../../server/adapters/store.js';
import { silentLogger } from '../../../server/log.js';
import { postgresMissing, testPostgres } from '../postgres.js';
import { until, waitFor } from '../helpers.js';

const missing = postgresMissing();
if (missing) t.comment(`pg-boss queue tests skipped: ${missing}`);

interface Node {
  store: PostgresStore;
  queue: PgBossQueue;
}

async function node(t: { teardown(fn: () => unknown): void }, url: string, staleMs = 20_000): Promise<Node> {
  const store = await openPostgresStore(url, { writeDelayMs: 1 });
  const queue = await openPgBossQueue({ url, store, maxAttempts: 3, log: silentLogger, heartbeatMs: 200, staleMs, pollSeconds: 0.5 });
  t.teardown(async () => {
    await queue.stop();
    await store.close();
  });
  return { store, queue };
}

function queuedJob(id: string, seq: number): JobRecord {
  return {
    id,
    seq,
    account_id: 'acct_1',
    status: 'queued',
    created_at: new Date().toISOString(),
    started_at: null,
    completed_at: null,
    expires_at: null,
    ended_at: null,
    retention: '24h',
    requested_retention: '24h',
    megapixels: 0.01,
    width: 10,
    height: 10,
    format: 'png',
    mode: null,
    options: {} as JobRecord['options'],
    file_name: 'a.png',
    upload_path: `uploads/${id}`,
    result_path: null,
    result_bytes: null,
    batch_id: null,
    folder_id: null,
    attempts: 0,
    error: null,
    charged: 'trial',
    charged_period: null,
    estimate_ms: 100,
    downloaded_at: null,
    source: 'api',
  };
}

/** Admits a job the way a submission does: row and queue entry in one exclusive() transaction. */
async function admit(n: Node, id: string, refuse = false): Promise<void> {
  await n.store.exclusive('acct_1', async (tx) => {
    const seq = await n.queue.nextSeq(tx);
    n.store.jobs.insert(queuedJob(id, seq));
    await n.queue.admit(id, tx);
    if (refuse) {
      n.store.jobs.delete(id);
      throw new Error('refused after the entry was written');
    }
  });
}

t.test(
  'entries commit with the admission, go out in admission order, and a refused admission leaves none',
  { skip: missing ?? false },
  async (t) => {
    const url = await testPostgres().database();
    const api = await node(t, url);
    const worker = await node(t, url);
    await admit(api, 'job_a');
    await t.rejects(admit(api, 'job_refused', true));
    await admit(api, 'job_b');
    await admit(api, 'job_c');
    await api.store.flush();
    t.equal(api.queue.position('job_a'), 1);
    t.equal(api.queue.position('job_c'), 3);
    t.equal(api.queue.length, 3);

    const seen: string[] = [];
    await worker.queue.consume(1, async (jobId) => {
      seen.push(jobId);
      worker.store.jobs.update(jobId, { status: 'completed' });
      return 'ended';
    });
    await waitFor(() => seen.length === 3, 'three jobs handed out');
    // Give a fourth hand-out (the refused job's entry, were there one) the time to show.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.same(seen, ['job_a', 'job_b', 'job_c']);
    const seqs = seen.map((id) => worker.store.jobs.get(id)!.seq);
    t.same(
      seqs,
      [...seqs].sort((a, b) => a - b),
      'acceptance numbers rise with admission order',
    );
  },
);

t.test('a run that ends interrupted is handed to another node; one that ends is not', { skip: missing ?? false }, async (t) => {
  const url = await testPostgres().database();
  const first = await node(t, url);
  const second = await node(t, url);
  await admit(first, 'job_x');
  const runs: Array<{ by: string; jobId: string }> = [];
  const handler = (by: string, end: RunEnd) => async (jobId: string) => {
    runs.push({ by, jobId });
    return end;
  };
  await first.queue.consume(1, handler('first', 'interrupted'));
  await waitFor(() => runs.length >= 1, 'the first node takes the job');
  await first.queue.stop();
  await second.queue.consume(1, handler('second', 'ended'));
  await waitFor(() => runs.some((run) => run.by === 'second'), 'the second node takes it again');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.same(
    runs.filter((run) => run.by === 'second'),
    [{ by: 'second', jobId: 'job_x' }],
  );
});

t.test('a claim whose node went silent is handed out again', { skip: missing ?? false }, async (t) => {
  const url = await testPostgres().database();
  const watcher = await node(t, url, 1000);
  await admit(watcher, 'job_lost');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  t.teardown(() => db.end());
  // A node that took the entry and died: the entry is active, its claim names a node last seen long ago.
  const { rows } = await db.query<{ id: string }>(
    "UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = 'vectorize-trace' RETURNING id",
  );
  await db.query("INSERT INTO queue_workers (id, seen_at) VALUES ('dead-node', now() - interval '1 hour')");
  await db.query("INSERT INTO queue_claims (queue_job_id, job_id, worker) VALUES ($1, 'job_lost', 'dead-node')", [rows[0]!.id]);
  const seen: string[] = [];
  await watcher.queue.consume(1, async (jobId) => {
    seen.push(jobId);
    return 'ended';
  });
  await waitFor(() => seen.length === 1, 'the lost job is handed out again');
  t.same(seen, ['job_lost']);
});

t.test('a lease is held by one node at a time and passes on when its node stops', { skip: missing ?? false }, async (t) => {
  const url = await testPostgres().database();
  const first = await node(t, url);
  const second = await node(t, url);
  const LEASE = 424_242;
  t.equal(await first.queue.holdsLease(LEASE), true, 'the first node to ask takes it');
  t.equal(await first.queue.holdsLease(LEASE), true, 'and keeps it');
  t.equal(await second.queue.holdsLease(LEASE), false, 'the other node does not get it');
  await first.queue.stop();
  await waitFor(() => second.queue.holdsLease(LEASE), 'the lease passed on');
  t.pass('the second node holds the lease once the first stopped');
});

t.test(
  "the waiting count is the queue's own, cluster-wide: a dead worker's job waits again, a canceled job's entry is no work",
  { skip: missing ?? false },
  async (t) => {
    const url = await testPostgres().database();
    const api = await node(t, url);
    // Another node that admitted nothing and traces nothing (no consume): it reads the same count.
    const watcher = await node(t, url, 1000);
    for (const id of ['job_a', 'job_b', 'job_c']) await admit(api, id);
    t.equal(await watcher.queue.waiting(), 3, 'what another node admitted');

    api.store.jobs.update('job_b', { status: 'canceled' });
    await api.store.flush();
    t.equal(await watcher.queue.waiting(), 2, "a canceled job's entry is not counted");

    // A worker took job_a and died: the entry is active, the row processing, the claim names a silent node.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    t.teardown(() => db.end());
    const { rows } = await db.query<{ id: string }>(
      "UPDATE pgboss.job SET state = 'active', started_on = now() " +
        "WHERE name = 'vectorize-trace' AND data->>'job_id' = 'job_a' RETURNING id",
    );
    api.store.jobs.update('job_a', { status: 'processing', started_at: new Date().toISOString() });
    await api.store.flush();
    await db.query("INSERT INTO queue_workers (id, seen_at) VALUES ('dead-node', now() - interval '1 hour')");
    await db.query("INSERT INTO queue_claims (queue_job_id, job_id, worker) VALUES ($1, 'job_a', 'dead-node')", [rows[0]!.id]);
    t.equal(await watcher.queue.waiting(), 1, 'a job being traced is not waiting');
    // The watcher's heartbeat hands the silent node's entry out again; no worker runs to take it.
    await waitFor(async () => (await watcher.queue.waiting()) === 2, "the dead worker's job waiting again");
    await waitFor(() => watcher.store.jobs.get('job_a')?.status === 'processing', 'the row as the change feed brings it');
    t.equal(watcher.queue.length, 1, 'the records alone still say one job queued: they cannot see the lost trace');
  },
);

t.test('a slot that just ran a job takes the next at once, not a polling interval later', { skip: missing ?? false }, async (t) => {
  const url = await testPostgres().database();
  const store = await openPostgresStore(url, { writeDelayMs: 1 });
  const POLL_SECONDS = 4;
  const queue = await openPgBossQueue({ url, store, maxAttempts: 3, log: silentLogger, pollSeconds: POLL_SECONDS });
  t.teardown(async () => {
    await queue.stop();
    await store.close();
  });
  const n = { store, queue };
  for (const id of ['job_1', 'job_2', 'job_3', 'job_4']) await admit(n, id);
  const seen: string[] = [];
  const started = performance.now();
  await queue.consume(1, async (jobId) => {
    seen.push(jobId);
    store.jobs.update(jobId, { status: 'completed' });
    return 'ended';
  });
  await until(() => seen.length === 4 || undefined, 'four jobs handed out');
  const seconds = (performance.now() - started) / 1000;
  // Waiting out the interval after each job would take at least 3 × 4 s.
  t.ok(seconds < 2 * POLL_SECONDS, `four jobs on one slot in ${seconds.toFixed(1)} s`);
});
