/**
 * Colouring the regions (engine/svg/compose.ts paintRegions: mean colours, and gradient fits where
 * gradients=smooth) on a worker thread while this thread traces the boundary graph. Both need only
 * the finished segmentation, so on a machine with a spare core they overlap instead of running one
 * after the other. The worker runs the same function on the same numbers, so the paints, and the
 * SVG, do not depend on where they were computed.
 */
import type { PreparedImage } from '../prepare/index.js';
import type { Segmentation } from '../segment/index.js';
import type { EngineSettings } from '../settings.js';
import { paintRegions, type RegionPaints } from '../svg/compose.js';
import { spareSharedBuffers } from '../scratch.js';
import { fitConcurrency, openOneReplyJob, type JobErrorReply } from './pool.js';

/**
 * Below this many pixels the colouring takes a millisecond or two, about what copying the labels
 * and pixels to a worker costs, so it stays on this thread.
 */
const MIN_PARALLEL_PIXELS = 65_536;

export interface PaintJobMessage {
  type: 'paint';
  job: number;
  width: number;
  height: number;
  /** The source pixels, straight RGBA or RGB (copied once into shared memory), and the region labels (already there). */
  data: Uint8Array;
  channels: 3 | 4;
  labels: Int32Array;
  area: Int32Array;
  transparent: Uint8Array;
  regionCount: number;
  gradients: EngineSettings['gradients'];
}

interface PaintReply {
  type: 'paint';
  job: number;
  paints: RegionPaints;
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
}

export function startRegionPaints(
  image: PreparedImage,
  segmentation: Segmentation,
  settings: EngineSettings,
  options: RegionPaintOptions = {},
): RegionPainting {
  const workers = options.workers ?? fitConcurrency();
  // Without gradients the colouring is one pass over the pixels: not worth a copy of them.
  if (workers <= 0 || !settings.gradients.enabled || segmentation.labels.length < MIN_PARALLEL_PIXELS) {
    return {
      onWorker: false,
      finish: async () => paintRegions(image, segmentation, settings),
      abandon() {},
    };
  }

  const { job, worker, reply, end: endJob } = openOneReplyJob<PaintReply>('painting');
  const { width, height, data } = image.source;
  const source = sharedPixels(data);
  const end = () => {
    endJob();
    source.release();
  };
  const message: PaintJobMessage = {
    type: 'paint',
    job,
    width,
    height,
    channels: image.source.channels ?? 4,
    data: source.pixels,
    labels: segmentation.labels.buffer instanceof SharedArrayBuffer ? segmentation.labels : sharedCopy(segmentation.labels, Int32Array),
    area: segmentation.area,
    transparent: segmentation.transparent,
    regionCount: segmentation.regionCount,
    gradients: settings.gradients,
  };
  worker.postMessage(message);
  return {
    onWorker: true,
    async finish() {
      try {
        return (await reply()).paints;
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

function sharedCopy<T extends Uint8Array | Int32Array>(
  values: T,
  Type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
): T {
  const copy = new Type(new SharedArrayBuffer(values.length * Type.BYTES_PER_ELEMENT));
  copy.set(values);
  return copy;
}

// ---------------------------------------------------------------------------------------------
// the worker side (engine/parallel/fit-worker.ts calls this for every paint job it is sent)

export function runPaintJob(message: PaintJobMessage, post: (reply: PaintReply | JobErrorReply) => void): void {
  const { width, height, data, channels, labels, area, transparent, regionCount, gradients, job } = message;
  const paints = paintRegions({ source: { width, height, data, channels } }, { labels, area, transparent, regionCount }, { gradients });
  post({ type: 'paint', job, paints });
}
