/**
 * Fitting the boundary chains on this thread and on worker threads at once.
 *
 * Every chain is fitted on its own (engine/fit/chain.ts: a pure function of its points and the
 * settings), so which thread fits it cannot change the result: the SVG is byte-identical with any
 * number of threads. The chains are cut into chunks of about CHUNK_POINTS points; this thread and
 * the workers take the next chunk from one shared counter (Atomics.add on a SharedArrayBuffer)
 * until none is left, so a worker that is slow to start or starved of CPU by other processes just
 * takes fewer chunks, and this thread never waits for one that has not begun. Workers send their
 * fits back packed in typed arrays (transferred, not copied), in FittedChains' layout, so this
 * thread copies them into place without making an object per segment.
 *
 * The workers are the engine's pool (./pool.ts): a worker that throws or dies turns the trace into
 * VectorizeError('internal_error').
 */
import type { BoundaryGraph } from '../boundary/index.js';
import { FittedChains, fitBoundaryChain, type ChainFitSettings } from '../fit/chain.js';
import type { FittedPath } from '../fit/index.js';
import { checkAbort, type StageContext } from '../stage.js';
import { fitConcurrency, openRepliesJob, startedWorkers, type JobErrorReply } from './pool.js';

export { fitConcurrency, replaceFitWorkersForTest } from './pool.js';

/** Chains are handed out in chunks of about this many points (a few milliseconds of fitting)… */
const CHUNK_POINTS = 8192;
/** …or a sixteenth of a smaller job, at least this many: its last chunks are what balances the threads. */
const MIN_CHUNK_POINTS = 1024;
/**
 * From this many points in all, the job starts workers if none is running. Below it, a worker
 * still loading would take longer than this thread takes to fit them all; one already running
 * (the region paints started it) takes the chunks this thread has not reached once its paints are
 * done: on the small clip art it was idle for a third of the fitting otherwise.
 */
const MIN_PARALLEL_POINTS = 40_000;
/** Below this many points in all, posting to a worker costs more than it saves: this thread fits them. */
const MIN_SHARED_POINTS = 2048;
interface ChainFitOptions {
  /** Worker threads to use besides this one (default fitConcurrency(); 0 = this thread only). */
  workers?: number;
  /** Tests only: leave every chunk to the workers, so their failures can be seen. */
  workersOnly?: boolean;
}

/** What a worker gets: the job's chains packed once into shared memory. */
interface JobMessage {
  type: 'job';
  job: number;
  /** Concatenated x,y points of the job's chains. */
  points: Float64Array;
  /** Job chain i's points are points[offsets[i] .. offsets[i+1]). */
  offsets: Int32Array;
  /** bit 0: closed, bit 1: on the image frame. */
  flags: Uint8Array;
  /** Chunk k is job chains chunkStart[k] .. chunkStart[k+1]-1. */
  chunkStart: Int32Array;
  /** [next chunk to take]; shared by every thread on the job. */
  claim: Int32Array;
  settings: ChainFitSettings;
}

/**
 * A worker's fits of one chunk: per chain its segment count, segment kinds (0 L, 1 C, 2 A) and coordinates
 * (start, then 2 or 6 per segment).
 */
interface ChunkMessage {
  type: 'chunk';
  job: number;
  chunk: number;
  counts: Int32Array;
  kinds: Uint8Array;
  coords: Float64Array;
}
type WorkerReply = ChunkMessage | JobErrorReply;

interface ChainFitting {
  /** Worker threads the chains were posted to (0: all are fitted on this thread). */
  readonly workers: number;
  /** Fits on this thread whatever the workers have not taken, then waits for theirs. */
  finish(context: StageContext): Promise<FittedChains>;
}

/**
 * Starts fitting every chain that a painted (non-transparent) region uses; the workers begin at
 * once, so this thread can do other work (region colours, gradients) before finish().
 */
