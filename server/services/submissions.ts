/**
 * POST /v1/vectorize: from a parsed multipart form to a queued job. The checks run in a fixed
 * order a client can rely on:
 *   400 fields (missing_file, empty_file, file_too_large, output format, parameters, batch labels)
 *   → Idempotency-Key (replay 202 / 409 reuse / 409 in progress)
 *   → 415/400 probe of the bytes (format from the bytes, never the name)
 *   → 400 batch_limit_exceeded → 402 megapixels / high detail → 402 quota_exhausted
 *   → 429 too_many_active_jobs, daily_fuse_tripped → 503 queue_full, storage_full → 202.
 * The checks from the account's limits to the insert run in store.exclusive(): one admission per
 * account at a time on every node sharing the records, so two concurrent requests cannot both
 * squeeze into the last slot of an allowance, nor one Idempotency-Key make two jobs.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { uploadTooLarge, VectorizeError } from '../http-errors.js';
import { OUTPUT_FIELDS, parseTraceOptions, bucketDetail } from '../../engine/options.js';
import { DEFAULT_OUTPUT_CONTROLS, DEFAULT_TRACE_OPTIONS, type TraceOptions } from '../../engine/types.js';
import type { AccountRecord, JobRecord, KeyRecord, Store } from '../adapters/store.js';
import type { Blobs } from '../adapters/blobs.js';
import type { Clock } from '../adapters/clock.js';
import type { DiskProbe } from '../adapters/disk.js';
import type { ImageProber } from '../adapters/engine.js';
import { newId } from '../ids.js';
import { RETENTIONS, clampRetention, manualFieldsEffective, type Retention } from '../plans.js';
import type { AccountService } from './accounts.js';
import type { FolderService } from './folders.js';
import { fingerprint, type IdempotencyService } from './idempotency.js';
import type { JobService } from './jobs.js';
import { isValidLabel } from './folders.js';
import { admissionSteps } from './admission.js';
import { DAY_MS, MAX_UPLOAD_BYTES } from '../limits.js';

export const FORM_FIELDS = [
  'image_type',
  'output_format',
  'retention',
  'batch_id',
  'folder_name',
  'detail',
  'gradients',
  'smoothing',
  'trace_style',
  'close_seams',
  ...OUTPUT_FIELDS,
] as const;
export const MAX_FIELD_LENGTH = 1024;

export interface UploadedFile {
  path: string;
  bytes: number;
  filename: string;
}

interface Submission {
  account: AccountRecord;
  key: KeyRecord;
  file: UploadedFile | undefined;
  fields: Record<string, string>;
  idempotencyKey: string | undefined;
}

interface SubmissionDeps {
  store: Store;
  blobs: Blobs;
  clock: Clock;
  disk: DiskProbe;
  prober: ImageProber;
  accounts: AccountService;
  jobs: JobService;
  folders: FolderService;
  idempotency: IdempotencyService;
}

/** Upload names are kept for the download's filename only; control characters never survive. */
/**
 * Control characters, line separators and the bidi controls (embeddings, overrides, isolates and
 * the marks): a download named `evil\u202egnp.svg` would display as "evilgvs.png" in a save
 * dialog, so a name must read as the bytes it is.
 */
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

export function cleanFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/')).replace(UNSAFE_NAME_CHARACTERS, '').trim();
  return (base || 'image').slice(0, 200);
}

