/**
 * Server configuration: read from the environment ONCE at boot, validated, frozen. Every error
 * names the variable at fault so an operator can fix the unit file without reading code.
 */
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PLAN_NAMES, DEFAULT_PLANS, type PlanName, type PlanLimits } from './plans.js';
import { parseCidrList } from './webhooks/address-policy.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  workers: number;
  queueMax: number;
  minFreeBytes: number;
  plans: Readonly<Record<PlanName, Readonly<PlanLimits>>>;
  plansFile: string | null;
  webhookAllowCidrs: readonly string[];
  webhookBackoffMs: number;
  device: 'auto' | 'cpu' | 'cuda';
  logLevel: LogLevel;
  publicUrl: string | null;
  /** Optional module (path) that replaces the engine inside the workers; for tests and operators. */
  engineModule: string | null;
  /** A job processing longer than max(jobTimeoutMinMs, jobTimeoutFactor × estimate) is failed. */
  jobTimeoutMinMs: number;
  jobTimeoutFactor: number;
  /** Restarts a job survives (found `processing` at boot) before it is failed. */
  maxAttempts: number;
  /** End-state job records, reports and deliveries older than this are pruned. */
  recordTtlDays: number;
  sweepCron: string;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = text(env, name, fallback);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function cidrs(env: Env, name: string): string[] {
  const raw = text(env, name, '');
  if (raw === '') return [];
  try {
    // The same parser the webhook address policy uses, so what boots is what is enforced.
    parseCidrList(raw);
  } catch (error) {
    throw new ConfigError(name, `${(error as Error).message}; expected comma-separated ranges like 192.168.10.0/24`);
  }
  return raw.split(',').map((part) => part.trim()).filter(Boolean);
}

function publicUrl(env: Env, name: string): string | null {
  const raw = text(env, name, '');
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, 'must use http or https');
  return raw.replace(/\/+$/, '');
}

const PLAN_KEYS: (keyof PlanLimits)[] = [
  'api', 'monthlyAllowance', 'maxRetention', 'batchGroup', 'maxMegapixels', 'activeJobs', 'dailyFuse', 'highDetail',
];

/** Reads VECTORIZE_PLANS_FILE: `{ "pro": { "monthlyAllowance": 800 }, … }` merged over the defaults. */
function plans(env: Env, name: string): { plans: Record<PlanName, PlanLimits>; file: string | null } {
  const merged = Object.fromEntries(PLAN_NAMES.map((plan) => [plan, { ...DEFAULT_PLANS[plan] }])) as Record<PlanName, PlanLimits>;
  const file = text(env, name, '');
  if (file === '') return { plans: merged, file: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(name, `cannot read JSON from ${file}: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(name, 'must hold a JSON object keyed by plan');
  for (const [plan, overrides] of Object.entries(parsed)) {
    if (!(PLAN_NAMES as readonly string[]).includes(plan)) throw new ConfigError(name, `unknown plan ${JSON.stringify(plan)}`);
    if (typeof overrides !== 'object' || overrides === null) throw new ConfigError(name, `${plan} must be an object`);
    for (const [key, value] of Object.entries(overrides)) {
      if (!(PLAN_KEYS as string[]).includes(key)) throw new ConfigError(name, `${plan}.${key} is not a plan setting (${PLAN_KEYS.join(', ')})`);
      const target = merged[plan as PlanName] as unknown as Record<string, unknown>;
      const expected = key === 'maxRetention' ? 'string' : key === 'api' || key === 'highDetail' ? 'boolean' : 'number';
      const ok = value === null ? key === 'monthlyAllowance' : typeof value === expected;
      if (!ok) throw new ConfigError(name, `${plan}.${key} must be a ${expected}${key === 'monthlyAllowance' ? ' or null (unlimited)' : ''}`);
      if (key === 'maxRetention' && !['24h', '3d', '7d', '10d'].includes(value as string)) {
        throw new ConfigError(name, `${plan}.maxRetention must be one of 24h, 3d, 7d, 10d`);
      }
      target[key] = value;
    }
  }
  return { plans: merged, file };
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const planSet = plans(env, 'VECTORIZE_PLANS_FILE');
  const config: Config = {
    host: text(env, 'HOST', '127.0.0.1'),
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir: resolve(text(env, 'VECTORIZE_DATA_DIR', './data')),
    workers: integer(env, 'VECTORIZE_WORKERS', Math.max(1, availableParallelism()), 1, 256),
    queueMax: integer(env, 'VECTORIZE_QUEUE_MAX', 1000, 1),
    minFreeBytes: integer(env, 'VECTORIZE_MIN_FREE_BYTES', 1024 ** 3, 0),
    plans: Object.freeze(Object.fromEntries(Object.entries(planSet.plans).map(([k, v]) => [k, Object.freeze(v)]))) as Config['plans'],
    plansFile: planSet.file,
    webhookAllowCidrs: Object.freeze(cidrs(env, 'VECTORIZE_WEBHOOK_ALLOW_CIDRS')),
    webhookBackoffMs: integer(env, 'VECTORIZE_WEBHOOK_BACKOFF_MS', 30_000, 0),
    device: oneOf(env, 'VECTORIZE_DEVICE', ['auto', 'cpu', 'cuda'] as const, 'auto'),
    logLevel: oneOf(env, 'VECTORIZE_LOG_LEVEL', LOG_LEVELS, 'info'),
    publicUrl: publicUrl(env, 'VECTORIZE_PUBLIC_URL'),
    engineModule: text(env, 'VECTORIZE_ENGINE_MODULE', '') === '' ? null : resolve(text(env, 'VECTORIZE_ENGINE_MODULE', '')),
    jobTimeoutMinMs: integer(env, 'VECTORIZE_JOB_TIMEOUT_MIN_MS', 120_000, 1000),
    jobTimeoutFactor: integer(env, 'VECTORIZE_JOB_TIMEOUT_FACTOR', 20, 1),
    maxAttempts: integer(env, 'VECTORIZE_MAX_ATTEMPTS', 3, 1, 100),
    recordTtlDays: integer(env, 'VECTORIZE_RECORD_TTL_DAYS', 30, 1),
    sweepCron: text(env, 'VECTORIZE_SWEEP_CRON', '* * * * *'),
  };
  return Object.freeze(config);
}
