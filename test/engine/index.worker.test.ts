import t from 'tap';
import { Worker } from 'node:worker_threads';
import { vectorize } from '../../engine/index.js';
import { png, testCard } from './helpers/images.js';

// The server traces in worker threads: the engine must keep no state that breaks there, and give
// the same bytes as on the main thread.
const WORKER_SOURCE = `
  const { parentPort, workerData } = require('node:worker_threads');
  // The worker loads the TypeScript sources itself (the server's workers load the built JS).
  import('tsx/esm/api').then(({ tsImport }) => tsImport(workerData.engine, workerData.engine)).then(async ({ vectorize }) => {
    const result = await vectorize(workerData.bytes, { imageType: 'clipart' });
    parentPort.postMessage(result.svg);
  }, (error) => parentPort.postMessage({ error: String(error) }));
`;

t.test('vectorize runs inside a worker thread and gives the same SVG as on the main thread', async (t) => {
  const bytes = await png(testCard());
  const engine = new URL('../../engine/index.ts', import.meta.url).href;
  const fromWorker = await new Promise<unknown>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bytes, engine } });
    worker.once('message', (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  const onMain = await vectorize(bytes, { imageType: 'clipart' });
  t.equal(fromWorker, onMain.svg);
});
