/**
 * The engine's worker threads: one small pool per process (per thread that traces), started on
 * first use and kept for later traces. Work is posted as jobs; a worker's replies carry the job's
 * number, and the job's listener gets them. Workers hold the process open only while a job is in
 * flight. A worker that throws or dies fails every job in flight with
 * VectorizeError('internal_error') and is replaced next time.
 *
 * Jobs so far: smoothing half an image (./banded-denoise.ts), joining gradient bands
 * (./gradient-joins.ts), fitting boundary chains (./chain-fits.ts), colouring regions
 * (./region-paints.ts) and writing the shapes' path data (./shape-writing.ts).
 * engine/parallel/fit-worker.ts is the worker's entry; it dispatches on the message's `type`.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { VectorizeError } from '../errors.js';

/** Worker threads besides this one: one per further core, at most three (fitting is ~a third of a trace). */
const DEFAULT_FIT_WORKERS = Math.max(0, Math.min(3, os.availableParallelism() - 1));
let workerCount = DEFAULT_FIT_WORKERS;

/**
 * Process-wide number of workers besides the tracing thread (like sharp.concurrency()): 0 does
 * all the work on the tracing thread. Returns the number in use.
 */
export function fitConcurrency(workers?: number): number {
  if (workers !== undefined) {
    if (!Number.isInteger(workers) || workers < 0 || workers > 64)
      throw new VectorizeError('invalid_parameter', `fit workers must be a whole number from 0 to 64, got ${workers}`);
    workerCount = workers;
  }
  return workerCount;
}

/**
 * Workers already started on this thread. A job posted to more starts them first: tens of
 * milliseconds of loading and compiling beside this thread, which a small job does not win back.
 */
export function startedWorkers(): number {
  return pool.length;
}

/**
 * Below this many pixels a region job (the region paints, the gradient-band joins) takes a
 * millisecond or two on this thread, about what copying the labels and pixels to a worker costs, so
 * it stays here; and a trace that shares its joins then uses the worker for its paints anyway.
 */
export const MIN_REGION_JOB_PIXELS = 65_536;

/** What a region job posts to a worker besides its own fields: the image and its regions, in shared memory. */
export interface RegionJobMessage {
  job: number;
  width: number;
  height: number;
  /** The source pixels, straight RGBA or RGB (copied once into shared memory), and the region labels (already there). */
  data: Uint8Array;
  channels: 3 | 4;
  labels: Int32Array;
  area: Int32Array;
  transparent: Uint8Array;
  regionCount: number;
}

/**
 * Atomics.waitAsync (Node 16 and later; typed from ES2024, after this project's lib): how a job's
 * tracing-thread side waits on a shared counter a worker moves without blocking its event loop.
 */
