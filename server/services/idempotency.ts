/**
 * Idempotency-Key, per account, remembered 24 h. The fingerprint is the SHA-256 of the file bytes
 * and every form field, so a replay is recognised byte for byte and any change is a reuse (409).
 * A key whose first request is still being accepted is held in memory: a duplicate arriving then
 * answers 409 request_in_progress instead of racing it into a second job.
 */
import { createHash } from 'node:crypto';
import { VectorizeError } from '../http-errors.js';
import type { Clock } from '../adapters/clock.js';
import type { Store } from '../adapters/store.js';
import { DAY_MS } from '../limits.js';

const IDEMPOTENCY_TTL_MS = DAY_MS;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function fingerprint(fileSha256: string, fields: Record<string, string>): string {
  const hash = createHash('sha256').update(fileSha256);
  for (const name of Object.keys(fields).sort()) hash.update(`\n${name}=${JSON.stringify(fields[name])}`);
  return hash.digest('hex');
}

export function idempotencyService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  const inFlight = new Set<string>();
  const recordId = (accountId: string, key: string) => `${accountId}:${key}`;

  /** The job of a live record for the key (throws on a different fingerprint); drops a stale record. */
  function replayOf(accountId: string, key: string, print: string): string | undefined {
    const id = recordId(accountId, key);
    const record = store.idempotency.get(id);
    if (record && clock.now().getTime() - new Date(record.created_at).getTime() < IDEMPOTENCY_TTL_MS && store.jobs.get(record.job_id)) {
      if (record.fingerprint !== print) {
        throw new VectorizeError('idempotency_key_reuse', 'This Idempotency-Key was used with a different file or settings.', {
          idempotency_key: key,
          job_id: record.job_id,
        });
      }
      return record.job_id;
    }
    if (record) store.idempotency.delete(id);
    return undefined;
  }

  return {
    validateKey(key: string | undefined): string | undefined {
      if (key === undefined) return undefined;
      if (!KEY_PATTERN.test(key)) {
        throw new VectorizeError('invalid_parameter', 'Idempotency-Key must be 1–255 visible ASCII characters.', {
          field: 'Idempotency-Key',
        });
      }
      return key;
    },

    /**
     * Returns the job id of a replay, or undefined when the request is new; in that case the key
     * is held until release() or remember().
     */
    begin(accountId: string, key: string, print: string): string | undefined {
      const id = recordId(accountId, key);
      if (inFlight.has(id)) {
        throw new VectorizeError('request_in_progress', 'A request with this Idempotency-Key is still being accepted; retry shortly.', {
          idempotency_key: key,
        });
      }
      const earlier = replayOf(accountId, key, print);
      if (earlier) return earlier;
      inFlight.add(id);
      return undefined;
    },

    replayOf,

    /** Drops the key's record: the job it named was never accepted after all. */
    forget(accountId: string, key: string): void {
      store.idempotency.delete(recordId(accountId, key));
    },

    remember(accountId: string, key: string, print: string, jobId: string): void {
      const id = recordId(accountId, key);
      store.idempotency.insert({
        id,
        account_id: accountId,
        key,
        fingerprint: print,
        job_id: jobId,
        created_at: clock.now().toISOString(),
      });
      inFlight.delete(id);
    },

    release(accountId: string, key: string): void {
      inFlight.delete(recordId(accountId, key));
    },

    prune(): number {
      const cutoff = clock.now().getTime() - IDEMPOTENCY_TTL_MS;
      let removed = 0;
      for (const record of store.idempotency.filter((r) => new Date(r.created_at).getTime() <= cutoff)) {
        store.idempotency.delete(record.id);
        removed++;
      }
      return removed;
    },
  };
}

export type IdempotencyService = ReturnType<typeof idempotencyService>;
