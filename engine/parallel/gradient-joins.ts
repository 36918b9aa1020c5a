/**
 * Joining gradient bands (engine/segment/gradient-bands.ts) on this thread and a worker at once.
 *
 * The soft boundaries fall into connected components whose joins never meet, each joined in the
 * order of the one sorted list, so which thread joins a component cannot change its outcome: the
 * labels, and the SVG, are the same with any number of threads. During segmentation the worker is
 * otherwise idle.
 *
 * The components are split into shares of about as many pixels, one per thread. A thread takes a
 * share (Atomics.add on a shared counter), measures its regions' colour moments and lists their
 * pixels into shared memory (a pass over the labels that skips the other shares' regions), then
 * joins its components, most pairs first, taking each from the share's own counter; with its share
 * done it takes the components left in the others. Each thread writes the group every region of
 * its components ends in to a shared map; this thread waits until every component taken is done
 * and renumbers. A thread that is slow to start (a worker starved of a core) finds its share taken
 * and joined by the other, so this thread waits only for work a worker has begun.
 *
 * A worker that throws or dies turns the trace into VectorizeError('internal_error') (./pool.ts).
 */
import type { PreparedImage } from '../prepare/index.js';
import {
  identityMap,
  joinComponents,
  joinGradientBands,
  measureMoments,
  numberSlots,
  MOMENT_BLOCK,
  planGradientJoins,
  renumberJoined,
  type GradientBandSettings,
  type JoinPlan,
  type MomentTables,
} from '../segment/gradient-bands.js';
import { segmentUnjoined, type Segmentation } from '../segment/index.js';
import type { RegionLabels } from '../segment/renumber.js';
import { spareSharedBuffers } from '../scratch.js';
import type { SegmentSettings } from '../settings.js';
import type { StageContext } from '../stage.js';
import type { RasterImage } from '../types.js';
import {
  fitConcurrency,
  MIN_REGION_JOB_PIXELS,
  openRepliesJob,
  sharedLabels,
  startedWorkers,
  waitAsync,
  type JobErrorReply,
  type RegionJobMessage,
} from './pool.js';

/**
 * Below this many pixels on soft boundaries outside the largest component, the worker's share
 * takes less than posting it costs (a tenth of a millisecond or two). Joining alone and shared, on
 * the public clip art scaled to an eighth and a quarter (A/B in one process, medians of 15): about
 * 3 000 such pixels broke even (0.97–1.15), under that sharing lost (1.1–1.4×), over it mostly won.
 */
const MIN_SHARED_PIXELS = 4096;

/**
 * The claim counters, a new set per job: the next share of the moments pass to take, how many
 * components are done, then per share whether it is measured and the next of its components to take.
 */
const MEASURE = 0,
  DONE = 1,
  MEASURED = (share: number) => 2 + 2 * share,
  NEXT = (share: number) => 3 + 2 * share;

export interface JoinJobMessage extends RegionJobMessage {
  type: 'join';
  settings: GradientBandSettings;
  plan: JoinPlan;
  /** The shares of the moments pass and of the components (see shareWork). */
  work: SharedWork;
  /** Moment sums, reference pixels and edge flags (shared), the regions' slots (copied). */
  tables: MomentTables;
  /** Shared: the pixel lists, and the group each region ends in. */
  pixels: Int32Array;
  joinedInto: Int32Array;
  /** Shared, a new one per job: the counters above. */
  claim: Int32Array;
}

interface JoinReply {
  type: 'join';
  job: number;
}

interface GradientJoinOptions {
  /**
   * Workers available (default: those of fitConcurrency() already started; 0 = this thread). A
   * trace's first join does not start one: on a one-off trace of the small clip art the worker
   * was still loading and compiling, interpreted, when given its share, and the trace took 40–80 ms
   * longer than with the joins here (the region paints start it later, as before).
   */
  workers?: number;
  /** Tests only: this thread takes at most this many components (the workers join the rest). */
  hereTakes?: number;
}

/**
 * The work split into shares, one per thread, by whole components: each share's regions are
 * measured in one moments pass, and its components joined most pairs first. A thread measures a
 * share, joins its components, then takes what is left of the others (each once it is measured).
 */
interface SharedWork {
  shares: number;
  /** The share each region on a soft boundary is in (-1: none). */
  shareOf: Int32Array;
  /** Share s's components are components[start[s] .. start[s + 1]), in the plan's order. */
  components: Int32Array;
  start: Int32Array;
}

/** segmentImage, its gradient-band joins shared with the workers (vectorize's path; segmentImage is the one-thread one). */
export async function segmentSharingJoins(
  image: PreparedImage,
  settings: SegmentSettings,
  context: StageContext,
  options: GradientJoinOptions = {},
): Promise<Segmentation> {
  const regions = segmentUnjoined(image, settings, context);
  const joined = settings.gradientBands ? await joinGradientBandsShared(image.source, regions, settings.gradientBands, options) : regions;
  context.progress(1);
  return { width: image.width, height: image.height, ...joined };
}

