/**
 * The durable queue (PostgreSQL mode): pg-boss on the records' database. pg-boss hands each entry
 * to one worker (SELECT … FOR UPDATE SKIP LOCKED) in the order the entries were created, which is
 * the order the admissions committed.
 *
 * A worker that dies mid-trace: pg-boss alone would notice only when the entry's expiry passes,
 * and the expiry must outlast the longest honest trace. So each node also writes a heartbeat
 * (queue_workers) and records which entries it runs (queue_claims); any node finding a claim
 * whose node has been silent for `staleMs` fails that entry in pg-boss, which hands it out again
 * until its retries are spent. The job row's `attempts` decides when a job has been interrupted
 * too often (jobs.run), so pg-boss's own retry limit is only a backstop above it.
 */
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import pg from 'pg';
import type { Logger } from '../log.js';
import { queuedInOrder, type JobQueue, type RunEnd } from './job-queue.js';
import type { PostgresStore } from './postgres-store.js';
import type { StoreTransaction } from './store.js';

export const TRACE_QUEUE = 'vectorize-trace';
export const SWEEP_QUEUE = 'vectorize-sweep';
/** The lease of the node that sends webhook deliveries (any fixed 64-bit number of this application's). */
export const WEBHOOK_LEASE = 7_160_442_017;

export interface PgBossQueueOptions {
  url: string;
  store: PostgresStore;
  /** VECTORIZE_MAX_ATTEMPTS: how often a job may be interrupted before it is failed. */
  maxAttempts: number;
  log: Logger;
  /** How often this node says it is alive and looks for dead nodes' claims. */
  heartbeatMs?: number;
  /** A node silent this long is taken for dead and its jobs are handed out again. */
  staleMs?: number;
  /** How often an idle worker asks for the next entry (pg-boss polls; NOTIFY is not used). */
  pollSeconds?: number;
}

export interface PgBossQueue extends JobQueue {
  /** Runs `task` once per tick of `cron` across every node sharing the database (pg-boss schedule). */
  schedule(cron: string, task: () => Promise<unknown>): Promise<void>;
  /**
   * Whether this node holds the cluster-wide lease `key`, taking it when it is free. A session
   * advisory lock on a connection kept for it: the lease goes when the node stops or dies (its
   * connection ends), and the next node to ask takes it.
   */
  holdsLease(key: number): Promise<boolean>;
}

/**
 * Past this an active entry is failed by pg-boss itself: a backstop for a node whose heartbeat
 * goes on while its trace hangs, longer than any trace the job watchdog lets run.
 */
const EXPIRE_SECONDS = 4 * 3600;
/**
 * pg-boss's retries sit above VECTORIZE_MAX_ATTEMPTS: a graceful stop puts a job back without
 * spending one of its attempts, but pg-boss counts it as a retry all the same.
 */
const RETRY_HEADROOM = 20;