function validateFields(fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) {
    // A misspelt option (colour=, detial=) would otherwise fall back to its default without a word.
    if (!(FORM_FIELDS as readonly string[]).includes(name)) {
      throw new VectorizeError('invalid_parameter', `Unknown form field \`${name}\`; the fields are file, ${FORM_FIELDS.join(', ')}.`, {
        field: name,
        allowed: ['file', ...FORM_FIELDS],
      });
    }
    if (value.length > MAX_FIELD_LENGTH)
      throw new VectorizeError('invalid_parameter', `${name} is too long.`, { field: name, max_length: MAX_FIELD_LENGTH });
  }
  const outputFormat = fields.output_format;
  if (outputFormat !== undefined && outputFormat !== '' && outputFormat.toLowerCase() !== 'svg') {
    throw new VectorizeError(
      'unsupported_output_format',
      `Output format ${JSON.stringify(outputFormat)} is not offered; the only output is svg.`,
      {
        field: 'output_format',
        allowed: ['svg'],
      },
    );
  }
  const retentionRaw = fields.retention === undefined || fields.retention === '' ? '24h' : fields.retention;
  if (!(RETENTIONS as readonly string[]).includes(retentionRaw)) {
    throw new VectorizeError('invalid_parameter', `retention must be one of ${RETENTIONS.join(', ')}.`, {
      field: 'retention',
      allowed: RETENTIONS,
    });
  }
  const batchId = fields.batch_id === undefined || fields.batch_id === '' ? null : fields.batch_id;
  if (fields.batch_id !== undefined && !isValidLabel(fields.batch_id)) {
    throw new VectorizeError('invalid_batch_id', 'batch_id is 1–128 characters without control characters.', {
      field: 'batch_id',
      max_length: 128,
    });
  }
  const folderName = fields.folder_name === undefined ? null : fields.folder_name;
  if (folderName !== null) {
    if (!isValidLabel(folderName)) {
      throw new VectorizeError('invalid_folder_name', 'folder_name is 1–128 characters without control characters.', {
        field: 'folder_name',
        max_length: 128,
      });
    }
    if (batchId === null) throw new VectorizeError('invalid_folder_name', 'folder_name needs a batch_id.', { field: 'folder_name' });
  }
  const options = parseTraceOptions(fields);
  return { retention: retentionRaw as Retention, batchId, folderName, options };
}

