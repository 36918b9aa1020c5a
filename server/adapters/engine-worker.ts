/**
 * One engine worker thread: reads the upload, runs the engine's vectorize(), writes the SVG next
 * to its final name and renames it, so a result file either exists whole or not at all. The
 * trace's geometry is kept the same way beside it, before the result: a result on disk means its
 * geometry is too. A render task reads a kept geometry instead and only draws it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFile, rename, writeFile, rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { EngineTask } from './engine.js';
import type { WorkerMessage } from './engine-pool.js';
import type { OutputControls, Progress, TraceHooks, TraceOptions, TraceResult, TraceStats, VectorDocument } from '../../engine/types.js';
import { VectorizeError } from '../../engine/errors.js';

type Vectorize = (input: Uint8Array, options: TraceOptions, hooks: TraceHooks) => Promise<TraceResult>;
type RenderDocument = (document: VectorDocument, output: OutputControls) => { svg: string; stats: TraceStats };
type EngineModule = {
  vectorize: Vectorize;
  renderDocument?: RenderDocument;
  VECTOR_DOCUMENT_VERSION?: number;
  fitConcurrency?: (workers?: number) => number;
};

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

/** Writes next to the final name and renames, so the file exists whole or not at all. */
async function writeWhole(path: string, text: string): Promise<void> {
  const temp = `${path}.partial`;
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

async function trace(
  task: EngineTask,
): Promise<Pick<TraceResult, 'svg' | 'stats' | 'mode' | 'width' | 'height' | 'megapixels' | 'format'> & { document?: VectorDocument }> {
  const { vectorize } = await engine;
  const bytes = new Uint8Array(await readFile(task.inputPath));
  let last = -1;
  return vectorize(bytes, task.options, {
    maxPixels: task.maxPixels,
    onProgress: (progress: Progress) => {
      // Whole percents only: the main thread does not need thousands of messages.
      const percent = Math.floor(progress.fraction * 100);
      if (percent === last) return;
      last = percent;
      post({ type: 'progress', jobId: task.jobId, stage: progress.stage, fraction: progress.fraction });
    },
  });
}

/** A kept geometry drawn again: no pixels, so the outcome's megapixels are 0 (it teaches no trace speed). */
async function render(task: EngineTask) {
  const { renderDocument, VECTOR_DOCUMENT_VERSION } = await engine;
  if (!renderDocument) throw new VectorizeError('internal_error', 'This engine cannot draw a kept geometry.');
  const document = JSON.parse(await readFile(task.inputPath, 'utf8')) as VectorDocument;
  // A geometry kept by an older engine may mean something else field by field: never guess.
  if (document.version !== VECTOR_DOCUMENT_VERSION)
    throw new VectorizeError('internal_error', 'The kept geometry is from another engine version; submit the image again.');
  const { svg, stats } = renderDocument(document, task.options.output);
  return { svg, stats, document, mode: null, width: document.displayWidth, height: document.displayHeight, megapixels: 0, format: null };
}

parentPort!.on('message', async (message: { type: 'run'; task: EngineTask }) => {
  if (message.type !== 'run') return;
  const { task } = message;
  try {
    const result = task.kind === 'render' ? await render(task) : await trace(task);
    if (task.documentPath && result.document) await writeWhole(task.documentPath, JSON.stringify(result.document));
    await writeWhole(task.outputPath, result.svg);
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
    if (task.documentPath) await rm(task.documentPath, { force: true });
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