export function startChainFits(
  graph: BoundaryGraph,
  transparent: Uint8Array,
  settings: ChainFitSettings,
  options: ChainFitOptions = {},
): ChainFitting {
  const { chains } = graph;
  const chainOf: number[] = [];
  let total = 0;
  for (let c = 0; c < chains.length; c++) {
    const { left, right } = chains[c];
    if ((left < 0 || transparent[left]) && (right < 0 || transparent[right])) continue;
    chainOf.push(c);
    total += chains[c].points.length;
  }
  // about one segment per eight crack points
  const fitted = new FittedChains(chains.length, total >> 4);
  const available = options.workers ?? fitConcurrency();
  // (chain points are x, y pairs: `total` counts numbers, twice the points)
  const workerCount =
    options.workersOnly || total >= 2 * MIN_PARALLEL_POINTS
      ? available
      : total >= 2 * MIN_SHARED_POINTS
        ? Math.min(available, startedWorkers())
        : 0;
  if (workerCount <= 0) {
    return {
      workers: 0,
      async finish(context) {
        fitChainsHere(graph, chainOf, 0, chainOf.length, settings, fitted, context);
        return fitted;
      },
    };
  }

  // Pack the job once into shared memory: every thread reads the same points, none copies them.
  const count = chainOf.length;
  const points = new Float64Array(new SharedArrayBuffer(8 * Math.max(1, total)));
  const offsets = new Int32Array(new SharedArrayBuffer(4 * (count + 1)));
  const flags = new Uint8Array(new SharedArrayBuffer(Math.max(1, count)));
  const starts: number[] = [0];
  const chunkNumbers = 2 * Math.min(CHUNK_POINTS, Math.max(MIN_CHUNK_POINTS, total >> 5));
  let at = 0,
    inChunk = 0;
  for (let i = 0; i < count; i++) {
    const chain = chains[chainOf[i]];
    points.set(chain.points, at);
    offsets[i] = at;
    at += chain.points.length;
    flags[i] = (chain.closed ? 1 : 0) | (chain.left < 0 || chain.right < 0 ? 2 : 0);
    inChunk += chain.points.length;
    if (inChunk >= chunkNumbers && i + 1 < count) {
      starts.push(i + 1);
      inChunk = 0;
    }
  }
  offsets[count] = at;
  starts.push(count);
  const chunkStart = Int32Array.from(starts);
  const chunks = chunkStart.length - 1;
  const claim = new Int32Array(new SharedArrayBuffer(4));

  let received = 0;
  const { job, workers, failure, next, end } = openRepliesJob<ChunkMessage>(workerCount, 'fitting', (reply) => {
    unpackChunk(reply, chunkStart, chainOf, fitted);
    received++;
  });
  const message: JobMessage = { type: 'job', job, points, offsets, flags, chunkStart, claim, settings };
  for (const worker of workers) worker.postMessage(message);

  return {
    workers: workers.length,
    async finish(context) {
      let mine = 0;
      try {
        if (!options.workersOnly) {
          for (let k = Atomics.add(claim, 0, 1); k < chunks; k = Atomics.add(claim, 0, 1)) {
            fitChainsHere(graph, chainOf, chunkStart[k], chunkStart[k + 1], settings, fitted, context);
            mine++;
          }
        }
        // Chunks the workers took: wait for each (a few ms at most once this thread runs out).
        while (!failure() && received + mine < chunks) await next();
        const failed = failure();
        if (failed) throw failed;
        checkAbort(context);
        return fitted;
      } finally {
        // On an error or a cancel, workers stop at their next chunk.
        Atomics.store(claim, 0, chunks);
        end();
      }
    },
  };
}

/**
 * Fits chains chainOf[from..to) on this thread into `fitted`. A module function, not a loop inside
 * finish(): finish is a closure made per trace, and a closure's optimised code was lost between
 * traces (compiled again 4 times a round of the corpus, 29 ms of compiling each, while the
 * chains were fitted by unoptimised code).
 */
function fitChainsHere(
  graph: BoundaryGraph,
  chainOf: number[],
  from: number,
  to: number,
  settings: ChainFitSettings,
  fitted: FittedChains,
  context: StageContext,
): void {
  for (let i = from; i < to; i++) {
    if (((i - from) & 1023) === 0) checkAbort(context);
    fitted.set(chainOf[i], fitOne(graph, chainOf[i], settings));
  }
}

function fitOne(graph: BoundaryGraph, c: number, settings: ChainFitSettings): FittedPath {
  const chain = graph.chains[c];
  return fitBoundaryChain(chain.points, chain.closed, chain.left < 0 || chain.right < 0, settings);
}

// ---------------------------------------------------------------------------------------------
// the worker side (engine/parallel/fit-worker.ts calls this for every job it is sent)

/** Takes chunks of the job until none is left, posting each chunk's fits. */
export function runFitJob(message: JobMessage, post: (reply: WorkerReply, transfer: ArrayBuffer[]) => void): void {
  const { points, offsets, flags, chunkStart, claim, settings, job } = message;
  const chunks = chunkStart.length - 1;
  for (let k = Atomics.add(claim, 0, 1); k < chunks; k = Atomics.add(claim, 0, 1)) {
    const first = chunkStart[k],
      end = chunkStart[k + 1];
    const counts = new Int32Array(end - first);
    const kinds: number[] = [];
    const coords: number[] = [];
    for (let i = first; i < end; i++) {
      const chainPoints = points.subarray(offsets[i], offsets[i + 1]);
      const path = fitBoundaryChain(chainPoints, (flags[i] & 1) !== 0, (flags[i] & 2) !== 0, settings);
      counts[i - first] = path.segments.length;
      coords.push(path.start.x, path.start.y);
      for (const s of path.segments) {
        if (s.kind === 'L') {
          kinds.push(0);
          coords.push(s.x, s.y);
        } else if (s.kind === 'A') {
          kinds.push(2);
          coords.push(s.rx, s.ry, s.rotation, s.sweep, s.x, s.y);
        } else {
          kinds.push(1);
          coords.push(s.x1, s.y1, s.x2, s.y2, s.x, s.y);
        }
      }
    }
    const reply: ChunkMessage = { type: 'chunk', job, chunk: k, counts, kinds: Uint8Array.from(kinds), coords: Float64Array.from(coords) };
    post(reply, [reply.counts.buffer as ArrayBuffer, reply.kinds.buffer as ArrayBuffer, reply.coords.buffer as ArrayBuffer]);
  }
}

function unpackChunk(reply: ChunkMessage, chunkStart: Int32Array, chainOf: number[], fitted: FittedChains): void {
  const { counts, kinds, coords } = reply;
  const first = chunkStart[reply.chunk];
  let k = 0,
    p = 0;
  for (let j = 0; j < counts.length; j++) {
    p += fitted.setPacked(chainOf[first + j], counts[j], kinds, k, coords, p);
    k += counts[j];
  }
}
