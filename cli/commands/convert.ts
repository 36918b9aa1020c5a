/**
 * `vectorize convert IN… [-o OUT] [options]`: traces images with the engine directly (no server,
 * no quota), docs/cli.md. The trace options are the API's form fields, validated by the same
 * parseTraceOptions, so a value the API refuses is refused here with the same message.
 *
 * One file: the SVG goes to stdout, or to OUT. Several inputs or a folder: a batch (cli/convert/):
 * folders walked, images found by their bytes, SVGs beside their images or under the folder OUT,
 * `--jobs` traces at a time, a progress report, and existing SVGs left alone unless --force.
 *
 * Exit codes: 0 done; 1 an input could not be traced (unreadable, unsupported, empty, too big);
 * 2 the command line is wrong (unknown option, bad value, no input). A single file's error is one
 * line on stderr, never a stack trace: `vectorize convert: <message> (<code>)`.
 */
import { availableParallelism } from 'node:os';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { VectorizeError, isVectorizeError } from '../../engine/errors.js';
import { parseTraceOptions } from '../../engine/options.js';
import type { ClassifierInfo, ClassifierSessionFactory } from '../../engine/classify/index.js';
import { DEFAULT_PLANS } from '../../server/plans.js';
import { parseCommandLine } from '../args.js';
import { readInput, runBatch, systemReason, writeOutput } from '../convert/batch.js';
import { planBatch } from '../convert/inputs.js';
import { BatchReport } from '../convert/report.js';
import type { CommandIo } from '../main.js';

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  force: { type: 'boolean', short: 'f' },
  jobs: { type: 'string', short: 'j' },
  'max-megapixels': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  'image-type': { type: 'string' },
  detail: { type: 'string' },
  gradients: { type: 'string' },
  smoothing: { type: 'string' },
  'trace-style': { type: 'string' },
  'close-seams': { type: 'string' },
  'max-colors': { type: 'string' },
  palette: { type: 'string' },
  background: { type: 'string' },
  'group-by': { type: 'string' },
  width: { type: 'string' },
  height: { type: 'string' },
  unit: { type: 'string' },
  dpi: { type: 'string' },
  'stroke-order': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The server's largest plan allows this many megapixels; the CLI refuses the same images by default. */
const DEFAULT_MAX_MEGAPIXELS = Math.max(...Object.values(DEFAULT_PLANS).map((plan) => plan.maxMegapixels));

const CONVERT_HELP = `Usage: vectorize convert IN… [-o OUT] [options]

Traces images (PNG, JPEG, WebP, AVIF or BMP) to SVG with the engine.
  One file:            the SVG goes to stdout, or to OUT.
  Several, or folders: folders are walked recursively and their images found by their bytes (other
                       files are skipped and counted); each SVG goes beside its image as NAME.svg,
                       or under the folder OUT with the folders' structure kept.
Existing SVGs are never overwritten unless --force.

Options:
  -o, --output OUT         the SVG file (one input) or the folder for the SVGs (created)
  -f, --force              overwrite existing SVGs
  -j, --jobs N             traces at a time                                   (default ${availableParallelism()}, the cores)
  --max-megapixels N       refuse larger images (megapixels_exceeded)         (default ${DEFAULT_MAX_MEGAPIXELS}, the largest plan's)
  -v, --verbose            also say which provider runs the classifier
  --image-type TYPE        auto | clipart | photo | scan | blueprint        (default auto)
  --detail D               low | medium | high, or a number 1-100           (default high)
  --smoothing S            off | light | strong | maximum, or a number 0-100 (default strong)
  --gradients G            auto | smooth | stepped                          (default smooth)
  --trace-style S          fill | centerline                                (default fill)
  --close-seams BOOL       true | false                                     (default true)

Output controls (docs/engine.md, "Output controls"):
  --max-colors N           at most N fill colours, 2-256 (gradient stops count)
  --palette LIST           snap every colour to the nearest of these, e.g. #112233,#ffffff (up to 64)
  --background B           keep | remove | #rrggbb (leave out the border's or that colour's shapes)
                                                                             (default keep)
  --group-by G             none | color (one Inkscape layer per colour)     (default none)
  --width W, --height H    the SVG's size in UNIT; one side given keeps the aspect
  --unit U                 px | mm | cm | in | pt                           (default px)
  --dpi N                  pixels per inch for physical units, 1-10000      (default 96)
  --stroke-order O         none | plotter (centerline: less pen-up travel)  (default none)
  -h, --help               show this help

A batch prints a progress bar on a terminal, one line per file elsewhere, and then
"converted N, skipped N (…), failed N (code N, …)".
Exit codes: 0 done (nothing failed), 1 a file could not be traced, 2 bad command line.
`;

