/**
 * The store adapter: every record the server keeps, behind one small interface so the lowdb file
 * can be replaced by PostgreSQL later. Collections are keyed by id; services never touch files.
 */
import type { ImageClass, InputFormat, TraceOptions } from '../../engine/types.js';
import type { PlanName, Retention } from '../plans.js';

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'canceled', 'expired'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const END_STATES: readonly JobStatus[] = ['completed', 'failed', 'canceled', 'expired'];

export interface AccountRecord {
  id: string;
  name: string;
  plan: PlanName;
  created_at: string;
  /** Day of month (1–31) the monthly allowance resets on; set when the plan last changed. */
  billing_anchor_day: number;
  trial_used: number;
  /** Start (ISO) of the billing period `period_used` counts; another value means a new period. */
  period_start: string | null;
  period_used: number;
  /** Accepted submissions of the last 24 h (daily fuse); pruned as it is read. */
  accepted_at: string[];
}

export type KeyScope = 'api' | 'app';

export interface KeyRecord {
  id: string;
  account_id: string;
  name: string;
  scope: KeyScope;
  /** SHA-256 hex of the whole secret; the secret itself is never stored. */
  hash: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
}

interface JobError {
  code: string;
  message: string;
}

export interface JobRecord {
  id: string;
  /** Order of acceptance (newest first in listings; the pagination cursor). */
  seq: number;
  account_id: string;
  status: JobStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
  ended_at: string | null;
  retention: Retention;
  requested_retention: Retention;
  megapixels: number;
  width: number;
  height: number;
  format: InputFormat;
  mode: ImageClass | null;
  options: TraceOptions;
  file_name: string;
  /** Paths relative to the data dir. */
  upload_path: string | null;
  result_path: string | null;
  result_bytes: number | null;
  /**
   * The trace's geometry beside the result (re-renders draw from it); removed with the result.
   * Absent on records written before geometry was kept.
   */
  document_path?: string | null;
  /** A re-render (POST /v1/jobs/{id}/render): the job whose geometry it draws. */
  render_of?: string;
  batch_id: string | null;
  folder_id: string | null;
  attempts: number;
  error: JobError | null;
  /** Which allowance paid for the job, so a failure can refund it. */
  charged: 'trial' | 'monthly' | 'none';
  charged_period: string | null;
  estimate_ms: number;
  downloaded_at: string | null;
  /** The key scope that submitted the upload, or `render` for a re-render of a kept geometry. */
  source: KeyScope | 'render';
}

export interface FolderRecord {
  id: string;
  account_id: string;
  batch_id: string;
  name: string;
  created_at: string;
}

export interface ReportRecord {
  id: string;
  account_id: string;
  job_id: string;
  reason: string;
  message: string;
  created_at: string;
}

interface IdempotencyRecord {
  id: string; // `${account_id}:${key}`
  account_id: string;
  key: string;
  fingerprint: string;
  job_id: string;
  created_at: string;
}

export const WEBHOOK_EVENTS = ['processing.started', 'processing.completed', 'processing.failed'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookRecord {
  id: string;
  account_id: string;
  url: string;
  /** The signing secret sealed with the data dir's key (adapters/secret-box.ts); never plain text. */
  secret_sealed: string;
  events: WebhookEventKind[];
  description?: string;
  created_at: string;
}

export interface EventBody {
  id: string;
  event: WebhookEventKind;
  created_at: string;
  data: { job_id: string; status: string; download_url?: string; error?: { code: string } };
}

export interface DeliveryAttempt {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event: WebhookEventKind;
  attempt: number;
  status: number | null;
  ok: boolean;
  duration_ms: number;
  error?: string;
  at: string;
}

export interface DeliveryRecord {
  id: string;
  webhook_id: string;
  account_id: string;
  event: EventBody;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  /** Every attempt so far, oldest first: the endpoint's delivery log. */
  log: DeliveryAttempt[];
}

export interface Collection<T extends { id: string }> {
  get(id: string): T | undefined;
  all(): T[];
  find(predicate: (record: T) => boolean): T | undefined;
  filter(predicate: (record: T) => boolean): T[];
  insert(record: T): T;
  /** Shallow-merges the patch; returns the updated record or undefined when there is none. */
  update(id: string, patch: Partial<T>): T | undefined;
  delete(id: string): boolean;
  count(predicate?: (record: T) => boolean): number;
}

/** The database transaction an exclusive() section runs in, where the store has one (PostgreSQL). */
export interface StoreTransaction {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Store {
  accounts: Collection<AccountRecord>;
  keys: Collection<KeyRecord>;
  jobs: Collection<JobRecord>;
  folders: Collection<FolderRecord>;
  reports: Collection<ReportRecord>;
  idempotency: Collection<IdempotencyRecord>;
  webhooks: Collection<WebhookRecord>;
  deliveries: Collection<DeliveryRecord>;
  /** Resolves once every change made so far is on disk (used before answering a creating request). */
  flush(): Promise<void>;
  /**
   * Runs `section` as the only admission for the account, across every process sharing the
   * records: what it reads of the account (the account, its active jobs, its idempotency keys)
   * is current, and what it writes is stored before another section for the account starts.
   */
  exclusive<T>(accountId: string, section: (tx: StoreTransaction | null) => T | Promise<T>): Promise<T>;
  /** Rejects when the records cannot be reached (GET /readyz): the database for PostgreSQL. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreData {
  version: 1;
  accounts: AccountRecord[];
  keys: KeyRecord[];
  jobs: JobRecord[];
  folders: FolderRecord[];
  reports: ReportRecord[];
  idempotency: IdempotencyRecord[];
  webhooks: WebhookRecord[];
  deliveries: DeliveryRecord[];
}

export const COLLECTIONS = ['accounts', 'keys', 'jobs', 'folders', 'reports', 'idempotency', 'webhooks', 'deliveries'] as const;

export function emptyData(): StoreData {
  return { version: 1, accounts: [], keys: [], jobs: [], folders: [], reports: [], idempotency: [], webhooks: [], deliveries: [] };
}
