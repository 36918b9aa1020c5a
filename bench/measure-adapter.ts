/**
 * In-process adapter for the shared harness (../shared/bench/measure.mjs `--module`): traces one
 * corpus file with our engine. measure.mjs times this call end to end (file read + decode + trace).
 *
 * Settings come from the environment so one adapter serves every run bench/engine.ts makes:
 *   VECTORIZE_BENCH_IMAGE_TYPE  `class` (default: the manifest's class, so the numbers measure the
 *                               tracer and not the classifier) or `auto`, or a fixed image type
 *   VECTORIZE_BENCH_TRACE_STYLE fill (default) | centerline
 *   VECTORIZE_BENCH_WARMUP      JSON list of {file, class}: traced once, untimed, when the harness
 *                               loads this module (bench/engine.ts sets it unless --cold)
 *   VECTORIZE_BENCH_ENGINE      folder of tsc's output of engine/ to trace with (bench/engine.ts
 *                               sets it unless --source); unset: the TypeScript in ../engine
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Engine = typeof import('../engine/index.js') & typeof import('../engine/options.js');
const compiled = process.env.VECTORIZE_BENCH_ENGINE;
const { vectorize, parseTraceOptions } = (
  compiled
    ? {
        ...(await import(pathToFileURL(path.join(compiled, 'index.js')).href)),
        ...(await import(pathToFileURL(path.join(compiled, 'options.js')).href)),
      }
    : { ...(await import('../engine/index.js')), ...(await import('../engine/options.js')) }
) as Engine;

export async function trace(inputPath: string, info: { class: string }): Promise<string> {
  const imageType = process.env.VECTORIZE_BENCH_IMAGE_TYPE ?? 'class';
  const options = parseTraceOptions({
    image_type: imageType === 'class' ? info.class : imageType,
    trace_style: process.env.VECTORIZE_BENCH_TRACE_STYLE ?? 'fill',
  });
  const result = await vectorize(new Uint8Array(await readFile(inputPath)), options);
  return result.svg;
}

// One untimed pass over the images about to be measured: V8 compiles the engine's hot functions
// after a few traces, so without it the first class the harness measures pays that compile time
// for all of them (a server has long since paid it).
for (const w of JSON.parse(process.env.VECTORIZE_BENCH_WARMUP ?? '[]') as { file: string; class: string }[]) await trace(w.file, w);
