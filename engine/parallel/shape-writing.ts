/**
 * Writing the shapes (engine/svg/shape-writer.ts) on this thread and the workers at once.
 *
 * Composing plans on this thread (the paint order, the rings that lose too much area set back to
 * their polygons), then writes every shape's path data, which with close_seams is most of
 * composing: each hidden run's shortcuts are tested against the labels (engine/svg/underlap.ts).
 * A shape's path is a function of the shape alone given the plan, so the paint order is cut into
 * chunks that this thread and the workers take from one shared counter (Atomics.add), each
 * written whole by whichever thread took it: the SVG is byte-identical with any number of threads.
 * The workers are idle by then (the region paints are done). This thread never waits on a worker:
 * once no chunk is left to take, it writes any chunk a worker is still on itself.
 *
 * A worker that throws or dies turns the trace into VectorizeError('internal_error') (./pool.ts).
 */
import type { BoundaryGraph } from '../boundary/index.js';
import { FittedChains, type PackedFits } from '../fit/chain.js';
import type { PreparedImage } from '../prepare/index.js';
import type { Segmentation } from '../segment/index.js';
import type { EngineSettings } from '../settings.js';
import { checkAbort, type StageContext } from '../stage.js';
import { composeShapes, layOutShapes, planShapes, type ComposedShapes, type RegionPaints, type WrittenPart } from '../svg/compose.js';
import { PaintOrderWriter, type ShapeLayout, type ShapeOptions } from '../svg/shape-writer.js';
import { fitConcurrency, MIN_REGION_JOB_PIXELS, openRepliesJob, sharedLabels, startedWorkers, type JobErrorReply } from './pool.js';

/**
 * Composes on this thread before the shapes are shared. In a process's first traces the workers
 * run their shape-writing code unoptimised, and on two cores they take the core this thread's
 * compiler threads need: a one-off conversion of the larger public clip art took 5-10 % longer
 * shared. From the third trace on, both are compiled.
 */
const COMPOSES_BEFORE_SHARING = 2;
let composesHere = 0;

/** Chunks per thread: small enough that the last one taken does not keep the others waiting long. */
const CHUNKS_PER_THREAD = 12;

export interface ShapeJobMessage {
  type: 'shapes';
  job: number;
  /** Copied, except the labels (shared memory). */
  layout: ShapeLayout;
  fits: PackedFits;
  options: ShapeOptions;
  /** Chunk k is the shapes painted chunkStart[k] .. chunkStart[k + 1] - 1. */
  chunkStart: Int32Array;
  /** [next chunk to take], shared by every thread on the job. */
  claim: Int32Array;
}

/** A chunk as written. */
interface ShapeChunkReply extends WrittenPart {
  type: 'shapes';
  job: number;
  chunk: number;
}

interface ShapeWritingOptions {
  /** Workers available (default: those of fitConcurrency() already started; 0 = this thread). */
  workers?: number;
  /** Tests only: share the work whatever its size and however early. */
  always?: boolean;
  /** Tests only: when the work is shared, this thread writes at most this many chunks and waits for the workers to write the rest. */
  hereTakes?: number;
}

