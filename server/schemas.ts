/**
 * Joi schemas shared by the route docs (OpenAPI) and request validation, and the helper that
 * lists, per route, every error code it can answer.
 */
import Joi from 'joi';
import { HTTP_STATUS, type ApiErrorCode } from './http-errors.js';
import { JOB_STATUSES, WEBHOOK_EVENTS } from './adapters/store.js';
import { RETENTIONS, PLAN_NAMES } from './plans.js';
import { IMAGE_CLASSES } from '../engine/types.js';

const ErrorBody = Joi.object({
  error: Joi.object({
    code: Joi.string().required().example('not_found'),
    message: Joi.string().required(),
    details: Joi.object().unknown(true).required(),
  }).label('ErrorDetail'),
}).label('Error');

export const JobSchema = Joi.object({
  id: Joi.string().example('job_4fQ2mX9kLp0aZ7cB1dEe'),
  status: Joi.string().valid(...JOB_STATUSES),
  progress: Joi.number().integer().min(0).max(100),
  queue_position: Joi.number().integer().min(1).description('Present while queued; 1 = next to start.'),
  mode: Joi.string()
    .valid(...IMAGE_CLASSES)
    .allow(null)
    .description('The class the engine used; null until known.'),
  retention: Joi.string()
    .valid(...RETENTIONS)
    .description('Effective retention, after clamping to the plan maximum.'),
  requested_retention: Joi.string()
    .valid(...RETENTIONS)
    .description('Present when the request asked for more than the plan keeps.'),
  megapixels: Joi.number(),
  width: Joi.number().integer(),
  height: Joi.number().integer(),
  created_at: Joi.string().isoDate(),
  started_at: Joi.string().isoDate(),
  completed_at: Joi.string().isoDate(),
  expires_at: Joi.string().isoDate(),
  download_url: Joi.string().uri().description('Present once the result exists.'),
  batch_id: Joi.string(),
  folder_id: Joi.string(),
  file_name: Joi.string(),
  options: Joi.object({
    image_type: Joi.string(),
    detail: Joi.string(),
    gradients: Joi.string(),
    smoothing: Joi.string(),
    trace_style: Joi.string(),
    close_seams: Joi.boolean(),
    max_colors: Joi.number().integer().allow(null),
    palette: Joi.array().items(Joi.string()),
    background: Joi.string(),
    group_by: Joi.string(),
    width: Joi.number().allow(null),
    height: Joi.number().allow(null),
    unit: Joi.string(),
    dpi: Joi.number(),
    stroke_order: Joi.string(),
  })
    .label('JobOptions')
    .description('The settings applied (below Pro: the defaults that replaced the manual fields).'),
  source: Joi.string().valid('api', 'app', 'render').description('The key scope that submitted it, or `render` for a re-render.'),
  render_of: Joi.string().description('A re-render: the job whose kept geometry it draws.'),
  error: Joi.object({ code: Joi.string(), message: Joi.string() }).label('JobError').description('Present on a failed job.'),
}).label('Job');

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * The output controls (docs/api.md, "Output controls"): fields of POST /v1/vectorize and of
 * POST /v1/jobs/{id}/render. Documentation only; engine/options.ts validates them.
 */
