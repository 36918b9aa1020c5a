/**
 * The engine's one orchestrator. It reads top to bottom:
 *
 *   decode → classify (skipped when image_type is given) → settings (engineSettingsFor) →
 *   prepare → segment → boundary graph → sub-pixel edges → fit → write
 *
 * trace_style=centerline hands the decoded image to the centerline tracer instead. Stage weights
 * turn each stage's own 0..1 into whole-trace progress; the AbortSignal is checked between stages
 * and inside the long loops. Same bytes + options in, byte-identical SVG out, whatever the number
 * of threads; the only module state is per thread (the pool of workers that smooth, join gradient
 * bands, fit chains and colour regions, engine/parallel; the scratch slots and spare buffers of
 * engine/scratch.ts), so it runs as well inside a worker thread.
 */
import { classifyImage } from './classify/index.js';
import { toRgba } from './decode/index.js';
import { buildBoundaryGraph } from './boundary/index.js';
import { placeSubpixelEdges } from './boundary/subpixel.js';
import { parseTraceOptions } from './options.js';
import { releaseLabels } from './segment/index.js';
import { halveGraph } from './ink/upsample.js';
import { engineSettingsFor } from './settings.js';
import { checkAbort, type StageContext } from './stage.js';
import { decodeForTrace } from './budget.js';
import { startChainFits } from './parallel/chain-fits.js';
import { startRegionPaints } from './parallel/region-paints.js';
import { segmentSharingJoins } from './parallel/gradient-joins.js';
import { prepareInBands } from './parallel/banded-denoise.js';
import { composeSharingShapes } from './parallel/shape-writing.js';
import { releaseSmoothed } from './prepare/index.js';
import { VECTOR_DOCUMENT_VERSION, type FillDocument } from './svg/document.js';
import { renderDocument } from './svg/render.js';
import {
  DEFAULT_OUTPUT_CONTROLS,
  DEFAULT_TRACE_OPTIONS,
  ENGINE_MAX_PIXELS,
  type ImageClass,
  type StageName,
  type TraceHooks,
  type TraceOptions,
  type TraceResult,
} from './types.js';

export { probeImage, decodeImage, detectFormat } from './decode/index.js';
export { classifyImage } from './classify/index.js';
export { parseTraceOptions, renderDocument };
export { VECTOR_DOCUMENT_VERSION } from './svg/document.js';
export { engineSettingsFor } from './settings.js';
export { fitConcurrency } from './parallel/chain-fits.js';

/** Share of the whole trace each stage takes, measured on the corpus (segment and fit dominate). */
const STAGE_WEIGHTS: Record<StageName, number> = {
  decode: 0.05,
  classify: 0.05,
  prepare: 0.1,
  segment: 0.35,
  fit: 0.3,
  write: 0.15,
};
const STAGE_ORDER: StageName[] = ['decode', 'classify', 'prepare', 'segment', 'fit', 'write'];

