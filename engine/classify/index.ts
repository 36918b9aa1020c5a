/**
 * Classify stage: which preset family (clip art, photo, scan, blueprint) fits the image.
 *
 * The fixed preprocessing of ./features.ts turns the image into a short feature vector; a small
 * MLP (models/classifier.onnx, trained by models/train.ts) scores the four classes through
 * onnxruntime. The ONNX session is a thin injected adapter (ClassifierSessionFactory): the
 * default opens onnxruntime-node, tests inject their own. One session is opened lazily and reused
 * for the life of the process (or worker thread: module state is per worker).
 *
 * Device: VECTORIZE_DEVICE=auto|cuda|cpu. `auto` and `cuda` both try the CUDA execution provider
 * first and fall back to the CPU one when opening it throws (no GPU, no CUDA libraries); the
 * fallback is logged once and reported by getClassifierInfo(), so /healthz and the CLI can say
 * which provider really runs. A forced `cuda` falls back too: a classifier on CPU is slower, not
 * wrong, and refusing to trace would be worse. `auto` first looks for the CUDA provider library
 * where onnxruntime-node loads it from (its own bin folder, filled by its install script only when
 * asked for CUDA) and skips the attempt when the file is absent: trying anyway makes onnxruntime
 * print a native "Failed to load libonnxruntime_providers_shared.so" line on every CPU-only box.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VectorizeError } from '../errors.js';
import { IMAGE_CLASSES, type ImageClass, type RgbaImage } from '../types.js';
import { FEATURE_COUNT, extractFeatures } from './features.js';

export { FEATURE_COUNT, FEATURE_NAMES, extractFeatures } from './features.js';

const DEVICE_REQUESTS = ['auto', 'cuda', 'cpu'] as const;
type DeviceRequest = (typeof DEVICE_REQUESTS)[number];
export type ExecutionProvider = 'cuda' | 'cpu';

interface ClassifyResult {
  class: ImageClass;
  scores: Record<ImageClass, number>;
  ms: number;
  provider: ExecutionProvider;
}

export interface ClassifierInfo {
  provider: ExecutionProvider;
  model: string;
  requested: DeviceRequest;
  fallbackReason?: string;
}

/** The ONNX session as the classifier needs it: feature rows in, class probabilities out. */
export interface ClassifierSession {
  readonly provider: ExecutionProvider;
  /** `features` holds `rows` × FEATURE_COUNT values; returns rows × 4 probabilities. */
  run(features: Float32Array, rows: number): Promise<Float32Array>;
}

/** Opens a session on exactly one provider; throws when that provider cannot run here. */
export type ClassifierSessionFactory = (modelPath: string, provider: ExecutionProvider) => Promise<ClassifierSession>;

interface ClassifierConfig {
  device: DeviceRequest;
  modelPath: string;
  sessionFactory: ClassifierSessionFactory;
  log: (line: string) => void;
  /** Where onnxruntime would load its CUDA provider library from, or null where it has none. */
  cudaProviderLibrary: () => string | null;
  /** Whether that file is there (injected so tests can say either). */
  fileExists: (path: string) => boolean;
}

/** The default adapter: onnxruntime-node, imported on first use so loading the engine stays cheap. */
export const onnxRuntimeSessionFactory: ClassifierSessionFactory = async (modelPath, provider) => {
  const ort = await import('onnxruntime-node');
  // onnxruntime prints its own failure to load the CUDA provider; our fallback line says it once.
  ort.env.logLevel = 'fatal';
  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: [provider],
    // 4 = fatal only: a missing CUDA library is reported by our fallback message, not ORT's.
    logSeverityLevel: 4,
    graphOptimizationLevel: 'all',
  });
  return {
    provider,
    async run(features, rows) {
      const outputs = await session.run({ features: new ort.Tensor('float32', features, [rows, FEATURE_COUNT]) });
      return outputs.scores.data as Float32Array;
    },
  };
};

/**
 * The CUDA provider library onnxruntime-node would load: it sits beside libonnxruntime in the
 * package's bin/napi-v6/<platform>/<arch> folder (script/install.js puts it there when installed
 * with ONNXRUNTIME_NODE_INSTALL=cuda12). Null where onnxruntime-node ships no CUDA build.
 */
export function defaultCudaProviderLibrary(): string | null {
  const file =
    process.platform === 'linux'
      ? 'libonnxruntime_providers_cuda.so'
      : process.platform === 'win32'
        ? 'onnxruntime_providers_cuda.dll'
        : null;
  if (!file) return null;
  try {
    const main = createRequire(import.meta.url).resolve('onnxruntime-node');
    return join(dirname(main), '..', 'bin', 'napi-v6', process.platform, process.arch, file);
  } catch {
    return null;
  }
}