/** joinGradientBands, with the moments pass and the components shared with the workers when they hold enough work. */
export async function joinGradientBandsShared(
  image: RasterImage,
  regions: RegionLabels,
  settings: GradientBandSettings,
  options: GradientJoinOptions = {},
): Promise<RegionLabels> {
  const workers = options.workers ?? Math.min(fitConcurrency(), startedWorkers());
  if (workers <= 0) return joinGradientBands(image, regions, settings);
  const plan = planGradientJoins(image, regions, settings);
  if (plan === null) return regions;
  const components = plan.order.length;
  const worthSharing =
    components > 1 && image.width * image.height >= MIN_REGION_JOB_PIXELS && plan.involvedPixels - plan.largestPixels >= MIN_SHARED_PIXELS;
  if (options.hereTakes === undefined && !worthSharing) {
    return joinGradientBands(image, regions, settings, plan);
  }
  const { width, height } = image;
  const { labels, regionCount } = regions;
  const n = width * height;
  const channels = image.channels ?? 4;
  const work = shareWork(regions, plan, Math.min(workers + 1, components));

  const slots = plan.involvedRegions;
  // Every array starts on a multiple of ARENA_ALIGN: V8 copies to and from shared memory at an
  // odd offset a byte at a time (the image's pixels, copied in here and into each thread's kernels,
  // took eight times as long at an offset of 4).
  const bytes =
    8 * slots * MOMENT_BLOCK + 4 * (plan.involvedPixels + regionCount + 2 * slots) + n + n * channels + ARENA_CARVES * ARENA_ALIGN;
  const arenaBuffer = spareArenas.take(bytes);
  let offset = 0;
  const carve = <T>(Type: new (buffer: SharedArrayBuffer, offset: number, length: number) => T, length: number, size: number): T => {
    const view = new Type(arenaBuffer, offset, length);
    offset = (offset + length * size + ARENA_ALIGN - 1) & -ARENA_ALIGN;
    return view;
  };
  const tables: MomentTables = {
    sums: carve(Float64Array, slots * MOMENT_BLOCK, 8),
    refX: carve(Int32Array, slots, 4),
    refY: carve(Int32Array, slots, 4),
    slot: new Int32Array(regionCount),
    edgePixel: new Uint8Array(0),
  };
  numberSlots(plan.involved, tables.slot);
  const pixels = carve(Int32Array, plan.involvedPixels, 4);
  const joinedInto = identityMap(regionCount, carve(Int32Array, regionCount, 4));
  tables.edgePixel = carve(Uint8Array, n, 1);
  const data = carve(Uint8Array, n * channels, 1);
  data.set(image.data.subarray(0, n * channels));

  const claim = new Int32Array(new SharedArrayBuffer(4 * MEASURED(work.shares)));
  // the workers' work shows in `claim`; their one reply each says they are done
  const { job, workers: posted, failure, next, end } = openRepliesJob<JoinReply>(workers, 'joining', () => undefined);
  /** Resolves once claim[index] reaches `target`; throws a worker's failure instead. */
  const reached = async (index: number, target: number): Promise<void> => {
    for (let now = Atomics.load(claim, index); now < target && !failure(); now = Atomics.load(claim, index)) {
      const waiting = waitAsync(claim, index, now);
      if (waiting.async) await Promise.race([waiting.value, next()]);
    }
    const failed = failure();
    if (failed) throw failed;
  };
  let finished = false;
  try {
    const message: JoinJobMessage = {
      type: 'join',
      job,
      width,
      height,
      data,
      channels,
      labels: sharedLabels(labels),
      area: regions.area,
      transparent: regions.transparent,
      regionCount,
      settings,
      plan,
      work,
      tables,
      pixels,
      joinedInto,
      claim,
    };
    for (const worker of posted) worker.postMessage(message);
    const budget = { left: options.hereTakes ?? Infinity };
    for (const share of sharesInTurn(work, measureShares(image, regions, settings, plan, work, tables, pixels, claim))) {
      // a share a worker took: it is measuring it now
      await reached(MEASURED(share), 1);
      joinComponents(image, regions, settings, plan, tables, () => pixels, joinedInto, claimer(claim, work, share, budget));
    }
    await reached(DONE, components);
    finished = true;
    return renumberJoined(regions, joinedInto);
  } finally {
    // On a failure, a worker stops at its next share or component; once finished, a worker still
    // to start finds none left and writes nothing, so the arena serves the next job (its claim
    // counters are new ones).
    Atomics.store(claim, MEASURE, work.shares);
    for (let share = 0; share < work.shares; share++) {
      Atomics.store(claim, NEXT(share), work.start[share + 1] - work.start[share]);
      Atomics.store(claim, MEASURED(share), 1);
      Atomics.notify(claim, MEASURED(share));
    }
    end();
    if (finished) spareArenas.giveBack(arenaBuffer);
  }
}

