/**
 * One image's classifier features on a thread (./features-thread.ts): decode as vectorize()
 * decodes, then extractFeatures; the vector goes back to the main thread and the thread ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { withinBusyBudget } from '../../engine/budget.js';
import { extractFeatures } from '../../engine/classify/features.js';
import { decodeRaster, toRgba } from '../../engine/decode/index.js';
import type { FeaturesReply, FeaturesRequest } from './features-thread.js';

const { bytes, maxPixels } = workerData as FeaturesRequest;
let reply: FeaturesReply;
try {
  const { image } = await withinBusyBudget(await decodeRaster(bytes, { maxPixels }));
  reply = { features: extractFeatures(toRgba(image)) };
} catch (error) {
  reply = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(reply, 'features' in reply ? [reply.features.buffer as ArrayBuffer] : []);
