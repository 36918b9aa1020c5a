/**
 * The classifier's onnxruntime session on a thread of its own (./classifier-thread.ts). Loading
 * onnxruntime and opening the session are synchronous native work; here they run beside the main
 * thread's module loading and decoding instead of before its first pixel.
 */
import { parentPort } from 'node:worker_threads';
import { onnxRuntimeSessionFactory, type ClassifierSession } from '../../engine/classify/index.js';
import type { ClassifierReply, ClassifierRequest } from './classifier-thread.js';

let session: ClassifierSession | null = null;

function reply(message: ClassifierReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

parentPort!.on('message', async (request: ClassifierRequest) => {
  try {
    if (request.type === 'open') {
      session = await onnxRuntimeSessionFactory(request.modelPath, request.provider);
      reply({ type: 'opened', id: request.id });
      return;
    }
    if (!session) throw new Error('the classifier session is not open');
    const scores = Float32Array.from(await session.run(request.features, request.rows));
    reply({ type: 'scores', id: request.id, scores }, [scores.buffer]);
  } catch (error) {
    reply({ type: 'error', id: request.id, message: messageOf(error) });
  }
});