export function submissionService(deps: SubmissionDeps) {
  const { store, blobs, clock, disk, prober, accounts, jobs, folders, idempotency } = deps;
  const steps = admissionSteps(deps);

  return {
    /** Returns the job and whether it is a replay of an earlier request. */
    async submit(submission: Submission): Promise<{ job: JobRecord; replay: boolean }> {
      const { key, file, fields } = submission;
      if (!file) throw new VectorizeError('missing_file', 'The form has no `file` part.', { field: 'file' });
      if (file.bytes > MAX_UPLOAD_BYTES) throw uploadTooLarge();
      if (file.bytes === 0) throw new VectorizeError('empty_file', 'The uploaded file is empty.', { field: 'file' });
      const parsed = validateFields(fields);
      const idemKey = idempotency.validateKey(submission.idempotencyKey);

      const bytes = new Uint8Array(await readFile(file.path));
      const fileHash = createHash('sha256').update(bytes).digest('hex');
      const print = fingerprint(fileHash, fields);
      const accountId = submission.account.id;
      return steps.guard(accountId, idemKey, print, async (removeUnlessAdmitted) => {
        const probe = await prober.probe(bytes);
        const freeBytes = await disk.freeBytes(blobs.root);
        const id = newId('job');
        // In place before the admission commits: a worker on another node may take the job at once.
        const uploadPath = removeUnlessAdmitted(await blobs.adoptUpload(file.path, id));
        // A full disk (or any failed write) refuses the whole submission: no job, no charge, no
        // upload left for the sweeper, and the key is free for the retry.
        const admitted = { id, accountId, idempotency: idemKey ? { key: idemKey, print } : null };
        // ── the admission: one per account at a time (store.exclusive) ──
        const admission = await store.exclusive(accountId, async (tx) => {
          // Another node may have accepted this Idempotency-Key since begin() looked.
          const earlier = idemKey ? idempotency.replayOf(accountId, idemKey, print) : undefined;
          if (earlier) return { replayOf: earlier };
          const account = accounts.get(accountId);
          const plan = accounts.limits(account);
          if (parsed.batchId !== null) folders.assertRoom(account, parsed.batchId, plan.batchGroup);
          if (probe.megapixels > plan.maxMegapixels) {
            throw new VectorizeError(
              'megapixels_exceeded',
              `The image has ${probe.megapixels.toFixed(2)} MP; the ${account.plan} plan takes up to ${plan.maxMegapixels} MP.`,
              {
                megapixels: probe.megapixels,
                max_megapixels: plan.maxMegapixels,
              },
            );
          }
          const detailGiven = fields.detail !== undefined && fields.detail !== '';
          if (!plan.highDetail && detailGiven && bucketDetail(fields.detail) === 'high') {
            throw new VectorizeError('high_detail_not_included', `The ${account.plan} plan does not include detail=high.`, {
              field: 'detail',
            });
          }
          const options: TraceOptions = manualFieldsEffective(account.plan)
            ? parsed.options
            : {
                ...parsed.options,
                detail: DEFAULT_TRACE_OPTIONS.detail,
                gradients: DEFAULT_TRACE_OPTIONS.gradients,
                smoothing: DEFAULT_TRACE_OPTIONS.smoothing,
                traceStyle: DEFAULT_TRACE_OPTIONS.traceStyle,
                output: { ...DEFAULT_OUTPUT_CONTROLS },
              };
          if (!plan.highDetail && options.detail === 'high') options.detail = 'medium';

          // Quota before rate limits: a spent allowance is the lasting answer, a 429 a passing one.
          accounts.assertConversionLeft(account);
          jobs.assertActiveRoom(account, plan);
          const lastDay = accounts.acceptedLastDay(account);
          if (lastDay.length >= plan.dailyFuse) {
            const oldest = new Date(lastDay[0]).getTime();
            const retryAfter = Math.max(1, Math.ceil((oldest + DAY_MS - clock.now().getTime()) / 1000));
            throw new VectorizeError(
              'daily_fuse_tripped',
              `The account reached its daily fuse of ${plan.dailyFuse} accepted submissions in 24 hours.`,
              {
                daily_fuse: plan.dailyFuse,
                retry_after: retryAfter,
              },
            );
          }
          jobs.assertServiceRoom(freeBytes);

          const charge = accounts.charge(account);
          accounts.recordAcceptance(account);
          const folder = parsed.batchId !== null ? folders.admit(account, parsed.batchId, parsed.folderName) : null;
          const now = clock.now();
          const retention = clampRetention(parsed.retention, plan.maxRetention);
          store.jobs.insert({
            id,
            // Set below: the number comes from the queue, after every synchronous step.
            seq: 0,
            account_id: account.id,
            status: 'queued',
            created_at: now.toISOString(),
            started_at: null,
            completed_at: null,
            expires_at: null,
            ended_at: null,
            retention,
            requested_retention: parsed.retention,
            megapixels: probe.megapixels,
            width: probe.width,
            height: probe.height,
            format: probe.format,
            mode: options.imageType === 'auto' ? null : options.imageType,
            options,
            file_name: cleanFileName(file.filename),
            upload_path: uploadPath,
            result_path: null,
            result_bytes: null,
            batch_id: parsed.batchId,
            folder_id: folder?.id ?? null,
            attempts: 0,
            error: null,
            charged: charge.charged,
            charged_period: charge.period,
            estimate_ms: jobs.estimateMs(probe.megapixels),
            downloaded_at: null,
            source: key.scope,
          });
          // The awaits come last: what the section read and wrote above stays this node's (the
          // store keeps pending records from the change feed), whatever lands meanwhile.
          await steps.enterQueue(admitted, tx, () => accounts.uncharge(account.id, charge.charged, charge.period));
          return { charge };
        });
        // ── end of the admission ──
        const { charge } = admission;
        return steps.commit(admitted, admission.replayOf, async () => {
          if (charge) await accounts.refund(accountId, charge.charged, charge.period);
        });
      });
    },
  };
}

export type SubmissionService = ReturnType<typeof submissionService>;
