/**
 * A chain-fitting worker thread (see chain-fits.ts): fits the chunks it takes from each job it is
 * sent. A fit that throws is reported as an error reply for that job; the worker stays usable.
 */
import { parentPort } from 'node:worker_threads';
import { runFitJob } from './chain-fits.js';

const port = parentPort!;
port.on('message', (message: Parameters<typeof runFitJob>[0]) => {
  try {
    runFitJob(message, (reply, transfer) => port.postMessage(reply, transfer));
  } catch (error) {
    port.postMessage({ type: 'error', job: message.job, message: error instanceof Error ? error.message : String(error) });
  }
});
