/**
 * A ClassifierSessionFactory whose onnxruntime session lives on a worker thread. On the main thread
 * `import('onnxruntime-node')` and opening the session block it for about a tenth of a second of a
 * cold `vectorize convert` call; opened here, from the start of the command, that time overlaps the
 * engine's module loading and the decode. The features are still computed on the main thread (the
 * engine's classify step), only the model's few multiplications cross over, so the class is the
 * one the in-process session gives.
 *
 * The thread holds the process open only while a request is out, so a command that is done exits
 * without closing it.
 */
import { Worker } from 'node:worker_threads';
import type { ClassifierSession, ClassifierSessionFactory, ExecutionProvider } from '../../engine/classify/index.js';

export type ClassifierRequest =
  | { type: 'open'; id: number; modelPath: string; provider: ExecutionProvider }
  | { type: 'run'; id: number; features: Float32Array; rows: number };

export type ClassifierReply =
  { type: 'opened'; id: number } | { type: 'scores'; id: number; scores: Float32Array } | { type: 'error'; id: number; message: string };

/**
 * From the build the worker is classifier-worker.js beside this file. From source (tsx: tests) it
 * is a .ts file and a worker does not inherit the parent's tsx loader, so a tiny bootstrap
 * registers tsx inside the worker first.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./classifier-worker.js', import.meta.url));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./classifier-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, {
    eval: true,
  });
}

export function classifierThread(): ClassifierSessionFactory {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve: (reply: ClassifierReply) => void; reject: (error: Error) => void }>();

  const settle = (reply: ClassifierReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker?.unref();
    if (reply.type === 'error') waiting.reject(new Error(reply.message));
    else waiting.resolve(reply);
  };
  const lose = (error: Error) => {
    worker = null;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };

  const request = <T extends ClassifierReply>(message: ClassifierRequest): Promise<T> => {
    if (!worker) {
      const started = startWorker();
      started.on('message', settle);
      started.on('error', lose);
      started.on('exit', (code) => lose(new Error(`the classifier thread stopped (exit code ${code})`)));
      worker = started;
    }
    worker.ref();
    return new Promise<ClassifierReply>((resolve, reject) => {
      pending.set(message.id, { resolve, reject });
      worker!.postMessage(message);
    }) as Promise<T>;
  };

  return async (modelPath, provider): Promise<ClassifierSession> => {
    await request({ type: 'open', id: nextId++, modelPath, provider });
    return {
      provider,
      async run(features, rows) {
        const reply = await request<Extract<ClassifierReply, { type: 'scores' }>>({ type: 'run', id: nextId++, features, rows });
        return reply.scores;
      },
    };
  };
}
