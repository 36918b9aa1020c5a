/**
 * Jobs: the queue, the state machine of docs/api.md ("Jobs and their states") and the public view of a job.
 *
 *   queued ──engine picks──▶ processing ──result file exists──▶ completed ──retention──▶ expired
 *      │                        ├──engine fails / watchdog──▶ failed
 *      └──DELETE──▶ canceled ◀──┘ DELETE (worker terminated)
 *
 * The queue is an adapter (adapters/job-queue.ts): in this process's memory, rebuilt from the
 * store at start (restart safety), or pg-boss shared by every node; the store is the truth for
 * every job's state.
 */
import { VectorizeError } from '../http-errors.js';
import { END_STATES, type AccountRecord, type JobRecord, type JobStatus, type Store } from '../adapters/store.js';
import type { Blobs } from '../adapters/blobs.js';
import type { Clock } from '../adapters/clock.js';
import type { EnginePool, EngineRun } from '../adapters/engine.js';
import type { JobQueue, RunEnd } from '../adapters/job-queue.js';
import type { StoreTransaction } from '../adapters/store.js';
import type { Config } from '../config.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../log.js';
import { RETENTION_MS, type PlanLimits } from '../plans.js';
import { DEFAULT_OUTPUT_CONTROLS, type OutputControls } from '../../engine/types.js';
import type { AccountService } from './accounts.js';

interface Running {
  run: EngineRun;
  /** performance.now() at start: run times are durations, not dates, so they use the monotonic clock. */
  startedMs: number;
  estimateMs: number;
  /** Engine-reported share of the work, 0..1. */
  fraction: number;
  watchdog: NodeJS.Timeout;
}

/** Progress shown while processing never reaches 100 before the result file exists. */
const PROGRESS_CAP = 95;

interface JobDeps {
  store: Store;
  blobs: Blobs;
  clock: Clock;
  pool: EnginePool;
  events: EventBus;
  log: Logger;
  config: Readonly<Config>;
  accounts: AccountService;
  queue: JobQueue;
  /** False on an API-only node (VECTORIZE_ROLE=api): it enqueues and never traces. */
  traces?: boolean;
}

/** How often a node tracing a job of a shared queue looks whether another node canceled it. */
const CANCEL_WATCH_MS = 250;

export function isEndState(status: JobStatus): boolean {
  return END_STATES.includes(status);
}

