/**
 * Server configuration: read from the environment ONCE at boot, validated with one joi schema per
 * source (the environment, the plans file), frozen. Every error names the variable at fault so an
 * operator can fix the unit file without reading code. A new variable is one line in ENV_SCHEMA,
 * one in EnvVariables (the compiler holds the two together) and its Config field.
 */
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Joi from 'joi';
import cron from 'node-cron';
import { PLAN_NAMES, DEFAULT_PLANS, PLAN_MAX_MEGAPIXELS, PLAN_RETENTIONS, type PlanName, type PlanLimits } from './plans.js';
import { parseCidrList } from './webhooks/address-policy.js';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

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
  /** PostgreSQL connection URL; null keeps the records in <dataDir>/db.json (lowdb). */
  databaseUrl: string | null;
  /** all: HTTP and traces; api: HTTP and enqueues only; worker: traces only (PostgreSQL mode). */
  role: Role;
  /** A worker's /healthz port (HOST); null: a worker serves no HTTP at all. */
  healthPort: number | null;
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
  /** Bearer token that opens GET /metrics from any address; null: only the admin rule (loopback + admin token). */
  metricsToken: string | null;
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

/**
 * Whole numbers as an operator writes them in a unit file: digits only. Joi's own number() would
 * also take "1e3", "+5" or "7.0", which here are more likely typos than meant.
 */
const strict: Joi.Root & { wholeNumber(): Joi.NumberSchema } = Joi.extend((joi: Joi.Root) => ({
  type: 'wholeNumber',
  base: joi.number().integer(),
  messages: { 'wholeNumber.digits': 'must be a whole number' },
  // prepare runs before number()'s own string conversion, which would accept "1e3".
  prepare: (value: unknown, helpers: Joi.CustomHelpers) =>
    typeof value === 'string' && !/^\d+$/.test(value) ? { errors: [helpers.error('wholeNumber.digits')] } : { value },
}));

/** The same parser the webhook address policy uses, so what boots is what is enforced. */
function cidrList(value: string, helpers: Joi.CustomHelpers): string | Joi.ErrorReport {
  try {
    parseCidrList(value);
  } catch (error) {
    const problem = (error as Error).message;
    return helpers.message({ custom: '{#problem}; expected comma-separated ranges like 192.168.10.0/24' }, { problem });
  }
  return value;
}

/** node-cron's own parser: a bad expression fails at boot, not when the sweep is first scheduled. */
function cronExpression(value: string, helpers: Joi.CustomHelpers): string | Joi.ErrorReport {
  const { valid, errors } = cron.validateDetailed(value);
  if (valid) return value;
  const reason = errors.map((error) => error.message).join('; ');
  return helpers.message({ custom: 'must be a cron expression like "*/5 * * * *" ({#reason})' }, { reason });
}

/** The environment as validated: defaults filled in, numbers converted. */
interface EnvVariables {
  HOST: string;
  PORT: number;
  VECTORIZE_DATA_DIR: string;
  VECTORIZE_WORKERS: number;
  VECTORIZE_QUEUE_MAX: number;
  VECTORIZE_MIN_FREE_BYTES: number;
  VECTORIZE_PLANS_FILE?: string;
  VECTORIZE_WEBHOOK_ALLOW_CIDRS?: string;
  VECTORIZE_WEBHOOK_BACKOFF_MS: number;
  VECTORIZE_DEVICE: Config['device'];
  VECTORIZE_LOG_LEVEL: LogLevel;
  VECTORIZE_PUBLIC_URL?: string;
  VECTORIZE_DATABASE_URL?: string;
  VECTORIZE_ROLE: Role;
  VECTORIZE_HEALTH_PORT?: number;
  VECTORIZE_ENGINE_MODULE?: string;
  VECTORIZE_JOB_TIMEOUT_MIN_MS: number;
  VECTORIZE_JOB_TIMEOUT_FACTOR: number;
  VECTORIZE_MAX_ATTEMPTS: number;
  VECTORIZE_RECORD_TTL_DAYS: number;
  VECTORIZE_SWEEP_CRON: string;
  VECTORIZE_METRICS_TOKEN?: string;
}

/**
 * Every environment variable the server reads, with its default; blank values count as unset and
 * other variables are ignored. Checked against EnvVariables by the compiler, key by key.
 */