export async function openPgBossQueue(options: PgBossQueueOptions): Promise<PgBossQueue> {
  const { store, log } = options;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const staleMs = options.staleMs ?? 20_000;
  const node = randomUUID();
  const boss = new PgBoss({
    connectionString: options.url,
    max: 4,
    // Maintenance (expiry backstop, archiving) from every node; pg-boss runs each round once.
    supervise: true,
    maintenanceIntervalSeconds: 60,
    schedule: true,
  });
  boss.on('error', (error: Error) => log.error('queue error', { err: error.message }));
  await boss.start();
  const queueSettings = {
    name: TRACE_QUEUE,
    policy: 'standard' as const,
    retryLimit: options.maxAttempts + RETRY_HEADROOM,
    retryDelay: 0,
    expireInSeconds: EXPIRE_SECONDS,
  };
  // One connection for the heartbeat and claims, one for set-up, one per lease held.
  const pool = new pg.Pool({ connectionString: options.url, max: 4 });
  const leases = new Map<number, pg.PoolClient>();
  await ensureQueue(pool, boss, queueSettings);
  // A lowdb data dir moved in by `vectorize migrate-db` brings its own seqs: start above them.
  await pool.query(
    "SELECT setval('job_seq', GREATEST((SELECT last_value FROM job_seq), (SELECT COALESCE(max((doc->>'seq')::bigint), 0) FROM jobs)))",
  );

  const beat = async () => {
    await pool.query('INSERT INTO queue_workers (id, seen_at) VALUES ($1, now()) ON CONFLICT (id) DO UPDATE SET seen_at = now()', [node]);
    const { rows } = await pool.query<{ queue_job_id: string; job_id: string }>(
      `DELETE FROM queue_claims c
        WHERE NOT EXISTS (SELECT 1 FROM queue_workers w WHERE w.id = c.worker AND w.seen_at > now() - make_interval(secs => $1))
        RETURNING queue_job_id, job_id`,
      [staleMs / 1000],
    );
    if (rows.length) {
      log.warn('jobs of a silent worker handed out again', { jobs: rows.map((row) => row.job_id) });
      await boss.fail(
        TRACE_QUEUE,
        rows.map((row) => row.queue_job_id),
      );
    }
    await pool.query("DELETE FROM queue_workers WHERE seen_at < now() - interval '1 day'");
  };
  await beat();
  const heartbeat = setInterval(() => {
    beat().catch((error: Error) => log.error('queue heartbeat failed', { err: error.message }));
  }, heartbeatMs);
  heartbeat.unref();

  const waiting = queuedInOrder(store);
  let stopped = false;

  return {
    durable: true,
    async nextSeq(tx: StoreTransaction | null) {
      const { rows } = await (tx ?? pool).query("SELECT nextval('job_seq')::bigint AS seq");
      return Number(rows[0]!.seq);
    },
    async admit(jobId, tx) {
      const db = tx ? { executeSql: (text: string, values: unknown[]) => tx.query(text, values) } : undefined;
      await boss.send(TRACE_QUEUE, { job_id: jobId }, { ...queueSettings, db });
    },
    enqueue() {
      // The entry committed with the job row in admit(); the workers poll for it.
    },
    remove() {
      // A worker handed a canceled job finds its row canceled and lets the entry go (jobs.run).
    },
    position: (jobId) => waiting.position(jobId),
    get length() {
      return waiting.length;
    },
    async waiting() {
      // Entries not yet handed out (pg-boss's created and retry states) whose job still wants a
      // trace: a canceled job's entry waits until a worker takes it and lets it go, and is no work.
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job q JOIN jobs j ON j.id = q.data->>'job_id'
          WHERE q.name = $1 AND q.state < 'active' AND j.status IN ('queued', 'processing')`,
        [TRACE_QUEUE],
      );
      return rows[0]!.n;
    },
    async consume(concurrency, run) {
      const handle = async ([job]: PgBoss.Job<{ job_id: string }>[]) => {
        if (!job) return;
        await pool.query('INSERT INTO queue_claims (queue_job_id, job_id, worker) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
          job.id,
          job.data.job_id,
          node,
        ]);
        let end: RunEnd;
        try {
          // The change feed may not have brought the row yet: the entry can be faster.
          await store.reload('jobs', job.data.job_id);
          end = await run(job.data.job_id);
        } finally {
          await pool.query('DELETE FROM queue_claims WHERE queue_job_id = $1', [job.id]);
        }
        // Throwing fails the entry, and pg-boss hands it to the next worker at once.
        if (end === 'interrupted') throw new Error('this node stopped during the trace');
      };
      // One pg-boss worker per slot: each holds at most one entry at a time. pg-boss waits out its
      // polling interval after every fetch, even one that brought a job: a slot would then take at
      // most one job per interval (2 slots: 1.7 small jobs/s in `npm run bench:api -- --stores`).
      // A slot that just ran a job asks again at once; only an empty fetch waits.
      for (let slot = 0; slot < concurrency; slot++) {
        let slotId = '';
        slotId = await boss.work(
          TRACE_QUEUE,
          { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 1 },
          async (jobs: PgBoss.Job<{ job_id: string }>[]) => {
            await handle(jobs);
            if (jobs.length > 0) boss.notifyWorker(slotId);
          },
        );
      }
    },
    async schedule(cron, task) {
      await ensureQueue(pool, boss, { name: SWEEP_QUEUE, policy: 'standard', retryLimit: 0 });
      await boss.schedule(SWEEP_QUEUE, cron);
      await boss.work(SWEEP_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, async () => {
        await task();
      });
    },
    async holdsLease(key) {
      if (leases.has(key)) return true;
      if (stopped) return false;
      const client = await pool.connect();
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [key]);
      if (!rows[0]?.held) {
        client.release();
        return false;
      }
      leases.set(key, client);
      client.on('error', () => leases.delete(key));
      return true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      for (const client of leases.values()) client.release(true);
      leases.clear();
      // Graceful: the handlers of interrupted traces fail their entries before the pool closes.
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 10_000 });
      await pool.query('DELETE FROM queue_workers WHERE id = $1', [node]).catch(() => undefined);
      await pool.end();
    },
  };
}

/** Any fixed 64-bit number unique to this application's queue set-up. */
const QUEUE_SETUP_LOCK = 7_160_442_016;

/**
 * Creates the queue, or brings its settings up to date. One node at a time: pg-boss creates a
 * queue's partition with ATTACH PARTITION, and two nodes doing it at once deadlock.
 */
async function ensureQueue(pool: pg.Pool, boss: PgBoss, settings: PgBoss.Queue): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [QUEUE_SETUP_LOCK]);
    if (await boss.getQueue(settings.name)) await boss.updateQueue(settings.name, settings);
    else await boss.createQueue(settings.name, settings);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [QUEUE_SETUP_LOCK]).catch(() => undefined);
    lock.release();
  }
}