const SMALL_IMAGE_PIXELS = 1_000_000;

/** Usage mistakes exit 2; everything about the file itself exits 1. */
const USAGE_CODES = new Set(['invalid_parameter']);

export async function run(args: string[], io: CommandIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine('convert', args, OPTIONS);
    if (values.help) {
      io.stdout.write(CONVERT_HELP);
      return 0;
    }
    if (positionals.length === 0) throw new VectorizeError('invalid_parameter', 'no input given; see `vectorize convert --help`');
    const options = parseTraceOptions({
      image_type: values['image-type'],
      detail: values.detail,
      smoothing: values.smoothing,
      gradients: values.gradients,
      trace_style: values['trace-style'],
      close_seams: values['close-seams'],
      max_colors: values['max-colors'],
      palette: values.palette,
      background: values.background,
      group_by: values['group-by'],
      width: values.width,
      height: values.height,
      unit: values.unit,
      dpi: values.dpi,
      stroke_order: values['stroke-order'],
    });
    const jobs = wholeNumber('jobs', values.jobs, availableParallelism(), 1, 256);
    const maxPixels = wholeNumber('max-megapixels', values['max-megapixels'], DEFAULT_MAX_MEGAPIXELS, 1, 1000) * 1e6;
    const force = values.force ?? false;
    const classifierUsed = () => sayProvider(io, values.verbose ?? false);
    if (options.imageType === 'auto') await startClassifier();

    const single = positionals.length === 1 && !(await isFolder(positionals[0]));
    if (single) {
      const [input] = positionals;
      const output = values.output === undefined ? undefined : await singleOutput(input, values.output, force);
      const bytes = await readInput(input);
      // imported here so `vectorize --help` and option errors never load sharp or the engine
      const { vectorize, probeImage, fitConcurrency } = await import('../../engine/index.js');
      // In a fresh process a fitting thread must load the engine again before it helps; below a
      // megapixel the trace is over first (a 0.25 MP fit stage took twice as long with them).
      const probe = await probeImage(bytes, { maxPixels }).catch(() => null);
      if (probe && probe.width * probe.height < SMALL_IMAGE_PIXELS) fitConcurrency(0);
      const result = await vectorize(bytes, options, { maxPixels });
      if (options.imageType === 'auto') await classifierUsed();
      if (output === undefined) io.stdout.write(result.svg);
      else await writeOutput(output, result.svg, force);
      return 0;
    }

    const outDir = values.output === undefined ? undefined : await batchOutputFolder(values.output);
    const plan = await planBatch(positionals, outDir, force);
    const report = new BatchReport(io.stdout, (io.stdout as NodeJS.WriteStream).isTTY === true);
    report.start(plan.images.length, plan.skipped, plan.missing);
    await runBatch(plan.images, { options, maxPixels, jobs, force, onClassifierUsed: classifierUsed }, (image, outcome) =>
      report.result(image, outcome),
    );
    return report.finish();
  } catch (error) {
    return fail(io, 'convert', error);
  }
}

/** Prints one line, `vectorize <command>: <message> (<code>)`, and returns the exit code. */
export function fail(io: CommandIo, command: string, error: unknown): number {
  const known = isVectorizeError(error);
  const code = known ? error.code : 'internal_error';
  const message = known ? error.message : firstLine(error);
  io.stderr.write(`vectorize ${command}: ${message.replace(/\s*\n\s*/g, ' ')} (${code})\n`);
  return USAGE_CODES.has(code) ? 2 : 1;
}

export { readInput };

