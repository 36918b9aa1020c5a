/**
 * Retention: results are served until expires_at (= completed_at + effective retention), then
 * removed and the job marked `expired` (410 result_expired). `retention=none` results are removed
 * as they are served, so they download once. The sweeper also prunes old records so the database
 * stays small, and removes uploads and results that no record owns once they are old enough to be
 * leftovers of a crash.
 */
import type { ReadStream } from 'node:fs';
import { VectorizeError } from '../http-errors.js';
import type { JobRecord, Store } from '../adapters/store.js';
import type { Blobs } from '../adapters/blobs.js';
import type { Clock } from '../adapters/clock.js';
import type { Config } from '../config.js';
import type { IdempotencyService } from './idempotency.js';
import type { WebhookService } from './webhooks.js';
import type { Logger } from '../log.js';
import { DAY_MS, HOUR_MS } from '../limits.js';

/**
 * How old a file must be before the sweeper may treat it as abandoned. A request moves its upload
 * into uploads/ a moment before the record names it, and a worker writes results/ a moment before
 * the job completes: a sweep in between must not take the file away. An hour is far beyond both
 * windows (a file's mtime is its last write, so a slow upload is young when it lands).
 */
export const ABANDONED_FILE_GRACE_MS = HOUR_MS;

export function retentionService(deps: {
  store: Store;
  blobs: Blobs;
  clock: Clock;
  config: Readonly<Config>;
  idempotency: IdempotencyService;
  webhooks: WebhookService;
  log: Logger;
}) {
  const { store, blobs, clock, config, idempotency, webhooks, log } = deps;

  async function expire(job: JobRecord, at: Date): Promise<JobRecord> {
    const updated = store.jobs.update(job.id, {
      status: 'expired',
      result_path: null,
      document_path: null,
      ended_at: job.ended_at ?? at.toISOString(),
    })!;
    await Promise.all([blobs.remove(job.result_path), blobs.remove(job.document_path ?? null)]);
    return updated;
  }

  /** Paths a record still owns: its upload and result, and what its trace will write. */
  function ownedPaths(): Set<string> {
    const owned = new Set<string>();
    for (const job of store.jobs.all()) {
      if (job.upload_path) owned.add(job.upload_path);
      if (job.result_path) owned.add(job.result_path);
      if (job.document_path) owned.add(job.document_path);
      if (job.status === 'queued' || job.status === 'processing') {
        const result = blobs.resultPathFor(job.id);
        const document = blobs.documentPathFor(job.id);
        owned.add(blobs.uploadPathFor(job.id)).add(result).add(`${result}.partial`).add(document).add(`${document}.partial`);
      }
    }
    return owned;
  }

  /** Uploads and results no record owns: a crash between writing a file and its record. */
  async function sweepUnowned(now: number): Promise<number> {
    const owned = ownedPaths();
    let removed = 0;
    for (const file of await blobs.listStored()) {
      if (owned.has(file.path) || now - file.mtimeMs <= ABANDONED_FILE_GRACE_MS) continue;
      await blobs.remove(file.path);
      removed++;
    }
    return removed;
  }

  return {
    expire,

    /** Opens the result for download or answers 409 not_ready / 410 result_expired. */
    async openResult(job: JobRecord): Promise<{ stream: ReadStream; bytes: number; job: JobRecord }> {
      const now = clock.now();
      if (job.status === 'expired')
        throw new VectorizeError('result_expired', 'The result is no longer available.', { expired_at: job.expires_at });
      if (job.status === 'completed' && job.expires_at && new Date(job.expires_at).getTime() <= now.getTime()) {
        await expire(job, now);
        throw new VectorizeError('result_expired', 'The result is no longer available.', { expired_at: job.expires_at });
      }
      if (job.status !== 'completed' || !job.result_path) {
        throw new VectorizeError(
          'not_ready',
          job.status === 'queued' || job.status === 'processing'
            ? 'The result does not exist yet; poll the job until it is completed.'
            : `The job is ${job.status}; it has no result.`,
          { status: job.status },
        );
      }
      const path = job.result_path;
      let bytes: number;
      try {
        bytes = await blobs.size(path);
      } catch {
        await expire(job, now);
        throw new VectorizeError('result_expired', 'The result is no longer available.', {});
      }
      const stream = blobs.open(path);
      let served = job;
      if (job.retention === 'none') {
        // Download once: the job turns expired now, so a second request answers 410 even while
        // this one is still streaming; the open descriptor keeps the bytes readable until done.
        served = store.jobs.update(job.id, {
          status: 'expired',
          downloaded_at: now.toISOString(),
          expires_at: now.toISOString(),
          result_path: null,
          document_path: null,
          ended_at: job.ended_at,
        })!;
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve());
          stream.once('error', reject);
        });
        await Promise.all([blobs.remove(path), blobs.remove(job.document_path ?? null)]);
      } else {
        store.jobs.update(job.id, { downloaded_at: now.toISOString() });
      }
      return { stream, bytes, job: served };
    },

    /** One sweep: expire due results, prune old end-state records, forget stale idempotency keys. */
    async sweep(): Promise<{ expired: number; pruned: number; idempotency: number; temp: number; unowned: number }> {
      const now = clock.now();
      let expired = 0;
      for (const job of store.jobs.filter(
        (j) => j.status === 'completed' && j.expires_at !== null && new Date(j.expires_at).getTime() <= now.getTime(),
      )) {
        await expire(job, now);
        expired++;
      }
      const cutoff = now.getTime() - config.recordTtlDays * DAY_MS;
      let pruned = 0;
      for (const job of store.jobs.filter(
        (j) =>
          (j.status === 'expired' || j.status === 'failed' || j.status === 'canceled') &&
          new Date(j.ended_at ?? j.created_at).getTime() < cutoff,
      )) {
        await blobs.remove(job.upload_path);
        store.jobs.delete(job.id);
        pruned++;
      }
      for (const folder of store.folders.filter(
        (f) => new Date(f.created_at).getTime() < cutoff && !store.jobs.find((j) => j.folder_id === f.id),
      )) {
        store.folders.delete(folder.id);
        pruned++;
      }
      pruned += webhooks.prune(cutoff);
      const forgotten = idempotency.prune();
      // Temp uploads are removed by the request that made them; these are leftovers of a crash.
      const temp = await blobs.sweepTemp(ABANDONED_FILE_GRACE_MS, now.getTime());
      const unowned = await sweepUnowned(now.getTime());
      if (expired + pruned + forgotten + temp + unowned > 0) log.info('sweep', { expired, pruned, idempotency: forgotten, temp, unowned });
      return { expired, pruned, idempotency: forgotten, temp, unowned };
    },
  };
}

export type RetentionService = ReturnType<typeof retentionService>;