function defaultModelPath(): string {
  // Source tree: engine/classify → ../../models; built tree: dist/engine/classify → ../../../models.
  const candidates = ['../../models/classifier.onnx', '../../../models/classifier.onnx'].map((p) =>
    fileURLToPath(new URL(p, import.meta.url)),
  );
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

export function parseDeviceRequest(value: string | undefined): DeviceRequest {
  if (value === undefined || value === '') return 'auto';
  if ((DEVICE_REQUESTS as readonly string[]).includes(value)) return value as DeviceRequest;
  throw new VectorizeError('internal_error', `VECTORIZE_DEVICE must be one of auto, cuda, cpu (got "${value}").`, {
    variable: 'VECTORIZE_DEVICE',
    value,
  });
}

let overrides: Partial<ClassifierConfig> = {};
let opened: Promise<{ session: ClassifierSession; info: ClassifierInfo }> | null = null;

/**
 * Sets the device, model file, session factory or logger (the server passes its frozen config at
 * boot; tests inject a factory). Drops the open session so the next call opens a new one.
 * Calling it with no argument restores the defaults.
 */
export function configureClassifier(config: Partial<ClassifierConfig> = {}): void {
  overrides = { ...config };
  opened = null;
}

function resolveConfig(): ClassifierConfig {
  return {
    device: overrides.device ?? parseDeviceRequest(process.env.VECTORIZE_DEVICE),
    modelPath: overrides.modelPath ?? defaultModelPath(),
    sessionFactory: overrides.sessionFactory ?? onnxRuntimeSessionFactory,
    log: overrides.log ?? ((line) => process.stderr.write(`${line}\n`)),
    cudaProviderLibrary: overrides.cudaProviderLibrary ?? defaultCudaProviderLibrary,
    fileExists: overrides.fileExists ?? existsSync,
  };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // ORT appends ANSI-coloured log lines to its messages; the first sentence is the useful part.
  return message
    .split('\n')[0]
    .replace(/\u001b\[[0-9;]*m/g, '')
    .slice(0, 300);
}

async function openSession(): Promise<{ session: ClassifierSession; info: ClassifierInfo }> {
  const config = resolveConfig();
  let session: ClassifierSession;
  let fallbackReason: string | undefined;
  const cudaLibrary = config.device === 'auto' ? config.cudaProviderLibrary() : undefined;
  if (config.device === 'cpu') {
    session = await config.sessionFactory(config.modelPath, 'cpu');
  } else if (config.device === 'auto' && (cudaLibrary === null || !config.fileExists(cudaLibrary!))) {
    // A forced `cuda` still tries (and says why it failed); `auto` does not wake the native loader for nothing.
    fallbackReason =
      cudaLibrary === null
        ? `onnxruntime-node has no CUDA build for ${process.platform}; using CPU`
        : `CUDA provider library not installed (${cudaLibrary}); using CPU`;
    session = await config.sessionFactory(config.modelPath, 'cpu');
  } else {
    try {
      session = await config.sessionFactory(config.modelPath, 'cuda');
    } catch (error) {
      fallbackReason = `CUDA execution provider unavailable (${firstLine(error)}); using CPU`;
      session = await config.sessionFactory(config.modelPath, 'cpu');
    }
  }
  const info: ClassifierInfo = { provider: session.provider, model: config.modelPath, requested: config.device };
  if (fallbackReason) info.fallbackReason = fallbackReason;
  config.log(
    `classifier: onnxruntime on ${info.provider} (VECTORIZE_DEVICE=${info.requested})${fallbackReason ? `: ${fallbackReason}` : ''}`,
  );
  return { session, info: Object.freeze(info) };
}

function ready(): Promise<{ session: ClassifierSession; info: ClassifierInfo }> {
  if (!opened) {
    opened = openSession();
    // A failed open (missing model file) is not cached: the next call tries again.
    opened.catch(() => {
      opened = null;
    });
  }
  return opened;
}

/** Which provider runs the classifier, and why, opening the session if needed. */
export async function getClassifierInfo(): Promise<ClassifierInfo> {
  return (await ready()).info;
}

function toResult(probabilities: ArrayLike<number>, offset: number): Pick<ClassifyResult, 'class' | 'scores'> {
  const scores = {} as Record<ImageClass, number>;
  let best: ImageClass = IMAGE_CLASSES[0];
  IMAGE_CLASSES.forEach((name, i) => {
    scores[name] = probabilities[offset + i];
    if (scores[name] > scores[best]) best = name;
  });
  return { class: best, scores };
}

export async function classifyImage(image: RgbaImage): Promise<ClassifyResult> {
  const started = performance.now();
  const { session } = await ready();
  const features = extractFeatures(image);
  const probabilities = await session.run(features, 1);
  return { ...toResult(probabilities, 0), ms: performance.now() - started, provider: session.provider };
}