/**
 * Opens the classifier's session now, on its own thread (../convert/classifier-thread.ts), while
 * this thread goes on loading the engine and decoding. A failure here is not reported: the
 * classify step opens it again and fails with the error. The classifier announces its provider on
 * every first use, at length; the CLI says it once, short (sayProvider), so the engine's own line
 * is turned off.
 */
let classifierSessions: ClassifierSessionFactory | null = null;
async function startClassifier(): Promise<void> {
  const [{ configureClassifier, getClassifierInfo }, { classifierThread }, { plainMlpSessionFactory }] = await Promise.all([
    import('../../engine/classify/index.js'),
    import('../convert/classifier-thread.js'),
    import('../../engine/classify/onnx-mlp.js'),
  ]);
  // one thread for the process: a command run again in it (the tests) opens a new session there
  classifierSessions ??= plainOnCpu(plainMlpSessionFactory, classifierThread());
  configureClassifier({ log: () => {}, sessionFactory: classifierSessions });
  getClassifierInfo().catch(() => {});
}

/**
 * On the CPU the model runs in plain JavaScript (engine/classify/onnx-mlp.ts): loading
 * onnxruntime for its few thousand multiply-adds was a third of a second of a cold call's CPU.
 * CUDA, or a model the plain evaluator cannot run, opens onnxruntime on its thread; so does a
 * model file that cannot be read, to fail with onnxruntime's own message as before.
 */
export function plainOnCpu(plain: ClassifierSessionFactory, onnxRuntime: ClassifierSessionFactory): ClassifierSessionFactory {
  return async (modelPath, provider) => {
    if (provider === 'cpu') {
      const session = await plain(modelPath, provider).catch(() => null);
      if (session) return session;
    }
    return onnxRuntime(modelPath, provider);
  };
}

/**
 * The expected case (CPU where no CUDA build or library is installed, or CPU asked for) is said
 * only with --verbose; a GPU, or a CUDA attempt that failed, is always said.
 */
async function sayProvider(io: CommandIo, verbose: boolean): Promise<void> {
  const { getClassifierInfo } = await import('../../engine/classify/index.js');
  const info = await getClassifierInfo();
  const line = providerLine(info);
  if (line.expected && !verbose) return;
  io.stderr.write(`${line.text}\n`);
}

function providerLine(info: ClassifierInfo): { text: string; expected: boolean } {
  const cudaFailed = info.provider === 'cpu' && (info.requested === 'cuda' || /unavailable/.test(info.fallbackReason ?? ''));
  if (cudaFailed)
    return {
      text: `classifier: cpu (CUDA failed: ${(info.fallbackReason ?? '').replace(/; using CPU$/, '').slice(0, 120)})`,
      expected: false,
    };
  return { text: `classifier: ${info.provider}`, expected: info.provider === 'cpu' };
}

function wholeNumber(option: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max))
    throw new VectorizeError(
      'invalid_parameter',
      `--${option} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}`,
      { field: option },
    );
  return n;
}

async function isFolder(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** -o for one input: a file path, or an existing folder (then NAME.svg inside it). */
async function singleOutput(input: string, output: string, force: boolean): Promise<string> {
  const target = output.endsWith('/') || (await isFolder(output)) ? path.join(output, `${path.parse(input).name}.svg`) : output;
  const folder = path.dirname(target);
  if (!(await isFolder(folder)))
    throw new VectorizeError('invalid_parameter', `the folder ${folder} does not exist (for -o ${output})`, { field: 'output' });
  if (
    !force &&
    (await stat(target).then(
      () => true,
      () => false,
    ))
  )
    throw new VectorizeError('invalid_parameter', `${target} already exists; --force overwrites it`, { field: 'output' });
  return target;
}

/** -o for a batch is a folder, made if missing; a file there is a mistake. */
async function batchOutputFolder(output: string): Promise<string> {
  const found = await stat(output).catch(() => null);
  if (found && !found.isDirectory())
    throw new VectorizeError('invalid_parameter', `-o ${output} is a file; with several inputs or a folder, OUT is a folder`, {
      field: 'output',
    });
  if (!found) {
    try {
      await mkdir(output, { recursive: true });
    } catch (error) {
      throw new VectorizeError('invalid_parameter', `cannot create the folder ${output}: ${systemReason(error)}`, { field: 'output' });
    }
  }
  return output;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
