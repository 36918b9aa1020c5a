/**
 * The engine's worker thread (see pool.ts): smooths half of each denoise job (banded-denoise.ts),
 * fits the chunks it takes from each chain-fitting job (chain-fits.ts), colours the regions of
 * each paint job (region-paints.ts), joins the gradient bands of the components it takes from
 * each join job (gradient-joins.ts) and writes the shapes of the chunks it takes from each shape
 * job (shape-writing.ts). A job that throws is reported as an error reply for that job; the
 * worker stays usable.
 */
import { parentPort } from 'node:worker_threads';
import { runDenoiseJob, type DenoiseJobMessage } from './banded-denoise.js';
import { runFitJob } from './chain-fits.js';
import { runJoinJob, type JoinJobMessage } from './gradient-joins.js';
import { runPaintJob, type PaintJobMessage } from './region-paints.js';
import { runShapeJob, type ShapeJobMessage } from './shape-writing.js';

type Message = Parameters<typeof runFitJob>[0] | PaintJobMessage | DenoiseJobMessage | JoinJobMessage | ShapeJobMessage;

const port = parentPort!;
port.on('message', (message: Message) => {
  try {
    if (message.type === 'paint') runPaintJob(message, (reply) => port.postMessage(reply));
    else if (message.type === 'join') runJoinJob(message, (reply) => port.postMessage(reply));
    else if (message.type === 'shapes') runShapeJob(message, (reply) => port.postMessage(reply));
    else if (message.type === 'denoise') runDenoiseJob(message, (reply, transfer) => port.postMessage(reply, transfer));
    else runFitJob(message, (reply, transfer) => port.postMessage(reply, transfer));
  } catch (error) {
    port.postMessage({ type: 'error', job: message.job, message: error instanceof Error ? error.message : String(error) });
  }
});
