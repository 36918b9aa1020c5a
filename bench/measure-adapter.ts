/**
 * In-process adapter for the shared harness (../shared/bench/measure.mjs `--module`): traces one
 * corpus file with our engine. measure.mjs times this call end to end (file read + decode + trace).
 *
 * Settings come from the environment so one adapter serves every run bench/engine.ts makes:
 *   VECTORIZE_BENCH_IMAGE_TYPE  `class` (default: the manifest's class, so the numbers measure the
 *                               tracer and not the classifier) or `auto`, or a fixed image type
 *   VECTORIZE_BENCH_TRACE_STYLE fill (default) | centerline
 */
import { readFile } from 'node:fs/promises';
import { vectorize } from '../engine/index.js';
import { parseTraceOptions } from '../engine/options.js';

export async function trace(inputPath: string, info: { width: number; height: number; class: string; id: string }): Promise<string> {
  const imageType = process.env.VECTORIZE_BENCH_IMAGE_TYPE ?? 'class';
  const options = parseTraceOptions({
    image_type: imageType === 'class' ? info.class : imageType,
    trace_style: process.env.VECTORIZE_BENCH_TRACE_STYLE ?? 'fill',
  });
  const result = await vectorize(new Uint8Array(await readFile(inputPath)), options);
  return result.svg;
}
