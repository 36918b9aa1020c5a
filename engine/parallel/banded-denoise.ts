/**
 * The prepare stage with its denoise passes shared with a worker: a pass reads each pixel's own
 * row and the rows beside it, so the bottom half (with the row above it as a margin) is smoothed on
 * a worker while this thread smooths the top half. Both run prepare's smoothSimilar on the same
 * bytes, so the result is byte for byte prepareImage's.
 */
import { prepareImage, prepareUnsmoothed, releaseSmoothed, smoothSimilar, takeSmoothed, type PreparedImage } from '../prepare/index.js';
import type { PrepareSettings } from '../settings.js';
import { NO_CONTEXT, type StageContext } from '../stage.js';
import type { RasterImage } from '../types.js';
import { fitConcurrency, openOneReplyJob, type JobErrorReply } from './pool.js';

/** Below this many pixels a pass takes a few milliseconds, about what the copies to and from a worker cost. */
const MIN_SPLIT_PIXELS = 1 << 18;

export interface DenoiseJobMessage {
  type: 'denoise';
  job: number;
  width: number;
  /** The worker's rows plus the one above them (copied, transferred). */
  height: number;
  rgb: Uint8Array;
  transparent: Uint8Array;
  hasTransparency: boolean;
  range: number;
}

interface DenoiseReply {
  type: 'denoise';
  job: number;
  /** Smoothed rows 1..height-1 of the job's rows, at offset width * 3. */
  rows: Uint8Array;
}

interface BandedDenoiseOptions {
  /** Workers available (default fitConcurrency(); 0 = every pass on this thread). */
  workers?: number;
}

/** prepareImage, with each denoise pass split with a worker when the image is large enough. */
export async function prepareInBands(
  image: RasterImage,
  settings: PrepareSettings,
  context: StageContext,
  options: BandedDenoiseOptions = {},
): Promise<PreparedImage> {
  const workers = options.workers ?? fitConcurrency();
  if (workers <= 0 || settings.denoisePasses === 0 || image.width * image.height < MIN_SPLIT_PIXELS || image.height < 4)
    return prepareImage(image, settings, context);
  const prepared = prepareUnsmoothed(image, settings);
  for (let pass = 0; pass < settings.denoisePasses; pass++) {
    const before = prepared.rgb;
    prepared.rgb = await smoothInHalves(prepared, settings.denoiseRange, context);
    releaseSmoothed(before);
  }
  return prepared;
}

async function smoothInHalves(image: PreparedImage, range: number, context: StageContext): Promise<Uint8Array> {
  const { width, height, rgb, transparent, hasTransparency } = image;
  const split = height >> 1;
  const { job, worker, reply, end } = openOneReplyJob<DenoiseReply>('denoising');
  try {
    const bottom = rgb.slice((split - 1) * width * 3, height * width * 3);
    const bottomClear = hasTransparency ? transparent.slice((split - 1) * width, height * width) : new Uint8Array(0);
    const message: DenoiseJobMessage = {
      type: 'denoise',
      job,
      width,
      height: height - split + 1,
      rgb: bottom,
      transparent: bottomClear,
      hasTransparency,
      range,
    };
    worker.postMessage(message, [bottom.buffer, bottomClear.buffer]);
    const out = smoothSimilar(rgb, transparent, hasTransparency, width, height, range, context, 0, split, takeSmoothed(rgb.length));
    out.set((await reply()).rows, split * width * 3);
    return out;
  } finally {
    end();
  }
}

// ---------------------------------------------------------------------------------------------
// the worker side (engine/parallel/fit-worker.ts calls this for every denoise job it is sent)

export function runDenoiseJob(
  message: DenoiseJobMessage,
  post: (reply: DenoiseReply | JobErrorReply, transfer: ArrayBuffer[]) => void,
): void {
  const { width, height, rgb, transparent, hasTransparency, range, job } = message;
  const out = smoothSimilar(rgb, transparent, hasTransparency, width, height, range, NO_CONTEXT, 1, height);
  const rows = out.subarray(width * 3);
  post({ type: 'denoise', job, rows }, [out.buffer as ArrayBuffer]);
}