export const OUTPUT_FIELDS_DOC = {
  max_colors: Joi.number()
    .integer()
    .min(2)
    .max(256)
    .description('At most this many distinct fill colours (gradient stops count), chosen to keep fidelity. Manual: Pro and above.'),
  palette: Joi.string()
    .pattern(/^#[0-9a-fA-F]{6}(,#[0-9a-fA-F]{6}){0,63}$/)
    .description('Up to 64 comma-separated #rrggbb; every colour snaps to the nearest (perceptually). Manual: Pro and above.'),
  background: Joi.alternatives()
    .try(Joi.string().valid('keep', 'remove'), Joi.string().pattern(COLOUR))
    .default('keep')
    .description('keep | remove (the colour found at the border is left out) | #rrggbb (that colour is left out). Manual: Pro and above.'),
  group_by: Joi.string()
    .valid('none', 'color')
    .default('none')
    .description('color: one <g> per colour, an Inkscape layer each, bottom to top. Manual: Pro and above.'),
  width: Joi.number()
    .positive()
    .max(100_000)
    .description('The root width in `unit`; the viewBox is unchanged; alone, the height keeps the aspect. Manual.'),
  height: Joi.number()
    .positive()
    .max(100_000)
    .description('The root height in `unit`; alone, the width keeps the aspect. Manual: Pro and above.'),
  unit: Joi.string().valid('px', 'mm', 'cm', 'in', 'pt').default('px').description('Unit of width and height. Manual: Pro and above.'),
  dpi: Joi.number()
    .integer()
    .min(1)
    .max(10_000)
    .default(96)
    .description('Pixels per inch, turning the image size into a physical one. Manual: Pro and above.'),
  stroke_order: Joi.string()
    .valid('none', 'plotter')
    .default('none')
    .description('Centerline: plotter orders, joins and reverses strokes to cut pen-up travel. Manual: Pro and above.'),
};

export const JobListSchema = Joi.object({
  jobs: Joi.array().items(JobSchema),
  next_cursor: Joi.string().allow(null),
}).label('JobList');

export const FolderSchema = Joi.object({
  id: Joi.string(),
  name: Joi.string(),
  batch_id: Joi.string(),
  created_at: Joi.string().isoDate(),
  files: Joi.number().integer(),
  statuses: Joi.object().pattern(Joi.string(), Joi.number().integer()),
}).label('Folder');

export const AccountSchema = Joi.object({
  id: Joi.string(),
  name: Joi.string(),
  plan: Joi.string().valid(...PLAN_NAMES),
  created_at: Joi.string().isoDate(),
  billing_anchor_day: Joi.number().integer(),
  allowances: Joi.object({
    trial: Joi.object({ total: Joi.number(), used: Joi.number(), left: Joi.number() }).label('TrialAllowance'),
    monthly: Joi.object({
      total: Joi.number().allow(null),
      used: Joi.number(),
      left: Joi.number().allow(null),
      reset_at: Joi.string().isoDate(),
    })
      .allow(null)
      .label('MonthlyAllowance'),
  }).label('Allowances'),
  limits: Joi.object().unknown(true).label('PlanLimits'),
}).label('Account');

export const PlanListSchema = Joi.object({
  trial_conversions: Joi.number().description('Conversions every account gets once, spent before any monthly allowance'),
  plans: Joi.array().items(Joi.object({ name: Joi.string() }).unknown(true).label('Plan')),
}).label('PlanList');

export const KeySchema = Joi.object({
  id: Joi.string(),
  account_id: Joi.string(),
  name: Joi.string(),
  scope: Joi.string().valid('api', 'app'),
  prefix: Joi.string(),
  last4: Joi.string(),
  masked: Joi.string(),
  created_at: Joi.string().isoDate(),
  last_used_at: Joi.string().isoDate().allow(null),
}).label('Key');

export const CreatedKeySchema = KeySchema.keys({ secret: Joi.string().description('The whole key, shown only in this answer.') }).label(
  'CreatedKey',
);

export const ReportSchema = Joi.object({
  id: Joi.string(),
  job_id: Joi.string(),
  account_id: Joi.string(),
  reason: Joi.string(),
  message: Joi.string().allow(''),
  created_at: Joi.string().isoDate(),
}).label('Report');

export const WebhookSchema = Joi.object({
  id: Joi.string().example('whk_3kTMd8Qx0pWc1vJzR7aYfE'),
  url: Joi.string(),
  events: Joi.array().items(Joi.string().valid(...WEBHOOK_EVENTS)),
  description: Joi.string().allow(''),
  account_id: Joi.string(),
  created_at: Joi.string().isoDate(),
}).label('Webhook');

export const CreatedWebhookSchema = WebhookSchema.keys({
  secret: Joi.string().description('The signing secret (HMAC-SHA256 key of X-Service-Signature), shown only in this answer.'),
}).label('CreatedWebhook');

const DeliveryAttemptSchema = Joi.object({
  attempt: Joi.number().integer(),
  status: Joi.number().integer().allow(null).description('HTTP status answered, null when none came'),
  ok: Joi.boolean(),
  duration_ms: Joi.number().integer(),
  error: Joi.string(),
  at: Joi.string().isoDate(),
}).label('DeliveryAttempt');

export const DeliverySchema = Joi.object({
  id: Joi.string(),
  webhook_id: Joi.string(),
  event: Joi.string().valid(...WEBHOOK_EVENTS),
  event_id: Joi.string(),
  job_id: Joi.string(),
  status: Joi.string().valid('pending', 'delivered', 'failed'),
  attempts: Joi.number().integer(),
  last_status_code: Joi.number().integer().allow(null),
  last_error: Joi.string().allow(null),
  created_at: Joi.string().isoDate(),
  next_attempt_at: Joi.string().isoDate().allow(null),
  log: Joi.array().items(DeliveryAttemptSchema),
}).label('Delivery');

/** A webhook registration is a few hundred bytes of JSON; anything much larger is not one. */
export const WebhookPayloadOptions = { allow: 'application/json', maxBytes: 16 * 1024 } as const;

/** The fields of a webhook registration, shared by /v1/webhooks and its admin twin. */
export const CreateWebhookPayload = {
  url: Joi.string().max(2048).required().description('http(s) URL whose every address is public (or allow-listed by the operator)'),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENTS))
    .min(1)
    .unique()
    .description('Event kinds to receive; all when omitted'),
  description: Joi.string().trim().max(200).allow(''),
};

export const IdParam = (prefix: string) => Joi.object({ id: Joi.string().max(80).required().description(`${prefix}_… identifier`) });

/** Codes every authenticated /v1 route can answer. */
export const AUTH_CODES: ApiErrorCode[] = ['unauthorized', 'forbidden', 'invalid_parameter'];

/**
 * hapi-swagger `responses`: the success answer plus one entry per HTTP status listing every code
 * the route can answer, so integrators see the whole vocabulary per route.
 */
export function responses(success: Record<number, { description: string; schema?: Joi.Schema }>, codes: ApiErrorCode[]) {
  const out: Record<string, { description: string; schema?: Joi.Schema }> = {};
  for (const [status, doc] of Object.entries(success)) out[status] = doc;
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of codes) {
    const status = HTTP_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = { description: `Error codes: ${list.map((c) => `\`${c}\``).join(', ')}`, schema: ErrorBody };
  }
  return out;
}
