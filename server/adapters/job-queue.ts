/**
 * The queue between admission and the engine, behind one interface with two homes:
 *
 * - embedded (lowdb mode, and whenever no durable queue is given): a list in this process's
 *   memory, rebuilt from the store at start by jobs.recover(); the process that accepts a job
 *   traces it.
 * - durable (PostgreSQL mode, adapters/pg-boss-queue.ts): pg-boss tables on the records'
 *   database, so a job row and its queue entry commit in one transaction and any worker node may
 *   trace it.
 *
 * Either way the order is acceptance order (the job's seq) and the store stays the truth for
 * every job's state: the queue only says which job to look at next.
 */
import type { Store, StoreTransaction } from './store.js';

/** How a run handed out by the queue ended, as the queue must know it. */
export type RunEnd =
  /** The job reached an end state, or there was nothing to do: the entry is done. */
  | 'ended'
  /** This node stopped mid-trace and put the job back: another worker should take it. */
  | 'interrupted';

export interface JobQueue {
  /** True when the queue outlives this process (another node may run what this one accepted). */
  readonly durable: boolean;
  /** The next acceptance number (queue order and the listing cursor), unique across every node. */
  nextSeq(tx: StoreTransaction | null): Promise<number>;
  /**
   * Inside the admission: a durable queue writes the job's entry in the admission's transaction
   * `tx`, so the row and the entry commit together or not at all.
   */
  admit(jobId: string, tx: StoreTransaction | null): Promise<void>;
  /** After the job is stored and may be announced: it starts when a slot is free. */
  enqueue(jobId: string): void;
  /** Takes a job out that was canceled before it started. */
  remove(jobId: string): void;
  /** 1 = the next job to start; undefined when the job is not waiting. */
  position(jobId: string): number | undefined;
  /** Jobs waiting to start, across every node that shares the queue, as the records say (admission's queue_full). */
  readonly length: number;
  /**
   * Jobs waiting for a worker, as the queue itself says: with a durable queue, its entries across
   * the cluster (a dead worker's job handed out again counts, though its row still says processing).
   */
  waiting(): Promise<number>;
  /** Hands jobs to `run`, at most `concurrency` at once; `run` settles once the job has ended. */
  consume(concurrency: number, run: (jobId: string) => Promise<RunEnd>): Promise<void>;
  /** Stops handing out jobs; a durable queue puts back what this node had not finished. */
  stop(): Promise<void>;
}

export function embeddedQueue(store: Store): JobQueue {
  const waiting: string[] = [];
  let lastSeq = store.jobs.all().reduce((max, job) => Math.max(max, job.seq ?? 0), 0);
  let runner: { concurrency: number; run: (jobId: string) => Promise<RunEnd> } | null = null;
  let active = 0;
  let stopped = false;

  function pump() {
    if (stopped || !runner) return;
    while (active < runner.concurrency && waiting.length > 0) {
      const next = waiting.shift()!;
      active++;
      void runner
        .run(next)
        .catch(() => 'ended' as const)
        .then(() => {
          active--;
          pump();
        });
    }
  }

  return {
    durable: false,
    nextSeq: () => Promise.resolve(++lastSeq),
    admit: () => Promise.resolve(),
    enqueue(jobId) {
      waiting.push(jobId);
      // Start on the next tick so the 202 answer shows the job queued, as the contract promises.
      setImmediate(pump);
    },
    remove(jobId) {
      const index = waiting.indexOf(jobId);
      if (index >= 0) waiting.splice(index, 1);
    },
    position(jobId) {
      const index = waiting.indexOf(jobId);
      return index < 0 ? undefined : index + 1;
    },
    get length() {
      return waiting.length;
    },
    waiting: () => Promise.resolve(waiting.length),
    consume(concurrency, run) {
      runner = { concurrency, run };
      setImmediate(pump);
      return Promise.resolve();
    },
    stop() {
      stopped = true;
      return Promise.resolve();
    },
  };
}

/**
 * queue_position and queue length for a queue that lives elsewhere: the store's queued jobs in
 * acceptance order, as every node sees them. Sorted at most once per `cacheMs`, since a listing
 * asks for the position of each job on its page.
 */
export function queuedInOrder(store: Store, cacheMs = 100): { position(jobId: string): number | undefined; readonly length: number } {
  let cached: { at: number; ids: string[]; index: Map<string, number> } | null = null;
  const current = () => {
    const at = performance.now();
    if (!cached || at - cached.at > cacheMs) {
      const ids = store.jobs
        .filter((job) => job.status === 'queued')
        .sort((a, b) => a.seq - b.seq)
        .map((job) => job.id);
      cached = { at, ids, index: new Map(ids.map((id, i) => [id, i + 1])) };
    }
    return cached;
  };
  return {
    position: (jobId) => current().index.get(jobId),
    get length() {
      return current().ids.length;
    },
  };
}
