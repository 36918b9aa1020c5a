/**
 * POST /v1/jobs/{id}/render: a new result drawn from a completed job's kept geometry with other
 * output controls (paint, background, layers, size), without tracing again. A re-render is a job
 * of its own (202, `source: render`, `render_of`), polled, downloaded, canceled and expired like
 * any; it charges no conversion and records no acceptance for the daily fuse. Checks in order:
 *   400 fields → 404 job (another account's answers the same) → 409 not_ready / 410 result_expired
 *   → Idempotency-Key → 429 too_many_active_jobs → 503 queue_full, storage_full → 202.
 * The geometry is copied to the new job's upload at once, so deleting or expiring the first job
 * afterwards does not take it from a re-render still waiting in the queue.
 */
import { DEFAULT_OUTPUT_CONTROLS, type OutputControls } from '../../engine/types.js';
import { parseTraceOptions, type OutputField } from '../../engine/options.js';
import { VectorizeError } from '../http-errors.js';
import type { AccountRecord, JobRecord, Store } from '../adapters/store.js';
import type { Blobs } from '../adapters/blobs.js';
import type { Clock } from '../adapters/clock.js';
import type { DiskProbe } from '../adapters/disk.js';
import { newId } from '../ids.js';
import { clampRetention, manualFieldsEffective } from '../plans.js';
import type { AccountService } from './accounts.js';
import { fingerprint, type IdempotencyService } from './idempotency.js';
import type { JobService } from './jobs.js';
import { admissionSteps } from './admission.js';
import type { RetentionService } from './retention.js';
import { MAX_FIELD_LENGTH } from './submissions.js';

/**
 * The fields a re-render takes and the controls each replaces. The size fields travel together:
 * a new `width` with the old `height` would stretch the drawing, so any of them replaces all four.
 */
const SIZE_CONTROLS: (keyof OutputControls)[] = ['width', 'height', 'unit', 'dpi'];
export const RENDER_FIELDS: Readonly<Record<OutputField, readonly (keyof OutputControls)[]>> = Object.freeze({
  max_colors: ['maxColors'],
  palette: ['palette'],
  background: ['background'],
  group_by: ['groupBy'],
  stroke_order: ['strokeOrder'],
  width: SIZE_CONTROLS,
  height: SIZE_CONTROLS,
  unit: SIZE_CONTROLS,
  dpi: SIZE_CONTROLS,
});

interface RenderRequest {
  account: AccountRecord;
  jobId: string;
  fields: Record<string, string>;
  idempotencyKey: string | undefined;
}

interface RenderDeps {
  store: Store;
  blobs: Blobs;
  clock: Clock;
  disk: DiskProbe;
  accounts: AccountService;
  jobs: JobService;
  retention: RetentionService;
  idempotency: IdempotencyService;
}

/** The controls a request replaces, validated (400 invalid_parameter naming the field). */
function requestedControls(fields: Record<string, string>): Partial<OutputControls> {
  const names = Object.keys(fields);
  const allowed = Object.keys(RENDER_FIELDS);
  for (const name of names) {
    if (!Object.hasOwn(RENDER_FIELDS, name)) {
      throw new VectorizeError('invalid_parameter', `Unknown field \`${name}\`; a re-render takes ${allowed.join(', ')}.`, {
        field: name,
        allowed,
      });
    }
    if (fields[name].length > MAX_FIELD_LENGTH)
      throw new VectorizeError('invalid_parameter', `${name} is too long.`, { field: name, max_length: MAX_FIELD_LENGTH });
  }
  if (names.length === 0)
    throw new VectorizeError('invalid_parameter', `A re-render needs at least one of ${allowed.join(', ')}.`, { allowed });
  const parsed = parseTraceOptions(fields).output;
  const replaced: Partial<Record<keyof OutputControls, unknown>> = {};
  for (const name of names as OutputField[]) for (const control of RENDER_FIELDS[name]) replaced[control] = parsed[control];
  return replaced as Partial<OutputControls>;
}