export const waitAsync = (
  Atomics as unknown as {
    waitAsync(array: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

/** The region labels as a worker can read them: themselves when already in shared memory (segmentation's), else a shared copy. */
export function sharedLabels(labels: Int32Array): Int32Array {
  if (labels.buffer instanceof SharedArrayBuffer) return labels;
  const copy = new Int32Array(new SharedArrayBuffer(4 * labels.length));
  copy.set(labels);
  return copy;
}

/** Every reply names its job; a worker that fails a job says so with an error reply. */
interface JobReply {
  type: string;
  job: number;
}
export interface JobErrorReply extends JobReply {
  type: 'error';
  message: string;
}

interface JobListener<Reply extends JobReply> {
  onReply(reply: Reply | JobErrorReply): void;
  onFailure(error: VectorizeError): void;
}

const jobs = new Map<number, JobListener<JobReply>>();
let nextJob = 1;
const pool: Worker[] = [];
let inFlight = 0;

/**
 * Registers a job and returns its number and up to `count` workers to post it to. end() must be
 * called once the job is over (done, failed or cancelled), or the workers keep the process alive.
 */
export function openJob<Reply extends JobReply>(
  count: number,
  listener: JobListener<Reply>,
): { job: number; workers: Worker[]; end(): void } {
  const job = nextJob++;
  const workers = poolWorkers(count);
  jobs.set(job, listener as JobListener<JobReply>);
  holdPool(+1);
  let ended = false;
  return {
    job,
    workers,
    end() {
      if (ended) return;
      ended = true;
      jobs.delete(job);
      holdPool(-1);
    },
  };
}

/**
 * A job its workers answer with any number of replies (chunks of fits, of shapes): openJob with
 * the failures kept. `onAnswer` gets every reply but an error; the first error reply or worker
 * death becomes failure(), a VectorizeError('internal_error') naming `doing`. next() resolves at
 * the next reply or failure, so the tracing thread waits for either without polling. end() as for
 * openJob.
 */
export function openRepliesJob<Reply extends JobReply>(
  count: number,
  doing: string,
  onAnswer: (reply: Reply) => void,
): { job: number; workers: Worker[]; failure(): VectorizeError | null; next(): Promise<void>; end(): void } {
  let failure: VectorizeError | null = null;
  let wake: (() => void) | null = null;
  const opened = openJob<Reply>(count, {
    onReply(reply) {
      if (reply.type === 'error')
        failure ??= new VectorizeError('internal_error', `A ${doing} worker failed: ${(reply as JobErrorReply).message}`);
      else onAnswer(reply as Reply);
      wake?.();
    },
    onFailure(error) {
      failure ??= error;
      wake?.();
    },
  });
  return {
    ...opened,
    failure: () => failure,
    next: () => new Promise<void>((resolve) => (wake = resolve)),
  };
}

/**
 * A job one worker answers with one reply (a paint job, half a denoise pass): reply() resolves
 * with the worker's reply, or rejects with VectorizeError('internal_error') naming `doing`
 * ("painting", ...) when the worker fails the job or dies. end() as for openJob.
 */
export function openOneReplyJob<Reply extends JobReply>(
  doing: string,
): { job: number; worker: Worker; reply(): Promise<Reply>; end(): void } {
  let answer: Reply | null = null;
  const {
    job,
    workers: [worker],
    failure,
    next,
    end,
  } = openRepliesJob<Reply>(1, doing, (reply) => (answer = reply));
  return {
    job,
    worker,
    async reply() {
      while (!answer && !failure()) await next();
      const failed = failure();
      if (failed) throw failed;
      return answer!;
    },
    end,
  };
}

/** Workers keep the process alive only while a job waits on them. */
function holdPool(delta: number): void {
  inFlight += delta;
  for (const worker of pool) {
    if (inFlight > 0) worker.ref();
    else worker.unref();
  }
}

function poolWorkers(count: number): Worker[] {
  while (pool.length < count) {
    const worker = spawnWorker();
    const retire = (error: VectorizeError) => {
      const index = pool.indexOf(worker);
      if (index < 0) return;
      pool.splice(index, 1);
      void worker.terminate();
      for (const listener of jobs.values()) listener.onFailure(error);
    };
    worker.on('message', (reply: JobReply) => jobs.get(reply.job)?.onReply(reply));
    worker.on('error', (error) =>
      retire(new VectorizeError('internal_error', `An engine worker failed: ${error.message}`, {}, { cause: error })),
    );
    worker.on('exit', (code) => retire(new VectorizeError('internal_error', `An engine worker stopped (exit code ${code}).`)));
    if (inFlight === 0) worker.unref();
    pool.push(worker);
  }
  return pool.slice(0, count);
}

/**
 * From the build the worker is fit-worker.js beside this file. From source (tsx: tests, benches)
 * it is a .ts file and a worker does not inherit the parent's tsx loader, so a tiny bootstrap
 * registers tsx inside the worker before importing it (as server/adapters/engine-pool.ts does).
 */
function spawnWorker(): Worker {
  if (testScript) return new Worker(testScript, { eval: true });
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./fit-worker.js', import.meta.url));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./fit-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, {
    eval: true,
  });
}

/** Tests only: a worker script to use instead of the engine's worker, to see how failures surface. */
export function replaceFitWorkersForTest(script: string | null): Promise<void> {
  const closing = pool.splice(0, pool.length).map((worker) => worker.terminate());
  testScript = script;
  return Promise.all(closing).then(() => undefined);
}
let testScript: string | null = null;
