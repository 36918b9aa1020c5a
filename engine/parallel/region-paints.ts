/**
 * Colouring the regions (engine/svg/compose.ts paintRegions: mean colours, and gradient fits where
 * gradients=smooth) on a worker thread while this thread traces the boundary graph. Both need only
 * the finished segmentation, so on a machine with a spare core they overlap instead of running one
 * after the other. The worker plans the paints (mean colours, each gradient candidate's samples)
 * into shared memory and then fits the candidates one by one, taking the next from a shared
 * counter; this thread, once its own work is done, takes from the same counter instead of waiting
 * (on a small drawing the fits outlast the boundary graph). A fit is a function of its samples
 * alone, so the paints, and the SVG, do not depend on which thread made them.
 */
import type { PreparedImage } from '../prepare/index.js';
import type { Segmentation } from '../segment/index.js';
import type { EngineSettings } from '../settings.js';
import type { GradientFill } from '../fit/gradient.js';
import { withImageInKernel } from '../wasm/gradient-fit.js';
import { fitCandidateGradient, paintRegions, planRegionPaints, withGradients, type PaintPlan, type RegionPaints } from '../svg/compose.js';
import { spareSharedBuffers } from '../scratch.js';
import {
  fitConcurrency,
  MIN_REGION_JOB_PIXELS,
  openOneReplyJob,
  sharedLabels,
  waitAsync,
  type JobErrorReply,
  type RegionJobMessage,
} from './pool.js';

export interface PaintJobMessage extends RegionJobMessage {
  type: 'paint';
  gradients: EngineSettings['gradients'];
  /** The plan, in shared memory (READY and the rest below). */
  plan: Int32Array;
  /** Tests only: the worker takes no fit before the tracing thread has taken this many (RegionPaintOptions.hereTakes). */
  hereTakes: number;
}

interface PaintReply {
  type: 'paint';
  job: number;
  /** Every region's mean colour. */
  paint: string[];
  /** The gradient candidates the worker fitted: their indices and fills. */
  fitted: number[];
  fills: Array<GradientFill | null>;
}

/**
 * The shared plan: a header, then the candidates, their sample offsets and the samples
 * (planRegionPaints' arrays). READY is set once the arrays are written; NEXT is the next candidate
 * to fit (Atomics.add by whichever thread takes it).
 */
const READY = 0,
  NEXT = 1,
  CANDIDATES = 2,
  SAMPLES = 3,
  HEADER = 4;

/** Int32s a plan may need: every region a candidate, every pixel a sample. */
function planLength(regionCount: number, pixels: number): number {
  return HEADER + regionCount + (regionCount + 1) + pixels;
}

function planViews(plan: Int32Array, candidates: number, samples: number): Pick<PaintPlan, 'candidates' | 'firstSample' | 'sampled'> {
  return {
    candidates: plan.subarray(HEADER, HEADER + candidates),
    firstSample: plan.subarray(HEADER + candidates, HEADER + 2 * candidates + 1),
    sampled: plan.subarray(HEADER + 2 * candidates + 1, HEADER + 2 * candidates + 1 + samples),
  };
}

/**
 * Fits the plan's candidates not yet taken, one at a time from the shared counter, until none is
 * left or `most` are taken; returns their indices and fills.
 */
function takeFits(
  image: Pick<PreparedImage, 'source'>,
  plan: PaintPlan,
  counter: Int32Array,
  settings: Pick<EngineSettings, 'gradients'>,
  most = Infinity,
): { fitted: number[]; fills: Array<GradientFill | null> } {
  const fitted: number[] = [],
    fills: Array<GradientFill | null> = [];
  // the fits take their samples from the image held in the fit kernel (engine/wasm/gradient-fit.ts)
  withImageInKernel(image.source, () => {
    for (let taken = 0; taken < most; taken++) {
      const k = Atomics.add(counter, NEXT, 1);
      if (k >= plan.candidates.length) break;
      fitted.push(k);
      fills.push(fitCandidateGradient(image, plan, k, settings));
    }
  });
  return { fitted, fills };
}

interface RegionPainting {
  /** True when a worker computes the paints: collect them after this thread's other work. */
  readonly onWorker: boolean;
  /** The paints (computed here, now, unless a worker has them). */
  finish(): Promise<RegionPaints>;
  /** Lets go of the worker's job when the trace ends early (a cancel or an error); harmless after finish(). */
  abandon(): void;
}

interface RegionPaintOptions {
  /** Workers available (default fitConcurrency(); 0 = this thread). */
  workers?: number;
  /** Tests only: finish() waits for the worker's plan and takes this many fits before the worker takes any. */
  hereTakes?: number;
}

