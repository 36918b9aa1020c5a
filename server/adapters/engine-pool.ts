/**
 * worker_threads pool running the engine off the event loop, `size` traces at a time. A worker
 * is reused between jobs (its engine module stays loaded) unless its last image was large (see
 * RECYCLE_AFTER_MEGAPIXELS); canceling a job terminates its worker,
 * which is the only way to stop CPU-bound work at once, and a fresh worker replaces it on demand.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { VectorizeError, isEngineErrorCode } from '../../engine/errors.js';
import type { EngineOutcome, EnginePool, EngineProgress, EngineRun, EngineTask } from './engine.js';

export type WorkerMessage =
  | { type: 'progress'; jobId: string; stage: EngineProgress['stage']; fraction: number }
  | { type: 'done'; jobId: string; outcome: EngineOutcome }
  | { type: 'error'; jobId: string; code: string; message: string; details: Record<string, unknown> };

interface WorkerPoolOptions {
  size: number;
  /** Replaces engine/index.js inside the workers (VECTORIZE_ENGINE_MODULE). */
  engineModule?: string | null;
  device?: string;
  /** Fitting threads each trace may add (engine fitConcurrency); default fitWorkersPerTrace(size). */
  fitWorkers?: number;
  /** A worker that traced an image this large is replaced; default RECYCLE_AFTER_MEGAPIXELS. */
  recycleAfterMegapixels?: number;
}

/**
 * A large trace leaves its thread holding what it grew: the engine's spare buffers kept for the
 * next trace, a V8 heap sized for its peak, native allocations. Ending the worker hands all of it
 * back at once; a fresh one costs a module load, small beside a trace of this size.
 */
export const RECYCLE_AFTER_MEGAPIXELS = 4;

/**
 * The engine can fit a trace's curves on extra threads. The pool already runs `size` traces at
 * once, so a trace gets extra threads only from cores the pool leaves idle: with as many traces as
 * cores (the default) none, or every job would share its cores with others' fitting threads.
 */
export function fitWorkersPerTrace(size: number, cores = availableParallelism()): number {
  return Math.max(0, Math.min(3, Math.floor(cores / size) - 1));
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

/**
 * From the build the worker is dist/server/adapters/engine-worker.js. From source (tsx: tests,
 * `npm run bench:api`) it is a .ts file, and a worker does not inherit the parent's tsx loader,
 * so a tiny bootstrap registers tsx inside the worker before importing it.
 */
function createWorker(workerData: Record<string, unknown>): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./engine-worker.js', import.meta.url), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./engine-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}

export function workerPool(options: WorkerPoolOptions): EnginePool {
  const slots: Slot[] = [];
  let closed = false;

  const spawn = (): Slot => {
    const worker = createWorker({
      engineModule: options.engineModule ?? null,
      device: options.device ?? 'auto',
      fitWorkers: options.fitWorkers ?? fitWorkersPerTrace(options.size),
    });
    // A pooled idle worker must not keep the process alive on shutdown.
    worker.unref();
    const slot: Slot = { worker, busy: false };
    slots.push(slot);
    return slot;
  };
  const retire = (slot: Slot) => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    void slot.worker.terminate();
  };

  return {
    size: options.size,
    run(task: EngineTask, onProgress: (progress: EngineProgress) => void): EngineRun {
      if (closed) throw new VectorizeError('internal_error', 'The engine pool is closed.');
      const slot = slots.find((s) => !s.busy) ?? spawn();
      slot.busy = true;
      let settle: { resolve: (o: EngineOutcome) => void; reject: (e: Error) => void };
      const done = new Promise<EngineOutcome>((resolve, reject) => {
        settle = { resolve, reject };
      });
      let finished = false;
      const finish = () => {
        finished = true;
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.jobId !== task.jobId) return;
        if (message.type === 'progress') onProgress({ stage: message.stage, fraction: message.fraction });
        else if (message.type === 'done') {
          finish();
          if (message.outcome.megapixels >= (options.recycleAfterMegapixels ?? RECYCLE_AFTER_MEGAPIXELS)) retire(slot);
          else slot.busy = false;
          settle.resolve(message.outcome);
        } else {
          finish();
          slot.busy = false;
          const code = isEngineErrorCode(message.code) ? message.code : 'internal_error';
          settle.reject(new VectorizeError(code, message.message, message.details));
        }
      };
      const onError = (error: Error) => {
        if (finished) return;
        finish();
        retire(slot);
        settle.reject(new VectorizeError('internal_error', `The engine worker crashed: ${error.message}`));
      };
      const onExit = (exitCode: number) => {
        if (finished) return;
        finish();
        retire(slot);
        settle.reject(new VectorizeError('internal_error', `The engine worker exited (${exitCode}).`));
      };
      slot.worker.on('message', onMessage);
      slot.worker.on('error', onError);
      slot.worker.on('exit', onExit);
      slot.worker.postMessage({ type: 'run', task });
      return {
        done,
        cancel() {
          if (finished) return;
          finish();
          retire(slot);
          settle.reject(new VectorizeError('canceled', 'The job was canceled.'));
        },
      };
    },
    async close() {
      closed = true;
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