export async function vectorize(input: Uint8Array, options: Partial<TraceOptions> = {}, hooks: TraceHooks = {}): Promise<TraceResult> {
  // a kept job's options from before the output controls have none: draw it as then
  const opts: TraceOptions = { ...DEFAULT_TRACE_OPTIONS, ...options, output: { ...DEFAULT_OUTPUT_CONTROLS, ...options.output } };
  const ms: Partial<Record<StageName, number>> = {};
  let reported = 0;
  const stage = (name: StageName): StageContext & { done(): void } => {
    const before = STAGE_ORDER.slice(0, STAGE_ORDER.indexOf(name)).reduce((s, n) => s + STAGE_WEIGHTS[n], 0);
    const started = performance.now();
    checkAbort(hooks);
    const report = (fraction: number) => {
      const overall = Math.min(1, before + STAGE_WEIGHTS[name] * Math.max(0, Math.min(1, fraction)));
      if (overall < reported) return; // progress never goes backwards
      reported = overall;
      hooks.onProgress?.({ stage: name, fraction: overall });
    };
    return {
      signal: hooks.signal,
      progress: report,
      done() {
        ms[name] = Math.round((performance.now() - started) * 10) / 10;
        report(1);
      },
    };
  };

  let step = stage('decode');
  const { image, display } = await decodeForTrace(input, hooks.maxPixels ?? ENGINE_MAX_PIXELS);
  step.done();

  step = stage('classify');
  const mode: ImageClass = opts.imageType === 'auto' ? (await classifyImage(toRgba(image))).class : opts.imageType;
  step.done();
  const base = {
    mode,
    width: display.width,
    height: display.height,
    megapixels: (display.width * display.height) / 1e6,
    format: image.format,
  };

  if (opts.traceStyle === 'centerline') {
    step = stage('segment');
    const { traceCenterline } = await import('./centerline/index.js');
    const traced = await traceCenterline(toRgba(image), { signal: hooks.signal, onProgress: (f: number) => step.progress(f) });
    step.done();
    const write = stage('write');
    const document = { ...traced.document, displayWidth: display.width, displayHeight: display.height };
    const { svg, stats } = renderDocument(document, opts.output);
    write.done();
    return { ...base, svg, stats: { ...stats, ms }, document };
  }

  const settings = engineSettingsFor(opts, mode, { lossy: image.lossy });

  step = stage('prepare');
  const prepared = await prepareInBands(image, settings.prepare, step);
  step.done();

  step = stage('segment');
  // With a spare core, a worker joins some of the gradient bands' components (engine/parallel/gradient-joins.ts).
  // Scans and drawings: ink against paper, one region per ink (engine/segment/line-art.ts), thin
  // ink traced at twice the size. The centerline and line-art modules are imported when used: a
  // cold one-file `vectorize convert` of clip art or a photo need not load them (about a fifth of
  // the engine's module loading).
  const {
    segmentation,
    image: traced,
    scale,
  } = settings.lineArt
    ? (await import('./segment/line-art.js')).segmentInk(prepared, settings.lineArt, step)
    : { segmentation: await segmentSharingJoins(prepared, settings.segment, step), image: prepared, scale: 1 };
  step.done();

  step = stage('fit');
  // With a spare core, a worker colours the regions (gradient fits) while this thread traces the
  // boundaries; the chain fits are shared out after that. Without one, everything runs here.
  const painting = startRegionPaints(traced, segmentation, settings);
  let painted;
  try {
    const graph = buildBoundaryGraph(segmentation.labels, traced.width, traced.height, segmentation.regionCount, step);
    // anti-aliased edges move off the pixel cracks to where the coverage crosses one half
    placeSubpixelEdges(graph, traced, segmentation);
    if (scale === 2) halveGraph(graph, image.width, image.height);
    step.progress(0.2);
    // Worker threads start fitting the chains at once; this thread colours the regions meanwhile
    // (unless a worker does), then fits what the workers have not taken.
    const fitting = startChainFits(graph, segmentation.transparent, {
      fit: settings.fit,
      guardChains: settings.exactness.guardChains,
      guardSlack: settings.exactness.guardSlack,
      exactCracks: settings.exactness.exactCracks,
    });
    const paintedHere = painting.onWorker ? null : await painting.finish();
    const fitted = await fitting.finish(step);
    const paints = paintedHere ?? (await painting.finish());
    // the shapes' path data is written on the workers too (they are idle by now)
    painted = await composeSharingShapes(traced, segmentation, graph, paints, fitted, settings, step);
  } finally {
    painting.abandon();
    // nothing reads the labels or the denoised pixels after composing: the next trace on this thread fills them again
    releaseLabels(segmentation.labels);
    releaseSmoothed(prepared.rgb);
  }
  step.done();

  step = stage('write');
  const document: FillDocument = {
    version: VECTOR_DOCUMENT_VERSION,
    style: 'fill',
    width: image.width,
    height: image.height,
    displayWidth: display.width,
    displayHeight: display.height,
    gradients: painted.document.gradients,
    items: painted.document.items,
  };
  const { svg, stats } = renderDocument(document, opts.output);
  step.done();

  return { ...base, svg, stats: { ...stats, ms }, document };
}
