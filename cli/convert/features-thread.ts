/**
 * The classifier's features of one image, made on a thread of their own. In a cold one-file
 * `vectorize convert` with `--image-type auto` the features pass ran on the main thread between
 * the engine's module loading and the trace; started here with the command, it runs beside that
 * loading instead, and the main thread only scores the finished vector (a few microseconds).
 *
 * The thread decodes the bytes itself, the way vectorize() does (same decoder, same size limit,
 * same busy-pixel budget), so the features, and the class, are the ones vectorize() computes. It
 * answers once and ends.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from './classifier-thread.js';

export interface FeaturesRequest {
  bytes: Uint8Array;
  maxPixels: number;
}

export type FeaturesReply = { features: Float32Array } | { error: string };

export interface FeaturesThread {
  /** The feature vector; rejects with the thread's error (an image it could not decode). */
  features: Promise<Float32Array>;
  /** Ends the thread if it is still working (the command failed before it needed the answer). */
  stop(): void;
}

export function featuresThread(request: FeaturesRequest): FeaturesThread {
  const worker: Worker = startWorker('features-worker', { workerData: request });
  const features = new Promise<Float32Array>((resolve, reject) => {
    worker.once('message', (reply: FeaturesReply) => {
      if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply.features);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the features thread stopped (exit code ${code})`)));
  });
  // a rejection nobody waits for (the command failed first) is not an unhandled one
  features.catch(() => {});
  return { features, stop: () => void worker.terminate() };
}
