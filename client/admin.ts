/**
 * Typed client of the admin API (`/admin/v1`), the only way the TUI touches data: the server stays
 * the one writer of the database (docs/operations.md, "Single writer"). The server accepts these routes from loopback
 * only, with the admin token it writes to `<dataDir>/admin.token`.
 *
 * `AdminApi` is the seam the TUI codes against, so screens are tested with an in-memory fake and
 * run against `AdminClient` for real.
 */
import { ApiError, HttpClient, type HttpClientOptions } from './http.js';

export const PLAN_NAMES = ['trial', 'lite', 'pro', 'studio', 'agency', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'canceled', 'expired'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** One allowance of an account: the one-time trial or the plan's monthly one. */
export interface Allowance {
  /** `null`: unlimited (enterprise unless configured). */
  total: number | null;
  used: number;
  /** `null`: unlimited. */
  left: number | null;
  /** Next reset (ISO 8601 UTC) of a monthly allowance; the trial has none, it never renews. */
  reset_at?: string | null;
}

/** A plan's terms as the server is configured (defaults merged with VECTORIZE_PLANS_FILE). */
export interface AdminPlan {
  name: PlanName;
  api: boolean;
  /** `null`: not metered monthly. */
  monthly_allowance: number | null;
  max_retention: string;
  batch_group: number;
  max_megapixels: number;
  active_jobs: number;
  daily_fuse: number;
  high_detail: boolean;
  /** detail, gradients, smoothing and trace_style take effect (else their defaults are used). */
  manual_settings: boolean;
}

export interface AdminPlans {
  /** Given once to every account, spent before any monthly allowance. */
  trial_conversions: number;
  plans: AdminPlan[];
}

/** `api` for scripts and integrations, `app` for the desktop app and the page (the only kind a Lite account may use). */
export type KeyScope = 'api' | 'app';

export interface AdminAccount {
  id: string;
  name: string;
  plan: PlanName;
  created_at: string;
  allowances: {
    trial: Allowance;
    /** `null` on the trial plan, which lives on the trial counter alone. */
    monthly: Allowance | null;
  };
}

export interface AdminKey {
  id: string;
  account_id: string;
  name: string;
  /** `service_sk_live_`: the fixed readable prefix (docs/api.md, "Authentication and keys"). */
  prefix: string;
  last4: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
  /** Servers that keep revoked keys listed mark them; others delete them on revoke. */
  revoked_at?: string | null;
}

export interface CreatedKey {
  key: AdminKey;
  /** The whole key, returned once at creation and never again (docs/api.md, "Authentication and keys"). */
  secret: string;
}

export interface AdminJob {
  id: string;
  account_id: string;
  status: JobStatus;
  progress: number;
  queue_position?: number;
  mode?: string | null;
  megapixels?: number;
  created_at: string;
  completed_at?: string;
  batch_id?: string;
  /** The upload's name. */
  file_name?: string;
  /** Present on a failed job. */
  error?: { code: string; message: string };
}

export interface AdminReport {
  id: string;
  job_id: string;
  account_id: string;
  reason: string;
  message: string;
  created_at: string;
}

export interface AdminStats {
  version?: string;
  /** Jobs waiting for a worker. */
  queue_length: number;
  processing: number;
  workers?: number;
  accounts: number;
  /** Jobs in the store by status. */
  jobs: Partial<Record<JobStatus, number>>;
}

export interface AdminWebhook {
  id: string;
  account_id: string;
  url: string;
  created_at: string;
}

export interface CreatedWebhook {
  webhook: AdminWebhook;
  /** The signing secret, returned once at creation (docs/webhooks.md). */
  secret: string;
}

export interface AdminDelivery {
  id: string;
  webhook_id: string;
  event: string;
  event_id: string;
  job_id?: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
}

/** What the TUI needs from the server; `AdminClient` implements it over HTTP. */
export interface AdminApi {
  readonly baseUrl: string;
  stats(): Promise<AdminStats>;
  listAccounts(): Promise<AdminAccount[]>;
  getAccount(id: string): Promise<AdminAccount>;
  createAccount(input: { name: string; plan: PlanName }): Promise<AdminAccount>;
  setPlan(accountId: string, plan: PlanName): Promise<AdminAccount>;
  listPlans(): Promise<AdminPlans>;
  listKeys(filter?: { accountId?: string }): Promise<AdminKey[]>;
  createKey(input: { accountId: string; name?: string; scope?: KeyScope }): Promise<CreatedKey>;
  revokeKey(id: string): Promise<void>;
  listJobs(filter?: { status?: JobStatus }): Promise<AdminJob[]>;
  /** The job afterwards: `canceled`, or the end state it reached before the call. */
  cancelJob(id: string): Promise<AdminJob>;
  listReports(): Promise<AdminReport[]>;
  listWebhooks(): Promise<AdminWebhook[]>;
  createWebhook(input: { accountId: string; url: string }): Promise<CreatedWebhook>;
  deleteWebhook(id: string): Promise<void>;
  listDeliveries(webhookId: string): Promise<AdminDelivery[]>;
  sendTestEvent(webhookId: string): Promise<void>;
}

/**
 * A feature whose admin routes this server does not have (the webhook routes arrive with their own
 * issue): screens show "not available on this server" instead of an error.
 */
export class FeatureUnavailableError extends Error {
  readonly feature: string;
  constructor(feature: string, options?: { cause?: unknown }) {
    super(`${feature} are not available on this server`, options);
    this.name = 'FeatureUnavailableError';
    this.feature = feature;
  }
}

const ADMIN_PREFIX = '/admin/v1';
/** Jobs fetched per poll: the whole live queue of a LAN box, plus the most recent finished ones. */
const JOBS_PAGE = 200;

interface AdminClientOptions extends Omit<HttpClientOptions, 'token'> {
  /** The contents of `<dataDir>/admin.token`. */
  adminToken: string;
}

export class AdminClient implements AdminApi {
  readonly baseUrl: string;
  private readonly http: HttpClient;

  constructor(options: AdminClientOptions) {
    this.http = new HttpClient({ ...options, token: options.adminToken });
    this.baseUrl = this.http.baseUrl;
  }

  stats(): Promise<AdminStats> {
    return this.http.json<AdminStats>(`${ADMIN_PREFIX}/stats`);
  }

  async listAccounts(): Promise<AdminAccount[]> {
    return (await this.http.json<{ accounts: AdminAccount[] }>(`${ADMIN_PREFIX}/accounts`)).accounts;
  }

  getAccount(id: string): Promise<AdminAccount> {
    return this.http.json<AdminAccount>(`${ADMIN_PREFIX}/accounts/${encodeURIComponent(id)}`);
  }

  createAccount(input: { name: string; plan: PlanName }): Promise<AdminAccount> {
    return this.http.json<AdminAccount>(`${ADMIN_PREFIX}/accounts`, { method: 'POST', json: input });
  }

  setPlan(accountId: string, plan: PlanName): Promise<AdminAccount> {
    return this.http.json<AdminAccount>(`${ADMIN_PREFIX}/accounts/${encodeURIComponent(accountId)}/plan`, {
      method: 'PUT',
      json: { plan },
    });
  }

  listPlans(): Promise<AdminPlans> {
    return this.http.json<AdminPlans>(`${ADMIN_PREFIX}/plans`);
  }

  async listKeys(filter: { accountId?: string } = {}): Promise<AdminKey[]> {
    const query = { account_id: filter.accountId };
    return (await this.http.json<{ keys: AdminKey[] }>(`${ADMIN_PREFIX}/keys`, { query })).keys;
  }

  async createKey(input: { accountId: string; name?: string; scope?: KeyScope }): Promise<CreatedKey> {
    const { secret, ...key } = await this.http.json<AdminKey & { secret: string }>(`${ADMIN_PREFIX}/keys`, {
      method: 'POST',
      json: { account_id: input.accountId, ...(input.name ? { name: input.name } : {}), ...(input.scope ? { scope: input.scope } : {}) },
    });
    return { key, secret };
  }

  async revokeKey(id: string): Promise<void> {
    await this.http.json(`${ADMIN_PREFIX}/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
  }

  async listJobs(filter: { status?: JobStatus } = {}): Promise<AdminJob[]> {
    const query = { status: filter.status, limit: JOBS_PAGE };
    return (await this.http.json<{ jobs: AdminJob[] }>(`${ADMIN_PREFIX}/jobs`, { query })).jobs;
  }

  /**
   * Cancel-only: DELETE would delete a job (and its result) that ended between the operator's
   * confirmation and the call; this route leaves an ended job as it is.
   */
  async cancelJob(id: string): Promise<AdminJob> {
    return this.http.json<AdminJob>(`${ADMIN_PREFIX}/jobs/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
  }

  async listReports(): Promise<AdminReport[]> {
    return (await this.http.json<{ reports: AdminReport[] }>(`${ADMIN_PREFIX}/reports`)).reports;
  }

  async listWebhooks(): Promise<AdminWebhook[]> {
    // The list route names no resource, so any 404 from it means the route itself is missing.
    const list = () => this.http.json<{ webhooks: AdminWebhook[] }>(`${ADMIN_PREFIX}/webhooks`);
    return (await this.webhookRoute(list, { anyNotFound: true })).webhooks;
  }

  async createWebhook(input: { accountId: string; url: string }): Promise<CreatedWebhook> {
    const { secret, ...webhook } = await this.webhookRoute(() =>
      this.http.json<AdminWebhook & { secret: string }>(`${ADMIN_PREFIX}/webhooks`, {
        method: 'POST',
        json: { account_id: input.accountId, url: input.url },
      }),
    );
    return { webhook, secret };
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.http.json(`${ADMIN_PREFIX}/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
  }

  async listDeliveries(webhookId: string): Promise<AdminDelivery[]> {
    const path = `${ADMIN_PREFIX}/webhooks/${encodeURIComponent(webhookId)}/deliveries`;
    return (await this.webhookRoute(() => this.http.json<{ deliveries: AdminDelivery[] }>(path))).deliveries;
  }

  async sendTestEvent(webhookId: string): Promise<void> {
    await this.webhookRoute(() => this.http.json(`${ADMIN_PREFIX}/webhooks/${encodeURIComponent(webhookId)}/test`, { method: 'POST' }));
  }

  /**
   * A route the server never registered answers hapi's bare 404 (no contract error body, so
   * HttpClient reports code `internal_error`), while a missing webhook answers `not_found`; only
   * the first means "this server has no webhook admin routes".
   */
  private async webhookRoute<T>(call: () => Promise<T>, options: { anyNotFound?: boolean } = {}): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && (options.anyNotFound || error.code !== 'not_found')) {
        throw new FeatureUnavailableError('Webhooks', { cause: error });
      }
      throw error;
    }
  }
}