/**
 * Splits the work into `shares` of about as many pixels (the moments pass), whole components each:
 * the component with most pairs (the longest to join) into the first share, which this thread
 * takes at once, then the rest, most pixels first, each to the share with fewest so far. Each
 * share's components in the plan's order.
 */
function shareWork(regions: RegionLabels, plan: JoinPlan, shares: number): SharedWork {
  const { regionCount } = regions;
  const { order, componentStart, componentPixels, pairA, pairB } = plan;
  const shareOf = new Int32Array(regionCount).fill(-1);
  const sharePixels = new Float64Array(shares);
  const shareOfComponent = new Int32Array(componentPixels.length);
  const start = new Int32Array(shares + 1);
  const byPixels = order.slice(1).sort((c, d) => componentPixels[d] - componentPixels[c] || c - d);
  for (const c of [order[0], ...byPixels]) {
    let share = 0;
    for (let s = 1; s < shares; s++) if (sharePixels[s] < sharePixels[share]) share = s;
    shareOfComponent[c] = share;
    start[share + 1]++;
    sharePixels[share] += componentPixels[c];
    for (let i = componentStart[c]; i < componentStart[c + 1]; i++) {
      shareOf[pairA[i]] = share;
      shareOf[pairB[i]] = share;
    }
  }
  for (let s = 0; s < shares; s++) start[s + 1] += start[s];
  const at = start.slice(0, shares);
  const components = new Int32Array(order.length);
  for (const c of order) components[at[shareOfComponent[c]]++] = c;
  return { shares, shareOf, components, start };
}

/** Every share, the first one this thread measured first and the others after it in turn (all of them when it measured none). */
function sharesInTurn(work: SharedWork, measured: number[]): number[] {
  const first = measured.length > 0 ? measured[0] : 0;
  return Array.from({ length: work.shares }, (_, k) => (first + k) % work.shares);
}

/** Measures the shares of the moments pass not yet taken (and lists their pixels), one at a time from the claim counter; returns them. */
function measureShares(
  image: RasterImage,
  regions: RegionLabels,
  settings: GradientBandSettings,
  plan: JoinPlan,
  work: SharedWork,
  tables: MomentTables,
  pixels: Int32Array,
  claim: Int32Array,
): number[] {
  const measured: number[] = [];
  for (let share = Atomics.add(claim, MEASURE, 1); share < work.shares; share = Atomics.add(claim, MEASURE, 1)) {
    measureMoments(image, regions, settings.hardStep, tables, { shareOf: work.shareOf, share, pixels, first: plan.first });
    Atomics.store(claim, MEASURED(share), 1);
    Atomics.notify(claim, MEASURED(share));
    measured.push(share);
  }
  return measured;
}

/**
 * The `take` of joinComponents on one share's claim counter: its next component not yet taken,
 * -1 once none is left or the budget is spent; each call first counts the component taken before as done.
 */
function claimer(claim: Int32Array, work: SharedWork, share: number, budget = { left: Infinity }): () => number {
  const count = work.start[share + 1] - work.start[share];
  let taken = false;
  return () => {
    if (taken) {
      Atomics.add(claim, DONE, 1);
      Atomics.notify(claim, DONE);
    }
    taken = false;
    if (budget.left <= 0) return -1;
    const k = Atomics.add(claim, NEXT(share), 1);
    if (k >= count) return -1;
    taken = true;
    budget.left--;
    return work.components[work.start[share] + k];
  };
}

/** Where each array of a join job's arena starts (bytes), and how many arrays there are. */
const ARENA_ALIGN = 16;
const ARENA_CARVES = 7;

/**
 * The shared memory of a join job (moment sums and reference pixels, pixel lists, the map of
 * groups, edge flags, the source pixels), kept for the next job on this thread: fresh pages cost
 * their faults.
 */
const spareArenas = spareSharedBuffers(64 << 20);

// ---------------------------------------------------------------------------------------------
// the worker side (engine/parallel/fit-worker.ts calls this for every join job it is sent)

export function runJoinJob(message: JoinJobMessage, post: (reply: JoinReply | JobErrorReply) => void): void {
  const { job, width, height, data, channels, labels, area, transparent, regionCount, settings, plan, work } = message;
  const { tables, pixels, joinedInto, claim } = message;
  const image = { width, height, data, channels };
  const regions = { labels, area, transparent, regionCount };
  for (const share of sharesInTurn(work, measureShares(image, regions, settings, plan, work, tables, pixels, claim))) {
    // the tracing thread is measuring it (or has stopped the job, which marks every share measured)
    while (Atomics.load(claim, MEASURED(share)) === 0) Atomics.wait(claim, MEASURED(share), 0, 100);
    joinComponents(image, regions, settings, plan, tables, () => pixels, joinedInto, claimer(claim, work, share));
  }
  post({ type: 'join', job });
}
