/**
 * The steps every admission ends with, a submission's (submissions.ts) and a re-render's
 * (renders.ts). Inside the account's section, once the job is inserted: its Idempotency-Key, its
 * queue number and queue entry (in the section's transaction where there is one), the awaits last
 * so what the section read and wrote stays this node's. After the section: the job written to
 * disk before the client hears of it (the 202 is a promise), then queued. A step that fails takes
 * the job back (no job, the key free for the retry, `giveBack` returns what the caller took) and
 * throws.
 */
import type { JobRecord, Store, StoreTransaction } from '../adapters/store.js';
import type { IdempotencyService } from './idempotency.js';
import type { JobService } from './jobs.js';

interface AdmissionDeps {
  store: Store;
  jobs: JobService;
  idempotency: IdempotencyService;
}

/** The job being admitted and the request's Idempotency-Key with its fingerprint, if it had one. */
interface Admitted {
  id: string;
  accountId: string;
  idempotency: { key: string; print: string } | null;
}

export function admissionSteps(deps: AdmissionDeps) {
  const { store, jobs, idempotency } = deps;
  const takeBack = (job: Admitted) => {
    store.jobs.delete(job.id);
    if (job.idempotency) idempotency.forget(job.accountId, job.idempotency.key);
  };
  return {
    /** In the section, right after the job's insert. */
    async enterQueue(job: Admitted, tx: StoreTransaction | null, giveBack: () => void = () => {}): Promise<void> {
      if (job.idempotency) idempotency.remember(job.accountId, job.idempotency.key, job.idempotency.print, job.id);
      try {
        store.jobs.update(job.id, { seq: await jobs.nextSeq(tx) });
        await jobs.admit(job.id, tx);
      } catch (error) {
        takeBack(job);
        giveBack();
        throw error;
      }
    },

    /**
     * After the section: a replay answers the job it names; otherwise the job is stored and queued.
     * Outside the section, so `giveBack` takes the account's lock itself.
     */
    async commit(job: Admitted, replayOf: string | undefined, giveBack: () => Promise<void> = async () => {}) {
      if (replayOf !== undefined) return { job: store.jobs.get(replayOf) as JobRecord, replay: true };
      try {
        await store.flush();
      } catch (error) {
        takeBack(job);
        await giveBack();
        throw error;
      }
      jobs.enqueue(job.id);
      return { job: store.jobs.get(job.id) as JobRecord, replay: false };
    },
  };
}
