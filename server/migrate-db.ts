/**
 * `vectorize migrate-db`: moves a lowdb data dir's records into PostgreSQL, through the two
 * stores' own adapters (the target's migrations are applied as a node's start applies them).
 * Blobs stay where they are: job records name them relative to the data dir, so the PostgreSQL
 * nodes mount the same VECTORIZE_DATA_DIR. The lowdb file is only read.
 *
 * A target that already holds records is refused rather than merged: two sets of accounts and
 * counters cannot be merged honestly, and a rerun after a success must not double anything.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from './adapters/lock.js';
import { openLowdbStore } from './adapters/lowdb-store.js';
import { openPostgresStore } from './adapters/postgres-store.js';
import { openPgBossQueue } from './adapters/pg-boss-queue.js';
import { COLLECTIONS, type Collection, type JobRecord, type Store } from './adapters/store.js';
import { silentLogger } from './log.js';

type CollectionName = (typeof COLLECTIONS)[number];

export class TargetNotEmptyError extends Error {
  constructor(readonly counts: Partial<Record<CollectionName, number>>) {
    const held = Object.entries(counts)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
    super(`The target database already holds records (${held}); migrate-db only fills an empty one.`);
    this.name = 'TargetNotEmptyError';
  }
}

export interface MigrationReport {
  /** Records moved, by collection. */
  counts: Record<CollectionName, number>;
  /** Queued jobs (and jobs a crash left processing) given a queue entry, in acceptance order. */
  requeued: number;
  /** Jobs whose upload or result file is not in the data dir (moved all the same, as the lowdb server had them). */
  missingBlobs: number;
}

/**
 * A lock name no account has: exclusive() is the store's one way to write in a transaction of
 * the caller's, which is what lets the records and the queue entries commit together.
 */
const MIGRATION_SECTION = 'migrate-db';

interface MigrationTarget {
  databaseUrl: string;
  /** VECTORIZE_MAX_ATTEMPTS, as the nodes have it: the queue's settings are the cluster's. */
  maxAttempts: number;
}

export async function migrateLowdbToPostgres(dataDir: string, { databaseUrl, maxAttempts }: MigrationTarget): Promise<MigrationReport> {
  const file = join(dataDir, 'db.json');
  if (!existsSync(file)) throw new Error(`There is no lowdb database at ${file}.`);
  // A lowdb server still running would go on changing the file after the copy.
  const lock = acquireLock(dataDir);
  let source: Store | undefined;
  let target: Awaited<ReturnType<typeof openPostgresStore>> | undefined;
  let queue: Awaited<ReturnType<typeof openPgBossQueue>> | undefined;
  try {
    source = await openLowdbStore(file);
    target = await openPostgresStore(databaseUrl);
    queue = await openPgBossQueue({ url: databaseUrl, store: target, maxAttempts, log: silentLogger });
    const from = source;
    const to = target;
    const entries = queue;
    const counts = Object.fromEntries(COLLECTIONS.map((name) => [name, from[name].count()])) as Record<CollectionName, number>;
    const active = from.jobs.filter((job) => job.status === 'queued' || job.status === 'processing').sort((a, b) => a.seq - b.seq);

    await to.exclusive(MIGRATION_SECTION, async (tx) => {
      const held: Partial<Record<CollectionName, number>> = {};
      for (const name of COLLECTIONS) {
        const { rows } = await tx!.query(`SELECT count(*)::int AS n FROM ${name}`);
        if ((rows[0]!.n as number) > 0) held[name] = rows[0]!.n as number;
      }
      if (Object.keys(held).length > 0) throw new TargetNotEmptyError(held);
      for (const name of COLLECTIONS) {
        const into = to[name] as Collection<{ id: string }>;
        for (const record of from[name].all()) into.insert(record);
      }
      // A job a crash left processing starts again, as a lowdb restart would have done (jobs.recover):
      // its attempts are kept, so the workers still fail it past VECTORIZE_MAX_ATTEMPTS.
      for (const job of active) {
        if (job.status === 'processing') to.jobs.update(job.id, { status: 'queued', started_at: null } satisfies Partial<JobRecord>);
        await entries.admit(job.id, tx);
      }
      const highest = from.jobs.all().reduce((max, job) => Math.max(max, job.seq ?? 0), 0);
      if (highest > 0) await tx!.query("SELECT setval('job_seq', GREATEST((SELECT last_value FROM job_seq), $1::bigint))", [highest]);
    });

    const missingBlobs = from.jobs.count((job) =>
      [job.upload_path, job.result_path].some((path) => path !== null && !existsSync(join(dataDir, path))),
    );
    return { counts, requeued: active.length, missingBlobs };
  } finally {
    await queue?.stop().catch(() => undefined);
    await target?.close().catch(() => undefined);
    // Nothing was changed in the source, so closing it writes nothing.
    await source?.close().catch(() => undefined);
    lock.release();
  }
}
