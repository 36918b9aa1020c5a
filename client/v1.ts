/**
 * Typed client for the public `/v1` API (docs/api.md), shared by the drag-and-drop front end
 * (bundled for the browser and the desktop app) and the admin TUI. It only knows HTTP: no DOM, no
 * Node APIs, so the same module runs in both places.
 */
import { HttpClient, type HttpClientOptions } from './http.js';

type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'canceled' | 'expired';

/** The end states of the walk queued → processing → (one of these); polling stops at them. */
const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'canceled', 'expired']);

type Retention = 'none' | '24h' | '3d' | '7d' | '10d';

interface JobError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface Job {
  id: string;
  status: JobStatus;
  progress: number;
  queue_position?: number;
  mode?: string;
  retention: Retention;
  megapixels: number;
  created_at: string;
  download_url?: string;
  completed_at?: string;
  expires_at?: string;
  batch_id?: string;
  /** The upload's name and pixel size, as the server recorded them. */
  file_name?: string;
  width?: number;
  height?: number;
  /** Present on a failed job: why it failed, in the contract's error vocabulary. */
  error?: JobError;
  /** The settings applied (below Pro, the defaults that replaced the manual ones). */
  options?: Record<string, unknown>;
  /** The key scope that submitted it, or `render` for a re-render. */
  source?: 'api' | 'app' | 'render';
  /** A re-render: the job whose geometry it draws. */
  render_of?: string;
}

interface JobReport {
  id: string;
  job_id: string;
  reason: string;
  message: string;
  created_at: string;
}

interface JobList {
  jobs: Job[];
  next_cursor?: string | null;
}

/** One allowance of the account: the trial (5, once) or the plan's monthly one. */
interface Allowance {
  total: number | null;
  used: number;
  /** `null` for an unlimited allowance. */
  left: number | null;
}

export interface Account {
  id: string;
  name: string;
  plan: string;
  created_at?: string;
  allowances: {
    trial: Allowance;
    monthly: (Allowance & { reset_at: string }) | null;
  };
  limits?: {
    api?: boolean;
    max_retention?: Retention;
    batch_group?: number;
    max_megapixels?: number;
    active_jobs?: number;
    daily_fuse?: number;
    high_detail?: boolean;
    /** detail, gradients, smoothing and trace_style take effect; otherwise their defaults are used. */
    manual_settings?: boolean;
  };
}

/**
 * The output controls (docs/api.md, "Output controls"): fields of `POST /v1/vectorize` and all a
 * re-render (`POST /v1/jobs/{id}/render`) takes. Manual: below Pro their defaults apply.
 */
export interface OutputFields {
  /** 2–256 distinct fill colours at most. */
  max_colors?: number;
  /** Up to 64 `#rrggbb`; a list is sent comma-separated. */
  palette?: string | string[];
  background?: 'keep' | 'remove' | `#${string}`;
  group_by?: 'none' | 'color';
  width?: number;
  height?: number;
  unit?: 'px' | 'mm' | 'cm' | 'in' | 'pt';
  dpi?: number;
  stroke_order?: 'none' | 'plotter';
}

/** The form fields of `POST /v1/vectorize`, spelled as the contract spells them. */
export interface VectorizeFields extends OutputFields {
  image_type?: 'auto' | 'clipart' | 'photo' | 'scan' | 'blueprint';
  detail?: 'low' | 'medium' | 'high' | number;
  smoothing?: 'off' | 'light' | 'strong' | 'maximum' | number;
  gradients?: 'auto' | 'smooth' | 'stepped';
  trace_style?: 'fill' | 'centerline';
  close_seams?: boolean;
  retention?: Retention;
  batch_id?: string;
  folder_name?: string;
  output_format?: 'svg';
}

interface SubmitOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** First poll delay; later polls back off to `maxIntervalMs` while nothing changes. */
  intervalMs?: number;
  maxIntervalMs?: number;
  onUpdate?: (job: Job) => void;
  signal?: AbortSignal;
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Fields as form parts; a palette list goes comma-separated, as the form spells it. */
function formOf(fields: VectorizeFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return form;
}

export class V1Client {
  readonly http: HttpClient;

