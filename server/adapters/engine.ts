/**
 * The engine as the server sees it: a header probe on the event loop (cheap, no pixels) and a
 * pool that runs whole traces elsewhere. Both are injected, so tests drive a fake engine.
 */
import type { ImageClass, ImageProbe, InputFormat, StageName, TraceOptions, TraceStats } from '../../engine/types.js';
import { isVectorizeError, VectorizeError } from '../../engine/errors.js';

export interface EngineTask {
  jobId: string;
  /**
   * `trace` (the default): the input is an uploaded image. `render`: the input is a kept geometry
   * (a VectorDocument as JSON) drawn again with `options.output`, nothing traced.
   */
  kind?: 'trace' | 'render';
  /** Absolute paths: the worker reads the upload and writes the SVG and the geometry itself. */
  inputPath: string;
  outputPath: string;
  /** Where the geometry is kept for re-renders; without it none is kept. */
  documentPath?: string;
  options: TraceOptions;
  maxPixels: number;
}

export interface EngineOutcome {
  /** null for a render: the class and the format are the first job's. */
  mode: ImageClass | null;
  width: number;
  height: number;
  megapixels: number;
  format: InputFormat | null;
  bytes: number;
  stats: TraceStats;
}

export interface EngineProgress {
  stage: StageName;
  fraction: number;
}

export interface EngineRun {
  /** Resolves once the SVG is on disk at outputPath; rejects with a VectorizeError. */
  done: Promise<EngineOutcome>;
  /** Stops the work now (the worker is terminated); `done` rejects with code `canceled`. */
  cancel(): void;
}

export interface EnginePool {
  readonly size: number;
  run(task: EngineTask, onProgress: (progress: EngineProgress) => void): EngineRun;
  close(): Promise<void>;
}

export interface ImageProber {
  probe(bytes: Uint8Array): Promise<ImageProbe>;
}

type ProbeFn = (bytes: Uint8Array) => Promise<ImageProbe>;

/**
 * The real prober: the engine's header-only probeImage (engine/index.ts once the orchestrator
 * lands, engine/decode before). Any non-vocabulary failure of a file that passed the magic-byte
 * check means the bytes cannot be read.
 */
export async function engineProber(): Promise<ImageProber> {
  let probe: ProbeFn | undefined;
  const orchestrator = '../../engine/index.js';
  try {
    probe = ((await import(orchestrator)) as { probeImage?: ProbeFn }).probeImage;
  } catch {
    probe = undefined;
  }
  probe ??= (await import('../../engine/decode/index.js')).probeImage;
  const probeFn = probe;
  return {
    async probe(bytes) {
      let info: ImageProbe;
      try {
        info = await probeFn(bytes);
      } catch (error) {
        if (isVectorizeError(error)) throw error;
        throw new VectorizeError('unreadable_file', 'The image could not be read.', {}, { cause: error });
      }
      if (!(info.width > 0 && info.height > 0)) throw new VectorizeError('unreadable_file', 'The image has no pixels.');
      return info;
    },
  };
}
