/**
 * An in-memory AdminApi for screen tests: it keeps its own records and works out allowances from
 * its `plans` (the server's defaults unless a test changes them), so a plan change made through the UI shows up in what the UI
 * reads back. Switches make it unreachable or without webhook routes.
 */
import {
  FeatureUnavailableError,
  type AdminAccount,
  type AdminApi,
  type AdminDelivery,
  type AdminJob,
  type AdminKey,
  type AdminPlan,
  type AdminPlans,
  type AdminReport,
  type AdminStats,
  type AdminWebhook,
  type CreatedKey,
  type CreatedWebhook,
  type JobStatus,
  type PlanName,
} from '../../client/admin.js';
import { ApiError, UnreachableError } from '../../client/http.js';
import { DEFAULT_PLANS, PLAN_NAMES, TRIAL_CONVERSIONS, planTermsView } from '../../server/plans.js';

interface StoredAccount {
  id: string;
  name: string;
  plan: PlanName;
  created_at: string;
  trial_used: number;
  period_used: number;
}

let counter = 0;
const id = (prefix: string): string => `${prefix}_${String(++counter).padStart(4, '0')}fake${'x'.repeat(12)}`;

export class FakeAdmin implements AdminApi {
  readonly baseUrl = 'http://127.0.0.1:8080';
  reachable = true;
  webhooksAvailable = true;
  accounts: StoredAccount[] = [];
  keys: AdminKey[] = [];
  jobs: AdminJob[] = [];
  reports: AdminReport[] = [];
  webhooks: AdminWebhook[] = [];
  deliveries: AdminDelivery[] = [];
  plans: AdminPlan[] = PLAN_NAMES.map((name) => ({ name, ...planTermsView(name, DEFAULT_PLANS[name]) }));
  readonly calls: string[] = [];
  private secretCounter = 0;

  private async gate(call: string): Promise<void> {
    this.calls.push(call);
    await Promise.resolve();
    if (!this.reachable) throw new UnreachableError(this.baseUrl, new Error('connect ECONNREFUSED 127.0.0.1:8080'));
  }

  private async webhookGate(call: string): Promise<void> {
    await this.gate(call);
    if (!this.webhooksAvailable) throw new FeatureUnavailableError('Webhooks');
  }

  addAccount(name: string, plan: PlanName, use: { trial_used?: number; period_used?: number } = {}): StoredAccount {
    const account = {
      id: id('acct'),
      name,
      plan,
      created_at: '2025-03-01T10:00:00.000Z',
      trial_used: use.trial_used ?? 0,
      period_used: use.period_used ?? 0,
    };
    this.accounts.push(account);
    return account;
  }

  view(account: StoredAccount): AdminAccount {
    const trialUsed = Math.min(TRIAL_CONVERSIONS, account.trial_used);
    const monthly = account.plan === 'trial' ? 'none' : this.plans.find((plan) => plan.name === account.plan)!.monthly_allowance;
    return {
      id: account.id,
      name: account.name,
      plan: account.plan,
      created_at: account.created_at,
      allowances: {
        trial: { total: TRIAL_CONVERSIONS, used: trialUsed, left: TRIAL_CONVERSIONS - trialUsed },
        monthly:
          monthly === 'none'
            ? null
            : {
                total: monthly,
                used: account.period_used,
                left: monthly === null ? null : Math.max(0, monthly - account.period_used),
                reset_at: '2025-04-01T00:00:00.000Z',
              },
      },
    };
  }

  private account(accountId: string): StoredAccount {
    const account = this.accounts.find((entry) => entry.id === accountId);
    if (!account) throw new ApiError(404, { code: 'not_found', message: 'No such account.', details: {} });
    return account;
  }

  async stats(): Promise<AdminStats> {
    await this.gate('stats');
    const jobs: Partial<Record<JobStatus, number>> = {};
    for (const job of this.jobs) jobs[job.status] = (jobs[job.status] ?? 0) + 1;
    return { queue_length: jobs.queued ?? 0, processing: jobs.processing ?? 0, accounts: this.accounts.length, jobs };
  }

