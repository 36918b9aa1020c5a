/**
 * One engine worker thread: reads the upload, runs the engine's vectorize(), writes the SVG next
 * to its final name and renames it, so a result file either exists whole or not at all.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFile, rename, writeFile, rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { EngineTask } from './engine.js';
import type { WorkerMessage } from './engine-pool.js';
import type { Progress, TraceHooks, TraceOptions, TraceResult } from '../../engine/types.js';

type Vectorize = (input: Uint8Array, options: TraceOptions, hooks: TraceHooks) => Promise<TraceResult>;
type EngineModule = { vectorize: Vectorize; fitConcurrency?: (workers?: number) => number };

const { engineModule, fitWorkers } = workerData as { engineModule: string | null; device: string; fitWorkers: number };

/**
 * Tracing is batch work; accepting uploads and answering polls is interactive. On Linux a nice
 * value belongs to one thread, so this worker lowers only itself (to 10): when cores are
 * scarce the event loop thread is scheduled first and its delay stays low. Elsewhere: no-op.
 */
const ENGINE_NICE = 10;
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, ENGINE_NICE);
} catch {
  /* not Linux, or not permitted: run at normal priority */
}
const fromSource = import.meta.url.endsWith('.ts');
const specifier = engineModule
  ? pathToFileURL(engineModule).href
  : new URL(fromSource ? '../../engine/index.ts' : '../../engine/index.js', import.meta.url).href;
const engine = (import(specifier) as Promise<EngineModule>).then((module) => {
  // A stand-in engine (VECTORIZE_ENGINE_MODULE) need not fit on threads of its own.
  module.fitConcurrency?.(fitWorkers);
  return module;
});

function post(message: WorkerMessage) {
  parentPort!.postMessage(message);
}

parentPort!.on('message', async (message: { type: 'run'; task: EngineTask }) => {
  if (message.type !== 'run') return;
  const { task } = message;
  const temp = `${task.outputPath}.partial`;
  try {
    const { vectorize } = await engine;
    const bytes = new Uint8Array(await readFile(task.inputPath));
    let last = -1;
    const result = await vectorize(bytes, task.options, {
      maxPixels: task.maxPixels,
      onProgress: (progress: Progress) => {
        // Whole percents only: the main thread does not need thousands of messages.
        const percent = Math.floor(progress.fraction * 100);
        if (percent === last) return;
        last = percent;
        post({ type: 'progress', jobId: task.jobId, stage: progress.stage, fraction: progress.fraction });
      },
    });
    await writeFile(temp, result.svg);
    await rename(temp, task.outputPath);
    post({
      type: 'done',
      jobId: task.jobId,
      outcome: {
        mode: result.mode,
        width: result.width,
        height: result.height,
        megapixels: result.megapixels,
        format: result.format,
        bytes: Buffer.byteLength(result.svg),
        stats: result.stats,
      },
    });
  } catch (error) {
    await rm(temp, { force: true });
    const e = error as { code?: unknown; message?: string; details?: Record<string, unknown> };
    post({
      type: 'error',
      jobId: task.jobId,
      code: typeof e.code === 'string' ? e.code : 'internal_error',
      message: e.message ?? String(error),
      details: e.details ?? {},
    });
  }
});