export function renderService(deps: RenderDeps) {
  const { store, blobs, clock, disk, accounts, jobs, retention, idempotency } = deps;
  const steps = admissionSteps(deps);

  /** The first job, if its geometry can still be drawn: 404, 409 not_ready or 410 result_expired otherwise. */
  async function drawable(jobId: string, accountId: string): Promise<JobRecord & { document_path: string }> {
    const job = jobs.getOwned(jobId, accountId);
    const now = clock.now();
    if (job.status === 'completed' && job.expires_at && new Date(job.expires_at).getTime() <= now.getTime())
      await retention.expire(job, now);
    const current = store.jobs.get(job.id) ?? job;
    if (current.status === 'expired')
      throw new VectorizeError('result_expired', 'The result is no longer available.', { expired_at: current.expires_at });
    if (current.status !== 'completed') {
      throw new VectorizeError(
        'not_ready',
        current.status === 'queued' || current.status === 'processing'
          ? 'The job has no result to re-render yet; poll it until it is completed.'
          : `The job is ${current.status}; it has no result to re-render.`,
        { status: current.status },
      );
    }
    // A job traced before geometry was kept, or by a stand-in engine: its drawing is gone for good.
    if (!current.document_path)
      throw new VectorizeError('result_expired', "This job's geometry was not kept; submit the image again.", { job_id: current.id });
    return current as JobRecord & { document_path: string };
  }

  return {
    async render(request: RenderRequest): Promise<{ job: JobRecord; replay: boolean }> {
      const { fields } = request;
      const accountId = request.account.id;
      const replaced = requestedControls(fields);
      const first = await drawable(request.jobId, accountId);
      const controls: OutputControls = { ...(first.options.output ?? DEFAULT_OUTPUT_CONTROLS), ...replaced };
      const idemKey = idempotency.validateKey(request.idempotencyKey);
      const print = fingerprint(`render:${first.id}`, fields);
      return steps.guard(accountId, idemKey, print, async (removeUnlessAdmitted) => {
        const id = newId('job');
        const admitted = { id, accountId, idempotency: idemKey ? { key: idemKey, print } : null };
        let uploadPath: string;
        try {
          uploadPath = removeUnlessAdmitted(await blobs.copyToUpload(first.document_path, id));
        } catch {
          // Expired or deleted between the check and the copy.
          throw new VectorizeError('result_expired', 'The result is no longer available.', { job_id: first.id });
        }
        const freeBytes = await disk.freeBytes(blobs.root);
        const admission = await store.exclusive(accountId, async (tx) => {
          const earlier = idemKey ? idempotency.replayOf(accountId, idemKey, print) : undefined;
          if (earlier) return { replayOf: earlier };
          const account = accounts.get(accountId);
          const plan = accounts.limits(account);
          jobs.assertActiveRoom(account, plan);
          jobs.assertServiceRoom(freeBytes);
          // Below Pro the output controls are manual fields like the others: their defaults apply.
          const output = manualFieldsEffective(account.plan) ? controls : { ...DEFAULT_OUTPUT_CONTROLS };
          const now = clock.now().toISOString();
          store.jobs.insert({
            ...first,
            id,
            seq: 0,
            status: 'queued',
            created_at: now,
            started_at: null,
            completed_at: null,
            expires_at: null,
            ended_at: null,
            retention: clampRetention(first.retention, plan.maxRetention),
            requested_retention: first.retention,
            options: { ...first.options, output },
            upload_path: uploadPath,
            result_path: null,
            result_bytes: null,
            document_path: null,
            render_of: first.id,
            attempts: 0,
            error: null,
            charged: 'none',
            charged_period: null,
            estimate_ms: jobs.estimateMs(first.megapixels),
            downloaded_at: null,
            source: 'render',
          });
          await steps.enterQueue(admitted, tx);
          return {};
        });
        return steps.commit(admitted, admission.replayOf);
      });
    },
  };
}

export type RenderService = ReturnType<typeof renderService>;