  async listPlans(): Promise<AdminPlans> {
    await this.gate('listPlans');
    return { trial_conversions: TRIAL_CONVERSIONS, plans: this.plans };
  }

  async listAccounts(): Promise<AdminAccount[]> {
    await this.gate('listAccounts');
    return this.accounts.map((account) => this.view(account));
  }

  async getAccount(accountId: string): Promise<AdminAccount> {
    await this.gate('getAccount');
    return this.view(this.account(accountId));
  }

  async createAccount(input: { name: string; plan: PlanName }): Promise<AdminAccount> {
    await this.gate('createAccount');
    return this.view(this.addAccount(input.name, input.plan));
  }

  async setPlan(accountId: string, plan: PlanName): Promise<AdminAccount> {
    await this.gate(`setPlan ${accountId} ${plan}`);
    const account = this.account(accountId);
    account.plan = plan;
    account.period_used = 0;
    return this.view(account);
  }

  async listKeys(filter: { accountId?: string } = {}): Promise<AdminKey[]> {
    await this.gate('listKeys');
    return this.keys.filter((key) => !filter.accountId || key.account_id === filter.accountId);
  }

  async createKey(input: { accountId: string; name?: string; scope?: 'api' | 'app' }): Promise<CreatedKey> {
    await this.gate('createKey');
    this.account(input.accountId);
    this.secretCounter += 1;
    const secret = `service_sk_live_${'S3cr3t'.repeat(5)}${String(this.secretCounter).padStart(2, '0')}`;
    const key: AdminKey = {
      id: id('key'),
      account_id: input.accountId,
      name: input.name ?? 'default',
      prefix: 'service_sk_live_',
      last4: secret.slice(-4),
      scope: input.scope ?? 'api',
      created_at: '2025-03-02T10:00:00.000Z',
      last_used_at: null,
    };
    this.keys.push(key);
    return { key, secret };
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.gate(`revokeKey ${keyId}`);
    const before = this.keys.length;
    this.keys = this.keys.filter((key) => key.id !== keyId);
    if (this.keys.length === before) throw new ApiError(404, { code: 'not_found', message: 'No such key.', details: {} });
  }

  async listJobs(filter: { status?: JobStatus } = {}): Promise<AdminJob[]> {
    await this.gate(`listJobs ${filter.status ?? 'all'}`);
    return this.jobs.filter((job) => !filter.status || job.status === filter.status).map((job) => ({ ...job }));
  }

  async cancelJob(jobId: string): Promise<AdminJob> {
    await this.gate(`cancelJob ${jobId}`);
    const job = this.jobs.find((entry) => entry.id === jobId);
    if (!job) throw new ApiError(404, { code: 'not_found', message: 'No such job.', details: {} });
    // As the server's cancel route: a job that already ended is answered as it is.
    if (job.status === 'queued' || job.status === 'processing') {
      job.status = 'canceled';
      delete job.queue_position;
    }
    return { ...job };
  }

  async listReports(): Promise<AdminReport[]> {
    await this.gate('listReports');
    return [...this.reports];
  }

  async listWebhooks(): Promise<AdminWebhook[]> {
    await this.webhookGate('listWebhooks');
    return [...this.webhooks];
  }

  async createWebhook(input: { accountId: string; url: string }): Promise<CreatedWebhook> {
    await this.webhookGate('createWebhook');
    const webhook = { id: id('whk'), account_id: input.accountId, url: input.url, created_at: '2025-03-03T10:00:00.000Z' };
    this.webhooks.push(webhook);
    return { webhook, secret: `whsec_${'SigningSecret'.repeat(2)}` };
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.webhookGate(`deleteWebhook ${webhookId}`);
    this.webhooks = this.webhooks.filter((webhook) => webhook.id !== webhookId);
  }

  async listDeliveries(webhookId: string): Promise<AdminDelivery[]> {
    await this.webhookGate('listDeliveries');
    return this.deliveries.filter((delivery) => delivery.webhook_id === webhookId);
  }

  async sendTestEvent(webhookId: string): Promise<void> {
    await this.webhookGate(`sendTestEvent ${webhookId}`);
  }
}
