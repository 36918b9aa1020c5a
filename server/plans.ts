/**
 * Plans and retention (docs/api.md, "Plans"). The table is the default; VECTORIZE_PLANS_FILE may
 * override any cell (server/config.ts), so services read limits from Config, never from here.
 */
import { HOUR_MS as HOUR } from './limits.js';

export const PLAN_NAMES = ['trial', 'lite', 'pro', 'studio', 'agency', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const RETENTIONS = ['none', '24h', '3d', '7d', '10d'] as const;
export type Retention = (typeof RETENTIONS)[number];
/** What a plan's maximum may be: every retention but `none`, which is below them all. */
export const PLAN_RETENTIONS = RETENTIONS.filter((retention): retention is Exclude<Retention, 'none'> => retention !== 'none');

/** How long a result is kept. `none` is kept until its first download, and at most 24 h unclaimed. */
export const RETENTION_MS: Record<Retention, number> = {
  none: 24 * HOUR,
  '24h': 24 * HOUR,
  '3d': 72 * HOUR,
  '7d': 168 * HOUR,
  '10d': 240 * HOUR,
};

export const TRIAL_CONVERSIONS = 5;

/**
 * The most a plan may allow (the largest default): a worker holds several working copies of the
 * image at 4 bytes a pixel, so VECTORIZE_PLANS_FILE cannot raise a plan past this.
 */
export const PLAN_MAX_MEGAPIXELS = 100;

export interface PlanLimits {
  /** May call POST /v1/vectorize with a plain (`api` scope) key. */
  api: boolean;
  /** Conversions per billing month; null = unlimited. Trial has none: it lives on the trial counter. */
  monthlyAllowance: number | null;
  maxRetention: (typeof PLAN_RETENTIONS)[number];
  batchGroup: number;
  maxMegapixels: number;
  activeJobs: number;
  dailyFuse: number;
  /** false: an explicit detail=high answers 402 high_detail_not_included. */
  highDetail: boolean;
}

export const DEFAULT_PLANS: Readonly<Record<PlanName, Readonly<PlanLimits>>> = Object.freeze({
  trial: {
    api: true,
    monthlyAllowance: 0,
    maxRetention: '24h',
    batchGroup: 1,
    maxMegapixels: 16,
    activeJobs: 2,
    dailyFuse: 10,
    highDetail: true,
  },
  // Lite is the desktop-app plan: browser (app-scope key) use only, not metered monthly by default.
  lite: {
    api: false,
    monthlyAllowance: null,
    maxRetention: '3d',
    batchGroup: 1,
    maxMegapixels: 16,
    activeJobs: 2,
    dailyFuse: 50,
    highDetail: true,
  },
  pro: {
    api: true,
    monthlyAllowance: 500,
    maxRetention: '7d',
    batchGroup: 30,
    maxMegapixels: 32,
    activeJobs: 10,
    dailyFuse: 200,
    highDetail: true,
  },
  studio: {
    api: true,
    monthlyAllowance: 2000,
    maxRetention: '10d',
    batchGroup: 50,
    maxMegapixels: 64,
    activeJobs: 20,
    dailyFuse: 800,
    highDetail: true,
  },
  agency: {
    api: true,
    monthlyAllowance: 5000,
    maxRetention: '10d',
    batchGroup: 100,
    maxMegapixels: 100,
    activeJobs: 50,
    dailyFuse: 2000,
    highDetail: true,
  },
  enterprise: {
    api: true,
    monthlyAllowance: null,
    maxRetention: '10d',
    batchGroup: 100,
    maxMegapixels: 100,
    activeJobs: 100,
    dailyFuse: 10_000,
    highDetail: true,
  },
});

/** Plans whose manual fields (detail, gradients, smoothing, trace_style) take effect. */
export function manualFieldsEffective(plan: PlanName): boolean {
  return plan !== 'trial' && plan !== 'lite';
}

/** Lowers a requested retention to the plan maximum; `none` is below every maximum. */
export function clampRetention(requested: Retention, max: Exclude<Retention, 'none'>): Retention {
  if (requested === 'none') return 'none';
  return RETENTION_MS[requested] > RETENTION_MS[max] ? max : requested;
}

/**
 * A plan's terms as the API shows them (GET /v1/account `limits`, GET /admin/v1/plans): clients
 * read these instead of keeping their own copy of the table, which VECTORIZE_PLANS_FILE may change.
 */
export function planTermsView(plan: PlanName, limits: Readonly<PlanLimits>) {
  return {
    api: limits.api,
    monthly_allowance: limits.monthlyAllowance,
    max_retention: limits.maxRetention,
    batch_group: limits.batchGroup,
    max_megapixels: limits.maxMegapixels,
    active_jobs: limits.activeJobs,
    daily_fuse: limits.dailyFuse,
    high_detail: limits.highDetail,
    manual_settings: manualFieldsEffective(plan),
  };
}

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}
