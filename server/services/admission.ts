/**
 * The steps every admission shares, a submission's (submissions.ts) and a re-render's
 * (renders.ts). Around it: a replay of an earlier request answered at once, and the stored upload
 * removed unless its job was accepted. Inside the account's section, once the job is inserted:
 * its Idempotency-Key, its queue number and queue entry (in the section's transaction where there
 * is one), the awaits last so what the section read and wrote stays this node's. After the
 * section: the job written to disk before the client hears of it (the 202 is a promise), then
 * queued. A step that fails takes the job back (no job, the key free for the retry, `giveBack`
 * returns what the caller took) and throws.
 */
import type { Blobs } from '../adapters/blobs.js';
import type { JobRecord, Store, StoreTransaction } from '../adapters/store.js';
import type { IdempotencyService } from './idempotency.js';
import type { JobService } from './jobs.js';

interface AdmissionDeps {
  store: Store;
  blobs: Blobs;
  jobs: JobService;
  idempotency: IdempotencyService;
}

type Admission = { job: JobRecord; replay: boolean };

/** The job being admitted and the request's Idempotency-Key with its fingerprint, if it had one. */
interface Admitted {
  id: string;
  accountId: string;
  idempotency: { key: string; print: string } | null;
}

export function admissionSteps(deps: AdmissionDeps) {
  const { store, blobs, jobs, idempotency } = deps;
  const takeBack = (job: Admitted) => {
    store.jobs.delete(job.id);
    if (job.idempotency) idempotency.forget(job.accountId, job.idempotency.key);
  };
  return {
    /**
     * Runs `admit` under the request's Idempotency-Key (if it had one): a key already answered gives
     * that job back at once; the key is released after. The upload `admit` names through
     * `removeUnlessAdmitted` goes again unless its job was admitted (not a replay, nothing thrown),
     * so a refusal leaves nothing for the sweeper.
     */
    async guard(
      accountId: string,
      key: string | undefined,
      print: string,
      admit: (removeUnlessAdmitted: (uploadPath: string) => string) => Promise<Admission>,
    ): Promise<Admission> {
      if (key) {
        const replayOf = idempotency.begin(accountId, key, print);
        if (replayOf) return { job: store.jobs.get(replayOf)!, replay: true };
      }
      let uploadPath: string | null = null;
      let uploadKept = false;
      try {
        const result = await admit((path) => (uploadPath = path));
        uploadKept = !result.replay;
        return result;
      } finally {
        if (!uploadKept) await blobs.remove(uploadPath);
        if (key) idempotency.release(accountId, key);
      }
    },

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
    async commit(job: Admitted, replayOf: string | undefined, giveBack: () => Promise<void> = async () => {}): Promise<Admission> {
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