export function startRegionPaints(
  image: PreparedImage,
  segmentation: Segmentation,
  settings: EngineSettings,
  options: RegionPaintOptions = {},
): RegionPainting {
  const workers = options.workers ?? fitConcurrency();
  // Without gradients the colouring is one pass over the pixels: not worth a copy of them.
  if (workers <= 0 || !settings.gradients.enabled || segmentation.labels.length < MIN_REGION_JOB_PIXELS) {
    return {
      onWorker: false,
      finish: async () => paintRegions(image, segmentation, settings),
      abandon() {},
    };
  }

  const { job, worker, reply, end: endJob } = openOneReplyJob<PaintReply>('painting');
  const { width, height, data } = image.source;
  const source = sharedPixels(data);
  const planBuffer = sparePlans.take(4 * planLength(segmentation.regionCount, segmentation.labels.length));
  const plan = new Int32Array(planBuffer, 0, planLength(segmentation.regionCount, segmentation.labels.length));
  // a kept buffer holds the last job's header
  Atomics.store(plan, NEXT, 0);
  Atomics.store(plan, READY, 0);
  // Given back only once the worker has replied: a worker still on an abandoned job would write
  // into the next job's plan.
  let replied = false;
  const end = () => {
    endJob();
    source.release();
    if (replied) sparePlans.giveBack(planBuffer);
  };
  const message: PaintJobMessage = {
    type: 'paint',
    job,
    width,
    height,
    channels: image.source.channels ?? 4,
    data: source.pixels,
    labels: sharedLabels(segmentation.labels),
    area: segmentation.area,
    transparent: segmentation.transparent,
    regionCount: segmentation.regionCount,
    gradients: settings.gradients,
    plan,
    hereTakes: options.hereTakes ?? 0,
  };
  worker.postMessage(message);
  // this thread's fits and the worker's, in candidate order
  const merged = async (
    here: { fitted: number[]; fills: Array<GradientFill | null> },
    replying: Promise<PaintReply>,
  ): Promise<RegionPaints> => {
    const answer = await replying;
    replied = true;
    const planned = sharedPlan(plan, answer.paint);
    const fills = new Array<GradientFill | null>(planned.candidates.length).fill(null);
    for (const part of [here, answer]) part.fitted.forEach((k, i) => (fills[k] = part.fills[i]));
    return withGradients(planned, fills);
  };
  return {
    onWorker: true,
    async finish() {
      try {
        if (options.hereTakes) {
          while (Atomics.load(plan, READY) !== 1) Atomics.wait(plan, READY, 0, 100);
          const first = takeFits(image, sharedPlan(plan, []), plan, settings, options.hereTakes);
          Atomics.notify(plan, NEXT);
          return await merged(first, reply());
        }
        // The fits the worker has not taken yet, here, once its plan is written (waited for
        // without blocking: the reply, or a failure, may come first).
        const answer = reply();
        answer.catch(() => undefined); // awaited in merged(); a failure must not go unhandled meanwhile
        if (Atomics.load(plan, READY) !== 1) {
          const ready = waitAsync(plan, READY, 0);
          if (ready.async) await Promise.race([ready.value, answer]);
        }
        return await merged(
          Atomics.load(plan, READY) === 1 ? takeFits(image, sharedPlan(plan, []), plan, settings) : { fitted: [], fills: [] },
          answer,
        );
      } finally {
        end();
      }
    },
    abandon: end,
  };
}

/**
 * The shared buffer paint jobs copy their pixels into, kept for the next job on this thread (faulting
 * in a megabyte of fresh pages took longer than the copy). A job holds it until it is finished or
 * abandoned; an abandoned job's worker may still be reading, but its reply is thrown away.
 */
const spareSource = spareSharedBuffers(32 << 20);
/** The shared buffer of a paint job's plan, kept the same way (4 bytes a pixel and two a region). */
const sparePlans = spareSharedBuffers(64 << 20);

/** The plan the worker wrote into `plan` (its mean colours `paint` come with its reply). */
function sharedPlan(plan: Int32Array, paint: string[]): PaintPlan {
  return { paint, ...planViews(plan, plan[CANDIDATES], plan[SAMPLES]) };
}

function sharedPixels(values: Uint8Array): { pixels: Uint8Array; release(): void } {
  const buffer = spareSource.take(values.length);
  const pixels = new Uint8Array(buffer, 0, values.length);
  pixels.set(values);
  let released = false;
  return {
    pixels,
    release() {
      if (released) return;
      released = true;
      spareSource.giveBack(buffer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the worker side (engine/parallel/fit-worker.ts calls this for every paint job it is sent)

export function runPaintJob(message: PaintJobMessage, post: (reply: PaintReply | JobErrorReply) => void): void {
  const { width, height, data, channels, labels, area, transparent, regionCount, gradients, job, plan } = message;
  const image = { source: { width, height, data, channels } };
  const planned = planRegionPaints(image, { labels, area, transparent, regionCount }, { gradients }, (candidates, samples) => {
    plan[CANDIDATES] = candidates;
    plan[SAMPLES] = samples;
    return planViews(plan, candidates, samples);
  });
  // the arrays are written: the tracing thread may take fits from here on
  Atomics.store(plan, READY, 1);
  Atomics.notify(plan, READY);
  const waitFor = Math.min(message.hereTakes, planned.candidates.length);
  for (let next = Atomics.load(plan, NEXT); next < waitFor; next = Atomics.load(plan, NEXT)) Atomics.wait(plan, NEXT, next, 100);
  const { fitted, fills } = takeFits(image, planned, plan, { gradients });
  post({ type: 'paint', job, paint: planned.paint, fitted, fills });
}