export function jobService(deps: JobDeps) {
  const { store, blobs, clock, pool, events, log, config, accounts, queue } = deps;
  const running = new Map<string, Running>();
  // Learned speed of this machine: ms of tracing per megapixel (EMA of finished jobs).
  let msPerMegapixel = 1500;
  const BASE_MS = 300;
  let stopped = false;

  const estimateMs = (megapixels: number) => Math.round(BASE_MS + msPerMegapixel * megapixels);
  const now = () => clock.now();

  const timeoutFor = (estimate: number) => Math.max(config.jobTimeoutMinMs, config.jobTimeoutFactor * estimate);

  function finishRun(jobId: string) {
    const entry = running.get(jobId);
    if (entry) clearTimeout(entry.watchdog);
    running.delete(jobId);
  }

  async function complete(job: JobRecord, outcome: { mode: JobRecord['mode']; bytes: number; megapixels: number }) {
    const resultPath = blobs.resultPathFor(job.id);
    // docs/api.md, "Jobs and their states": completed only once the result file exists.
    if (!(await blobs.exists(resultPath))) throw new VectorizeError('internal_error', 'The engine reported success but wrote no result.');
    const documentPath = blobs.documentPathFor(job.id);
    const current = store.jobs.get(job.id);
    if (!current || current.status !== 'processing') {
      // canceled or deleted meanwhile
      await Promise.all([blobs.remove(resultPath), blobs.remove(documentPath)]);
      return;
    }
    // An engine that keeps no geometry (a stand-in module) leaves a job that cannot be re-rendered.
    const documentKept = await blobs.exists(documentPath);
    const at = now();
    const updated = store.jobs.update(job.id, {
      status: 'completed',
      // A re-render reports no class: it keeps the first job's.
      mode: outcome.mode ?? current.mode,
      completed_at: at.toISOString(),
      ended_at: at.toISOString(),
      expires_at: new Date(at.getTime() + RETENTION_MS[current.retention]).toISOString(),
      result_path: resultPath,
      result_bytes: outcome.bytes,
      document_path: documentKept ? documentPath : null,
      upload_path: null,
      error: null,
    })!;
    // Announced with the state change: a reader who saw 'completed' (a poll, /metrics) sees its event too.
    events.emit('job.completed', updated, at);
    await blobs.remove(current.upload_path);
  }

  /** Refunds in the background: the job's state is already decided; a failed refund is logged, not lost silently. */
  function giveBack(job: JobRecord) {
    accounts.refund(job.account_id, job.charged, job.charged_period).catch((error: unknown) => {
      log.error('refund failed', { job_id: job.id, account_id: job.account_id, err: (error as Error).message });
    });
  }

  function fail(jobId: string, code: string, message: string) {
    const current = store.jobs.get(jobId);
    if (!current || isEndState(current.status)) return;
    const at = now();
    const updated = store.jobs.update(jobId, {
      status: 'failed',
      ended_at: at.toISOString(),
      error: { code, message },
      upload_path: null,
    })!;
    void blobs.remove(current.upload_path);
    // A worker stopped by the watchdog may have kept the geometry before its result.
    void blobs.remove(blobs.documentPathFor(jobId));
    // A failed conversion is not the client's to pay for.
    giveBack(current);
    events.emit('job.failed', updated, at);
  }

  /** Runs one job the queue handed out; settles once the job has ended or was put back. */
  function run(jobId: string): Promise<RunEnd> {
    let job = store.jobs.get(jobId);
    if (stopped) return Promise.resolve('interrupted');
    // A job found processing was handed out again: the node tracing it died.
    if (job && job.status === 'processing') {
      if (job.attempts >= config.maxAttempts) {
        fail(jobId, 'internal_error', `Processing was interrupted ${job.attempts} times.`);
        return Promise.resolve('ended');
      }
      job = store.jobs.update(jobId, { status: 'queued', started_at: null })!;
    }
    if (!job || job.status !== 'queued' || !job.upload_path) {
      if (job && job.status === 'queued') fail(jobId, 'internal_error', 'The upload is missing.');
      return Promise.resolve('ended');
    }
    const at = now();
    const estimate = estimateMs(job.megapixels);
    const started = store.jobs.update(jobId, {
      status: 'processing',
      started_at: at.toISOString(),
      attempts: job.attempts + 1,
      estimate_ms: estimate,
    })!;
    const engineRun = pool.run(
      {
        jobId,
        kind: job.source === 'render' ? 'render' : 'trace',
        inputPath: blobs.absolute(job.upload_path),
        outputPath: blobs.absolute(blobs.resultPathFor(jobId)),
        documentPath: blobs.absolute(blobs.documentPathFor(jobId)),
        options: job.options,
        // The plan's own ceiling, the one the submission checked from the header: every plan has
        // one (config fills them all in, at most PLAN_MAX_MEGAPIXELS), so there is no fallback. The
        // engine's 50 MP default is for callers without a plan (the CLI).
        maxPixels: Math.round(config.plans[accounts.get(job.account_id).plan].maxMegapixels * 1e6),
      },
      (progress) => {
        const entry = running.get(jobId);
        if (entry) entry.fraction = Math.max(entry.fraction, Math.min(1, progress.fraction));
      },
    );
    const watchdog = setTimeout(() => {
      log.warn('job timed out', { job_id: jobId, estimate_ms: estimate });
      finishRun(jobId);
      engineRun.cancel();
      fail(jobId, 'internal_error', `Processing took longer than ${Math.round(timeoutFor(estimate) / 1000)} s and was stopped.`);
    }, timeoutFor(estimate));
    watchdog.unref();
    running.set(jobId, { run: engineRun, startedMs: performance.now(), estimateMs: estimate, fraction: 0, watchdog });
    events.emit('job.started', started, at);
    // Another node's DELETE reaches this one as a changed row (the store's change feed).
    const cancelWatch = queue.durable
      ? setInterval(() => {
          const current = store.jobs.get(jobId);
          if (current?.status === 'processing' || !running.has(jobId)) return;
          log.info('job canceled on another node', { job_id: jobId });
          finishRun(jobId);
          engineRun.cancel();
          void blobs.remove(blobs.resultPathFor(jobId));
          void blobs.remove(blobs.documentPathFor(jobId));
        }, CANCEL_WATCH_MS)
      : undefined;
    cancelWatch?.unref();
    /** What the queue hears: its entry is done, or the job goes to another worker. */
    async function settled(): Promise<RunEnd> {
      clearInterval(cancelWatch);
      // The entry is let go only once the job's end is in the database.
      if (queue.durable) await store.flush();
      return stopped && store.jobs.get(jobId)?.status === 'queued' ? 'interrupted' : 'ended';
    }

    const t0 = performance.now();
    return engineRun.done.then(
      async (outcome) => {
        // The trace is over: from here this node changes the row itself, and a watch that saw the
        // row leave 'processing' would take its own completion for a cancel and delete the result.
        clearInterval(cancelWatch);
        // The entry stays until the job is completed: a poll in between still reads its progress
        // (not the 0 of a job this node no longer knows), so progress never goes backwards.
        const entry = running.get(jobId);
        if (entry) clearTimeout(entry.watchdog);
        const took = performance.now() - t0;
        if (outcome.megapixels > 0)
          msPerMegapixel = 0.8 * msPerMegapixel + 0.2 * Math.max(50, (took - BASE_MS) / Math.max(outcome.megapixels, 0.05));
        try {
          await complete(started, outcome);
        } catch (error) {
          fail(jobId, 'internal_error', (error as Error).message);
        } finally {
          finishRun(jobId);
        }
        return settled();
      },
      (error: VectorizeError) => {
        clearInterval(cancelWatch);
        finishRun(jobId);
        // canceled: the canceller already moved the job (or stop() put it back).
        if (error.code !== 'canceled') {
          log.warn('job failed', { job_id: jobId, code: error.code, err: error.message });
          fail(jobId, error.code ?? 'internal_error', error.message);
        }
        return settled();
      },
    );
  }

  if (deps.traces ?? true)
    void queue.consume(pool.size, run).catch((error: Error) => log.error('the queue cannot hand out jobs', { err: error.message }));

  return {
    estimateMs,
    nextSeq: (tx: StoreTransaction | null) => queue.nextSeq(tx),
    /** Inside the admission, with its transaction: the queue's entry commits with the job row. */
    admit: (jobId: string, tx: StoreTransaction | null) => queue.admit(jobId, tx),

    get queueLength() {
      return queue.length;
    },
    /** Jobs waiting for a worker across the cluster, from the queue itself (health, metrics, stats). */
    waitingCount: () => queue.waiting(),
    get processingCount() {
      return running.size;
    },

    /** 429 too_many_active_jobs when the account has its plan's number of queued and processing jobs. */
    assertActiveRoom(account: AccountRecord, plan: Readonly<PlanLimits>) {
      const active = store.jobs.count((j) => j.account_id === account.id && (j.status === 'queued' || j.status === 'processing'));
      if (active >= plan.activeJobs) {
        throw new VectorizeError(
          'too_many_active_jobs',
          `The account already has ${active} queued or processing jobs (plan maximum ${plan.activeJobs}).`,
          { active_jobs: active, max_active_jobs: plan.activeJobs },
        );
      }
    },

    /** 503 queue_full / storage_full: the service, not the account, has no room for another job. */
    assertServiceRoom(freeBytes: number) {
      if (queue.length >= config.queueMax) {
        throw new VectorizeError('queue_full', 'The service queue is full; retry later.', { queue_max: config.queueMax });
      }
      if (freeBytes < config.minFreeBytes) throw new VectorizeError('storage_full', 'The service is low on storage; retry later.', {});
    },

    /** Adds an accepted job (already stored as queued) to the end of the queue. */
    enqueue(jobId: string) {
      queue.enqueue(jobId);
    },

    /** 1 = the next job to start; undefined when not queued. */
    queuePosition(jobId: string): number | undefined {
      return queue.position(jobId);
    },

    progress(job: JobRecord): number {
      switch (job.status) {
        case 'queued':
          return 0;
        case 'processing': {
          const entry = running.get(job.id);
          if (!entry) {
            // Traced on another node: its estimate and start time are all this node knows.
            if (!queue.durable || !job.started_at || !(job.estimate_ms > 0)) return 0;
            const byTime = (clock.now().getTime() - Date.parse(job.started_at)) / job.estimate_ms;
            return Math.min(PROGRESS_CAP, Math.max(0, Math.floor(100 * byTime)));
          }
          const byTime = (performance.now() - entry.startedMs) / entry.estimateMs;
          return Math.min(PROGRESS_CAP, Math.floor(100 * Math.max(entry.fraction, byTime)));
        }
        case 'completed':
        case 'expired':
          return 100;
        default:
          return 0;
      }
    },

    getOwned(id: string, accountId: string | undefined): JobRecord {
      const job = store.jobs.get(id);
      // Another account's job answers exactly like a missing one (docs/api.md, "Authentication and keys").
      if (!job || (accountId !== undefined && job.account_id !== accountId)) throw new VectorizeError('not_found', 'No such job.');
      return job;
    },

    /** DELETE: queued/processing → canceled (the worker stops); end state → deleted with its result. */
    async cancelOrDelete(job: JobRecord): Promise<{ canceled: JobRecord } | { deleted: true }> {
      if (job.status === 'queued' || job.status === 'processing') return { canceled: this.cancel(job) };
      await this.remove(job);
      return { deleted: true };
    },

    /**
     * Cancel-only (the admin route): a queued or processing job is canceled as DELETE would; a job
     * already in an end state is answered as it is, never deleted, so a job that finished between
     * an operator's confirmation and the call keeps its result.
     */
    cancelIfActive(job: JobRecord): JobRecord {
      return job.status === 'queued' || job.status === 'processing' ? this.cancel(job) : job;
    },

    cancel(job: JobRecord): JobRecord {
      const wasQueued = job.status === 'queued';
      queue.remove(job.id);
      const entry = running.get(job.id);
      finishRun(job.id);
      entry?.run.cancel();
      const at = now();
      const updated = store.jobs.update(job.id, { status: 'canceled', ended_at: at.toISOString(), upload_path: null })!;
      void blobs.remove(job.upload_path);
      void blobs.remove(blobs.resultPathFor(job.id));
      void blobs.remove(blobs.documentPathFor(job.id));
      // Nothing was traced for a job canceled before it started: its conversion is given back.
      if (wasQueued) giveBack(job);
      events.emit('job.canceled', updated, at);
      return updated;
    },

    async remove(job: JobRecord): Promise<void> {
      if (!isEndState(job.status)) this.cancel(job);
      store.jobs.delete(job.id);
      await Promise.all([blobs.remove(job.result_path), blobs.remove(job.document_path ?? null), blobs.remove(job.upload_path)]);
    },

    fail,

    /**
     * Restart safety: queued jobs go back in the queue in their order; jobs found processing were
     * interrupted by a crash and are re-queued first, unless they have used all their attempts.
     */
    recover(): { requeued: number; failed: number } {
      // A shared queue keeps its entries itself; a job processing elsewhere is another node's.
      if (queue.durable) return { requeued: 0, failed: 0 };
      let requeued = 0;
      let failedCount = 0;
      const pending = store.jobs.filter((j) => j.status === 'queued' || j.status === 'processing').sort((a, b) => a.seq - b.seq);
      for (const job of pending) {
        if (job.status === 'processing') {
          if (job.attempts >= config.maxAttempts) {
            fail(job.id, 'internal_error', `Processing was interrupted ${job.attempts} times by server restarts.`);
            failedCount++;
            continue;
          }
          store.jobs.update(job.id, { status: 'queued', started_at: null });
        }
        queue.enqueue(job.id);
        requeued++;
      }
      return { requeued, failed: failedCount };
    },

    /** Lists newest first; the cursor is the last id of the previous page. */
    list(filter: { accountId?: string; status?: JobStatus; batchId?: string; limit: number; cursor?: string }) {
      const all = store.jobs
        .filter(
          (j) =>
            (filter.accountId === undefined || j.account_id === filter.accountId) &&
            (filter.status === undefined || j.status === filter.status) &&
            (filter.batchId === undefined || j.batch_id === filter.batchId),
        )
        .sort((a, b) => b.seq - a.seq);
      let from = 0;
      if (filter.cursor) {
        // The cursor names the last job of the previous page by its acceptance order, so it stays
        // valid when that job is deleted or pruned meanwhile.
        const cursor = decodeCursor(filter.cursor);
        if (cursor === undefined)
          throw new VectorizeError('invalid_parameter', 'cursor is not a cursor this server issued.', { field: 'cursor' });
        from = all.findIndex((j) => j.seq < cursor);
        if (from < 0) from = all.length;
      }
      const page = all.slice(from, from + filter.limit);
      const last = page[page.length - 1];
      const next = from + filter.limit < all.length && last ? encodeCursor(last) : null;
      return { page, next };
    },

    view(job: JobRecord, baseUrl: string) {
      const out: Record<string, unknown> = {
        id: job.id,
        status: job.status,
        progress: this.progress(job),
      };
      const position = job.status === 'queued' ? this.queuePosition(job.id) : undefined;
      if (job.status === 'queued') out.queue_position = position ?? queue.length + 1;
      out.mode = job.mode;
      out.retention = job.retention;
      out.megapixels = Math.round(job.megapixels * 1e6) / 1e6;
      out.width = job.width;
      out.height = job.height;
      out.created_at = job.created_at;
      if (job.started_at) out.started_at = job.started_at;
      if (job.status === 'completed') out.download_url = `${baseUrl}/v1/jobs/${job.id}/download`;
      if (job.completed_at) out.completed_at = job.completed_at;
      if (job.expires_at) out.expires_at = job.expires_at;
      if (job.batch_id !== null) out.batch_id = job.batch_id;
      if (job.folder_id !== null) out.folder_id = job.folder_id;
      out.file_name = job.file_name;
      out.options = {
        image_type: job.options.imageType,
        detail: job.options.detail,
        gradients: job.options.gradients,
        smoothing: job.options.smoothing,
        trace_style: job.options.traceStyle,
        close_seams: job.options.closeSeams,
        ...outputView(job.options.output ?? DEFAULT_OUTPUT_CONTROLS),
      };
      out.source = job.source;
      if (job.render_of !== undefined) out.render_of = job.render_of;
      if (job.requested_retention !== job.retention) out.requested_retention = job.requested_retention;
      if (job.error) out.error = job.error;
      return out;
    },

    /** Graceful stop: running work is dropped and its jobs wait queued for the next start. */
    stop() {
      stopped = true;
      for (const [id, entry] of running) {
        clearTimeout(entry.watchdog);
        running.delete(id);
        entry.run.cancel();
        const job = store.jobs.get(id);
        if (job && job.status === 'processing')
          store.jobs.update(id, { status: 'queued', started_at: null, attempts: Math.max(0, job.attempts - 1) });
      }
    },
  };
}

/** The output controls as the form spells them (docs/api.md, "Output controls"). */
function outputView(output: OutputControls) {
  return {
    max_colors: output.maxColors,
    palette: output.palette,
    background: output.background,
    group_by: output.groupBy,
    width: output.width,
    height: output.height,
    unit: output.unit,
    dpi: output.dpi,
    stroke_order: output.strokeOrder,
  };
}

function encodeCursor(job: JobRecord): string {
  return Buffer.from(`seq:${job.seq}`).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

export type JobService = ReturnType<typeof jobService>;