  constructor(options: HttpClientOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /** Submits one image; the answer is the queued job (202), conversion has not happened yet. */
  async vectorize(file: Blob, fileName: string, fields: VectorizeFields = {}, options: SubmitOptions = {}): Promise<Job> {
    const form = formOf(fields);
    // The file goes last so a server that streams the multipart body has every setting before the bytes.
    form.append('file', file, fileName);
    const headers: Record<string, string> = {};
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    return this.http.json<Job>('/v1/vectorize', { method: 'POST', body: form, headers, signal: options.signal });
  }

  /**
   * Draws a completed job's kept geometry again with other output controls: a new job (202,
   * `source: render`), no conversion charged. 409 `not_ready` before the first job completes,
   * 410 `result_expired` once its result is gone.
   */
  render(id: string, fields: OutputFields, options: SubmitOptions = {}): Promise<Job> {
    const headers: Record<string, string> = {};
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    return this.http.json<Job>(`/v1/jobs/${encodeURIComponent(id)}/render`, {
      method: 'POST',
      body: formOf(fields),
      headers,
      signal: options.signal,
    });
  }

  getJob(id: string, signal?: AbortSignal): Promise<Job> {
    return this.http.json<Job>(`/v1/jobs/${encodeURIComponent(id)}`, { signal });
  }

  listJobs(query: { batch_id?: string; status?: JobStatus; limit?: number; cursor?: string } = {}): Promise<JobList> {
    return this.http.json<JobList>('/v1/jobs', { query });
  }

  /** Cancels a queued or processing job (the job comes back), or deletes a finished one (nothing comes back). */
  async deleteJob(id: string): Promise<Job | undefined> {
    return this.http.json<Job | undefined>(`/v1/jobs/${encodeURIComponent(id)}`, { method: 'DELETE' });
  }

  /** The SVG text of a completed job. 409 `not_ready` before the result exists, 410 `result_expired` after. */
  async downloadSvg(id: string, signal?: AbortSignal): Promise<string> {
    const response = await this.http.raw(`/v1/jobs/${encodeURIComponent(id)}/download`, { signal });
    return response.text();
  }

  /** Flags a job's result for the server's admins (201 with the report; they read it in the TUI). */
  reportJob(id: string, report: { reason: string; message?: string }): Promise<JobReport> {
    return this.http.json<JobReport>(`/v1/jobs/${encodeURIComponent(id)}/report`, {
      method: 'POST',
      json: { reason: report.reason, message: report.message ?? '' },
    });
  }

  account(signal?: AbortSignal): Promise<Account> {
    return this.http.json<Account>('/v1/account', { signal });
  }

  /**
   * Polls a job until it reaches an end state and returns it. Polls quickly at first (a small logo
   * finishes in well under a second) and backs off while nothing changes, so a long photo job does
   * not cost hundreds of requests.
   */
  async waitForJob(id: string, options: WaitOptions = {}): Promise<Job> {
    const sleep = options.sleep ?? defaultSleep;
    const first = options.intervalMs ?? 250;
    const max = options.maxIntervalMs ?? 2_000;
    let delay = first;
    let last = '';
    for (;;) {
      const job = await this.getJob(id, options.signal);
      const fingerprint = `${job.status}:${job.progress}:${job.queue_position ?? ''}`;
      if (fingerprint !== last) {
        options.onUpdate?.(job);
        delay = first;
        last = fingerprint;
      } else {
        delay = Math.min(max, Math.round(delay * 1.5));
      }
      if (TERMINAL_STATUSES.has(job.status)) return job;
      await sleep(delay, options.signal);
    }
  }
}

/**
 * Conversions left for the account, trial first as the server spends them: the trial's count while
 * any is left, else the monthly allowance (`null` when unlimited).
 */
export function conversionsLeft(account: Account): { source: 'trial' | 'monthly'; left: number | null; resetAt?: string } {
  const { trial, monthly } = account.allowances;
  if ((trial.left ?? 0) > 0 || monthly === null) return { source: 'trial', left: trial.left ?? 0 };
  return { source: 'monthly', left: monthly.left, resetAt: monthly.reset_at };
}