/** composeShapes, its shapes written on the workers too when there are enough of them (vectorize's path). */
export async function composeSharingShapes(
  image: PreparedImage,
  segmentation: Segmentation,
  graph: BoundaryGraph,
  paints: RegionPaints,
  fitted: FittedChains,
  settings: EngineSettings,
  context: StageContext,
  options: ShapeWritingOptions = {},
): Promise<ComposedShapes> {
  const workers = options.workers ?? Math.min(fitConcurrency(), startedWorkers());
  const plan = planShapes(image, segmentation, graph, fitted, settings, context);
  const { layout, options: shapeOptions } = plan;
  // Without hidden runs to shortcut (close_seams=false, or the shortcuts turned off) writing is
  // a small part of composing; on a small image it takes about what posting the plan costs.
  const worthSharing =
    shapeOptions.closeSeams && shapeOptions.hiddenShortcuts && layout.labels.length >= MIN_REGION_JOB_PIXELS && layout.order.length > 1;
  if (workers <= 0 || (!options.always && (!worthSharing || composesHere < COMPOSES_BEFORE_SHARING))) {
    composesHere++;
    return composeShapes(image, segmentation, graph, paints, fitted, settings, context, plan);
  }
  const chunkStart = chunkShapes(layout, fitted, (workers + 1) * CHUNKS_PER_THREAD);
  const chunks = chunkStart.length - 1;
  const claim = new Int32Array(new SharedArrayBuffer(4));
  const parts = new Array<WrittenPart | undefined>(chunks);
  let missing = chunks;
  const {
    job,
    workers: posted,
    failure,
    next,
    end,
  } = openRepliesJob<ShapeChunkReply>(workers, 'shape-writing', (reply) => {
    if (parts[reply.chunk] !== undefined) return;
    parts[reply.chunk] = reply;
    missing--;
  });
  try {
    const message: ShapeJobMessage = {
      type: 'shapes',
      job,
      layout: { ...layout, labels: sharedLabels(layout.labels) },
      fits: fitted.packed(),
      options: shapeOptions,
      chunkStart,
      claim,
    };
    for (const worker of posted) worker.postMessage(message);
    const writer = new PaintOrderWriter(layout, fitted, shapeOptions);
    const writeHere = (k: number): void => {
      checkAbort(context);
      context.progress(0.8 + 0.2 * (chunkStart[k] / layout.order.length));
      const beneath: number[] = [];
      parts[k] = { written: writer.write(chunkStart[k], chunkStart[k + 1], beneath), beneath };
      missing--;
    };
    for (let budget = options.hereTakes ?? Infinity; budget > 0 && !failure(); budget--) {
      const k = Atomics.add(claim, 0, 1);
      if (k >= chunks) break;
      writeHere(k);
    }
    // The chunks a worker took: their replies wait in the queue, except the one it is writing now.
    // That one is written here too rather than waited for: a worker still running its first
    // traces' unoptimised code (a one-off conversion) or starved of a core takes several times as
    // long, and the copy is the same bytes (whichever comes first is kept).
    while (missing > 0 && !failure()) {
      if (options.hereTakes !== undefined) {
        await next();
        continue;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (missing === 0 || failure()) break;
      let k = chunks - 1;
      while (parts[k] !== undefined) k--;
      writeHere(k);
    }
    const failed = failure();
    if (failed) throw failed;
  } finally {
    // a worker still to start finds nothing left to take
    Atomics.store(claim, 0, chunks);
    end();
  }
  return layOutShapes(layout, paints, parts as WrittenPart[]);
}

/**
 * A shape's writing time, in pixels: testing the shortcuts through its hidden runs reads the
 * pixels between them (growing with its area), and every segment of its rings is walked, offset
 * and planned. Fitted to each shape written alone on the public clip art and a photo (4 300
 * shapes): about 8 ns a pixel and 1.8 µs a segment.
 */
const PIXELS_PER_SEGMENT = 200;

/** The paint order cut into about `count` chunks of about as much writing (shapeCost), each at least one shape. */
function chunkShapes(layout: ShapeLayout, fitted: FittedChains, count: number): Int32Array {
  const { order, area, ringFirst, refFirst, refs } = layout;
  const cost = new Float64Array(order.length);
  let total = 0;
  for (let i = 0; i < order.length; i++) {
    const r = order[i];
    let segments = 0;
    for (let j = refFirst[ringFirst[r]]; j < refFirst[ringFirst[r + 1]]; j++) segments += fitted.count[refs[j] >> 1];
    cost[i] = area[r] + PIXELS_PER_SEGMENT * segments;
    total += cost[i];
  }
  const target = total / count;
  const starts = [0];
  let inChunk = 0;
  for (let i = 0; i < order.length; i++) {
    inChunk += cost[i];
    if (inChunk >= target && i + 1 < order.length) {
      starts.push(i + 1);
      inChunk = 0;
    }
  }
  starts.push(order.length);
  return Int32Array.from(starts);
}

// ---------------------------------------------------------------------------------------------
// the worker side (engine/parallel/fit-worker.ts calls this for every shape job it is sent)

export function runShapeJob(message: ShapeJobMessage, post: (reply: ShapeChunkReply | JobErrorReply) => void): void {
  const { job, layout, options, chunkStart, claim } = message;
  const writer = new PaintOrderWriter(layout, new FittedChains(message.fits), options);
  const chunks = chunkStart.length - 1;
  for (let k = Atomics.add(claim, 0, 1); k < chunks; k = Atomics.add(claim, 0, 1)) {
    const beneath: number[] = [];
    const written = writer.write(chunkStart[k], chunkStart[k + 1], beneath);
    post({ type: 'shapes', job, chunk: k, written, beneath });
  }
}
