/**
 * Traces a planned batch, `jobs` at a time, in this one process. More than one image and more than
 * one job: whole traces run on the engine worker pool the server uses (server/adapters/engine-pool,
 * each worker writes its SVG to a partial file and renames it). The image type is decided here, on
 * this thread, when it is `auto`, so the classifier model is loaded once, not once per worker.
 * One image, or --jobs 1: traced on this thread, with no pool to start.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VectorizeError, isVectorizeError } from '../../engine/errors.js';
import type { TraceOptions } from '../../engine/types.js';
import type { PlannedImage } from './inputs.js';

export type Outcome = { status: 'converted'; ms: number; bytes: number } | { status: 'failed'; code: string; message: string };

interface BatchSettings {
  options: TraceOptions;
  maxPixels: number;
  jobs: number;
  force: boolean;
  /** Called once the classifier has run for the first time (to say which provider it uses). */
  onClassifierUsed?: () => Promise<void> | void;
}

export async function runBatch(
  images: PlannedImage[],
  settings: BatchSettings,
  onResult: (image: PlannedImage, outcome: Outcome) => void,
): Promise<void> {
  const lanes = Math.max(1, Math.min(settings.jobs, images.length));
  const trace = lanes > 1 ? await pooledTracer(settings, lanes) : await inProcessTracer(settings);
  let next = 0;
  const lane = async () => {
    while (next < images.length) {
      const image = images[next++];
      const started = performance.now();
      let outcome: Outcome;
      try {
        await mkdir(path.dirname(image.output), { recursive: true });
        const bytes = await trace.run(image);
        outcome = { status: 'converted', ms: performance.now() - started, bytes };
      } catch (error) {
        outcome = failure(error);
      }
      onResult(image, outcome);
    }
  };
  try {
    await Promise.all(Array.from({ length: lanes }, lane));
  } finally {
    await trace.close();
  }
}

interface Tracer {
  /** Traces one image to its output file; resolves with the SVG's size in bytes. */
  run(image: PlannedImage): Promise<number>;
  close(): Promise<void>;
}

async function inProcessTracer(settings: BatchSettings): Promise<Tracer> {
  const { vectorize } = await import('../../engine/index.js');
  let classified = false;
  return {
    async run(image) {
      const bytes = await readInput(image.input);
      const result = await vectorize(bytes, settings.options, { maxPixels: settings.maxPixels });
      if (settings.options.imageType === 'auto' && !classified) {
        classified = true;
        await settings.onClassifierUsed?.();
      }
      await writeOutput(image.output, result.svg, settings.force);
      return Buffer.byteLength(result.svg);
    },
    async close() {},
  };
}

async function pooledTracer(settings: BatchSettings, size: number): Promise<Tracer> {
  const { workerPool } = await import('../../server/adapters/engine-pool.js');
  const classify = settings.options.imageType === 'auto' ? await mainThreadClassifier(settings) : null;
  const pool = workerPool({ size });
  let jobNumber = 0;
  return {
    async run(image) {
      const imageType = classify ? await classify(image.input) : settings.options.imageType;
      const outcome = await pool.run(
        {
          jobId: String(++jobNumber),
          inputPath: path.resolve(image.input),
          outputPath: path.resolve(image.output),
          options: { ...settings.options, imageType },
          maxPixels: settings.maxPixels,
        },
        () => {},
      ).done;
      return outcome.bytes;
    },
    close: () => pool.close(),
  };
}

/** The engine's own decode and classify steps, so the class is the one vectorize() would pick. */
async function mainThreadClassifier(settings: BatchSettings): Promise<(file: string) => Promise<TraceOptions['imageType']>> {
  const { toRgba } = await import('../../engine/decode/index.js');
  const { decodeForTrace } = await import('../../engine/budget.js');
  const { classifyImage } = await import('../../engine/classify/index.js');
  let first: Promise<void> | null = null;
  return async (file) => {
    const { image } = await decodeForTrace(await readInput(file), settings.maxPixels);
    const { class: imageClass } = await classifyImage(toRgba(image));
    await (first ??= Promise.resolve(settings.onClassifierUsed?.()));
    return imageClass;
  };
}

/** Reads an input file; a missing or unreadable path is the caller's `missing_file`. */
export async function readInput(file: string): Promise<Uint8Array> {
  try {
    const buffer = await readFile(file);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  } catch (error) {
    throw new VectorizeError('missing_file', `cannot read ${file}: ${systemReason(error)}`, { path: file });
  }
}

/**
 * Without --force the file is created exclusively, so an SVG that appeared since the plan was made
 * is not replaced either; with it, a partial file renamed over the old one (never half written).
 */
export async function writeOutput(file: string, svg: string, force: boolean): Promise<void> {
  try {
    if (!force) {
      await writeFile(file, svg, { flag: 'wx' });
      return;
    }
    const partial = `${file}.partial`;
    try {
      await writeFile(partial, svg);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  } catch (error) {
    throw new VectorizeError('internal_error', `cannot write ${file}: ${systemReason(error)}`);
  }
}

function failure(error: unknown): Outcome {
  if (isVectorizeError(error)) return { status: 'failed', code: error.code, message: error.message };
  return { status: 'failed', code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

export function systemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EEXIST') return 'it already exists';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0];
}