const ENV_SCHEMA = Joi.object<EnvVariables, true>({
  HOST: Joi.string().default('127.0.0.1'),
  PORT: strict.wholeNumber().min(0).max(65535).default(8080),
  VECTORIZE_DATA_DIR: Joi.string().default('./data'),
  VECTORIZE_WORKERS: strict.wholeNumber().min(1).max(256).default(Math.max(1, availableParallelism())),
  VECTORIZE_QUEUE_MAX: strict.wholeNumber().min(1).default(1000),
  VECTORIZE_MIN_FREE_BYTES: strict
    .wholeNumber()
    .min(0)
    .default(1024 ** 3),
  VECTORIZE_PLANS_FILE: Joi.string(),
  VECTORIZE_WEBHOOK_ALLOW_CIDRS: Joi.string().custom(cidrList),
  VECTORIZE_WEBHOOK_BACKOFF_MS: strict.wholeNumber().min(0).default(30_000),
  VECTORIZE_DEVICE: Joi.string().valid('auto', 'cpu', 'cuda').default('auto'),
  VECTORIZE_LOG_LEVEL: Joi.string()
    .valid(...LOG_LEVELS)
    .default('info'),
  VECTORIZE_PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  VECTORIZE_DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  VECTORIZE_ROLE: Joi.string()
    .valid(...ROLES)
    .default('all'),
  VECTORIZE_HEALTH_PORT: strict.wholeNumber().min(1).max(65535),
  VECTORIZE_ENGINE_MODULE: Joi.string(),
  VECTORIZE_JOB_TIMEOUT_MIN_MS: strict.wholeNumber().min(1000).default(120_000),
  VECTORIZE_JOB_TIMEOUT_FACTOR: strict.wholeNumber().min(1).default(20),
  VECTORIZE_MAX_ATTEMPTS: strict.wholeNumber().min(1).max(100).default(3),
  VECTORIZE_RECORD_TTL_DAYS: strict.wholeNumber().min(1).default(30),
  VECTORIZE_SWEEP_CRON: Joi.string().custom(cronExpression).default('* * * * *'),
  // It travels in a scraper's config and an Authorization header: long enough not to be guessed, header-safe.
  VECTORIZE_METRICS_TOKEN: Joi.string()
    .pattern(/^[\x21-\x7e]{16,256}$/)
    .messages({ 'string.pattern.base': 'must be 16–256 visible ASCII characters (no spaces)' }),
}).unknown(true);

/** One schema per plan setting: a new PlanLimits field does not compile until it is listed here. */
const PLAN_SETTING_SCHEMAS: Record<keyof PlanLimits, Joi.Schema> = {
  api: Joi.boolean(),
  monthlyAllowance: Joi.number().integer().min(0).allow(null),
  maxRetention: Joi.string().valid(...PLAN_RETENTIONS),
  batchGroup: Joi.number().integer().min(1),
  maxMegapixels: Joi.number().positive().max(PLAN_MAX_MEGAPIXELS),
  activeJobs: Joi.number().integer().min(1),
  dailyFuse: Joi.number().integer().min(0),
  highDetail: Joi.boolean(),
};

/** VECTORIZE_PLANS_FILE: `{ "pro": { "monthlyAllowance": 800 }, … }`, merged over the defaults. */
const PLANS_FILE_SCHEMA = Joi.object(
  Object.fromEntries(
    PLAN_NAMES.map((plan) => [
      plan,
      Joi.object(PLAN_SETTING_SCHEMAS).messages({
        'object.base': 'must be an object of plan settings',
        'object.unknown': `is not a plan setting (${Object.keys(PLAN_SETTING_SCHEMAS).join(', ')})`,
      }),
    ]),
  ),
).messages({ 'object.base': 'must hold a JSON object keyed by plan', 'object.unknown': `is not a plan (${PLAN_NAMES.join(', ')})` });

/** Joi's first complaint as a ConfigError: the variable, where in it, what is wrong, the value at fault. */
/** Variables that carry a credential: a boot error names them but never repeats their value into a log. */
const SECRET_VARIABLES = new Set(['VECTORIZE_DATABASE_URL', 'VECTORIZE_METRICS_TOKEN']);

function configError(variable: string, detail: Joi.ValidationErrorItem, where: string): ConfigError {
  const value = detail.context?.value;
  const hidden = value === undefined || (typeof value === 'object' && value !== null) || SECRET_VARIABLES.has(variable);
  const got = hidden ? '' : `, got ${JSON.stringify(value)}`;
  return new ConfigError(variable, `${where}${detail.message}${got}`);
}

function loadPlans(file: string | undefined): Record<PlanName, PlanLimits> {
  const merged = Object.fromEntries(PLAN_NAMES.map((plan) => [plan, { ...DEFAULT_PLANS[plan] }])) as Record<PlanName, PlanLimits>;
  if (file === undefined) return merged;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError('VECTORIZE_PLANS_FILE', `cannot read JSON from ${file}: ${(error as Error).message}`);
  }
  // convert: false, so "500" (a string) is refused where a number is meant, as JSON types are exact.
  const { error, value } = PLANS_FILE_SCHEMA.validate(parsed, { convert: false, errors: { label: false } });
  if (error) {
    const [detail] = error.details;
    throw configError('VECTORIZE_PLANS_FILE', detail, `${file}: ${detail.path.length > 0 ? `${detail.path.join('.')} ` : ''}`);
  }
  const overrides = value as Partial<Record<PlanName, Partial<PlanLimits>>>;
  for (const plan of PLAN_NAMES) Object.assign(merged[plan], overrides[plan]);
  return merged;
}

/** The environment with blank values dropped (unset) and the rest trimmed, as an operator means them. */
function present(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value.trim() !== '') out[name] = value.trim();
  return out;
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const { error, value } = ENV_SCHEMA.validate(present(env), { errors: { label: false } });
  if (error) throw configError(String(error.details[0].path[0]), error.details[0], '');
  const vars = value;
  const plans = loadPlans(vars.VECTORIZE_PLANS_FILE);
  // Split roles share the queue and the records through PostgreSQL; a lowdb file has one process.
  if (vars.VECTORIZE_ROLE !== 'all' && vars.VECTORIZE_DATABASE_URL === undefined) {
    throw new ConfigError('VECTORIZE_ROLE', `"${vars.VECTORIZE_ROLE}" needs VECTORIZE_DATABASE_URL; without it use "all" (the default)`);
  }
  if (vars.VECTORIZE_HEALTH_PORT !== undefined && vars.VECTORIZE_ROLE !== 'worker') {
    throw new ConfigError('VECTORIZE_HEALTH_PORT', 'is for VECTORIZE_ROLE=worker; the other roles answer /healthz on PORT');
  }
  const config: Config = {
    host: vars.HOST,
    port: vars.PORT,
    dataDir: resolve(vars.VECTORIZE_DATA_DIR),
    workers: vars.VECTORIZE_WORKERS,
    queueMax: vars.VECTORIZE_QUEUE_MAX,
    minFreeBytes: vars.VECTORIZE_MIN_FREE_BYTES,
    plans: Object.freeze(Object.fromEntries(Object.entries(plans).map(([k, v]) => [k, Object.freeze(v)]))) as Config['plans'],
    plansFile: vars.VECTORIZE_PLANS_FILE ?? null,
    webhookAllowCidrs: Object.freeze(
      (vars.VECTORIZE_WEBHOOK_ALLOW_CIDRS ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
    webhookBackoffMs: vars.VECTORIZE_WEBHOOK_BACKOFF_MS,
    device: vars.VECTORIZE_DEVICE,
    logLevel: vars.VECTORIZE_LOG_LEVEL,
    publicUrl: vars.VECTORIZE_PUBLIC_URL?.replace(/\/+$/, '') ?? null,
    databaseUrl: vars.VECTORIZE_DATABASE_URL ?? null,
    role: vars.VECTORIZE_ROLE,
    healthPort: vars.VECTORIZE_HEALTH_PORT ?? null,
    engineModule: vars.VECTORIZE_ENGINE_MODULE === undefined ? null : resolve(vars.VECTORIZE_ENGINE_MODULE),
    jobTimeoutMinMs: vars.VECTORIZE_JOB_TIMEOUT_MIN_MS,
    jobTimeoutFactor: vars.VECTORIZE_JOB_TIMEOUT_FACTOR,
    maxAttempts: vars.VECTORIZE_MAX_ATTEMPTS,
    recordTtlDays: vars.VECTORIZE_RECORD_TTL_DAYS,
    sweepCron: vars.VECTORIZE_SWEEP_CRON,
    metricsToken: vars.VECTORIZE_METRICS_TOKEN ?? null,
  };
  return Object.freeze(config);
}
