/**
 * Admin API under /admin/v1, for the CLI (`vectorize accounts|keys` while a server runs) and the
 * TUI (client/admin.ts). Two locks: the caller must be on loopback AND present the token the
 * server wrote to <dataDir>/admin.token (0600), so only the machine's operator gets in.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import Joi from 'joi';
import { timingSafeEqual } from 'node:crypto';
import { VectorizeError } from '../http-errors.js';
import type { AppContext } from '../context.js';
import { JOB_STATUSES, type JobStatus } from '../adapters/store.js';
import {
  AccountSchema,
  CreatedKeySchema,
  CreatedWebhookSchema,
  CreateWebhookPayload,
  DeliverySchema,
  IdParam,
  JobSchema,
  KeySchema,
  PlanListSchema,
  ReportSchema,
  WebhookPayloadOptions,
  WebhookSchema,
  responses,
} from '../schemas.js';
import { PLAN_NAMES, TRIAL_CONVERSIONS, planTermsView } from '../plans.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });
const ADMIN_AUTH = 'admin-token';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (LOOPBACK.has(address) || /^(::ffff:)?127\./.test(address));
}

/**
 * The admin access rule, shared with /metrics: the caller is on loopback and presents the admin
 * token. Throws 403 off loopback, 401 without the token.
 */
export function assertAdminAccess(request: Request, token: string | null): void {
  if (!isLoopback(request.info.remoteAddress)) throw new VectorizeError('forbidden', 'The admin API answers on loopback only.');
  if (!bearerMatches(request, token))
    throw new VectorizeError('unauthorized', 'The admin token (from <data dir>/admin.token) is required.');
}

/** Whether the request's `Authorization: Bearer` is `token` (compared in constant time); never for a null token. */
export function bearerMatches(request: Request, token: string | null): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
  const given = Buffer.from(match?.[1] ?? '');
  const expected = Buffer.from(token ?? '');
  return token !== null && token !== '' && given.length === expected.length && timingSafeEqual(given, expected);
}

function registerAdminAuth(server: Parameters<Plugin<unknown>['register']>[0], token: string | null) {
  server.auth.scheme(ADMIN_AUTH, () => ({
    authenticate(request: Request, h: ResponseToolkit) {
      assertAdminAccess(request, token);
      return h.authenticated({ credentials: { app: { admin: true } } });
    },
  }));
  server.auth.strategy(ADMIN_AUTH, ADMIN_AUTH);
}

const ADMIN_CODES = ['unauthorized', 'forbidden', 'invalid_parameter'] as const;

export const adminPlugin: Plugin<{ app: AppContext }> = {
  name: 'admin',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    const { accounts, keys, jobs, reports, webhooks } = app.services;
    registerAdminAuth(server, app.adminToken);
    const base = { auth: ADMIN_AUTH, tags: ['api', 'admin'] };
    const doc = (success: Parameters<typeof responses>[0], extra: 'not_found'[] = []) => ({
      'hapi-swagger': { responses: responses(success, [...ADMIN_CODES, ...extra]) },
    });

    server.route([
      {
        method: 'GET',
        path: '/admin/v1/accounts',
        options: {
          ...base,
          description: 'All accounts',
          plugins: doc({
            200: { description: 'Accounts', schema: Joi.object({ accounts: Joi.array().items(AccountSchema) }).label('AdminAccountList') },
          }),
        },
        handler: () => ({ accounts: accounts.list().map((a) => accounts.view(a)) }),
      },
      {
        method: 'POST',
        path: '/admin/v1/accounts',
        options: {
          ...base,
          description: 'Create an account (default plan trial)',
          validate: {
            payload: Joi.object({
              name: Joi.string().min(1).max(128).required(),
              plan: Joi.string()
                .valid(...PLAN_NAMES)
                .default('trial'),
            }).label('AdminAccountRequest'),
          },
          plugins: doc({ 201: { description: 'The account', schema: AccountSchema } }),
        },
        async handler(request, h) {
          const body = request.payload as { name: string; plan: (typeof PLAN_NAMES)[number] };
          const account = accounts.create(body.name, body.plan);
          await app.store.flush();
          return h.response(accounts.view(account)).code(201);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/accounts/{id}',
        options: {
          ...base,
          description: 'One account',
          validate: { params: IdParam('acct') },
          plugins: doc({ 200: { description: 'The account', schema: AccountSchema } }, ['not_found']),
        },
        handler: (request) => accounts.view(accounts.get(String(request.params.id))),
      },
      {
        method: 'PUT',
        path: '/admin/v1/accounts/{id}/plan',
        options: {
          ...base,
          description: "Set an account's plan (starts a new billing period today)",
          validate: {
            params: IdParam('acct'),
            payload: Joi.object({
              plan: Joi.string()
                .valid(...PLAN_NAMES)
                .required(),
            }).label('AdminPlanRequest'),
          },
          plugins: doc({ 200: { description: 'The account', schema: AccountSchema } }, ['not_found']),
        },
        async handler(request) {
          const account = await accounts.setPlan(String(request.params.id), (request.payload as { plan: string }).plan);
          await app.store.flush();
          return accounts.view(account);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/plans',
        options: {
          ...base,
          description: 'Every plan as configured (defaults merged with VECTORIZE_PLANS_FILE)',
          plugins: doc({ 200: { description: 'Plans', schema: PlanListSchema } }),
        },
        handler: () => ({
          trial_conversions: TRIAL_CONVERSIONS,
          plans: PLAN_NAMES.map((name) => ({ name, ...planTermsView(name, app.config.plans[name]) })),
        }),
      },
      {
        method: 'GET',
        path: '/admin/v1/keys',
        options: {
          ...base,
          description: 'Keys of one account, or of all',
          validate: { query: Joi.object({ account_id: Joi.string().max(80) }) },
          plugins: doc({ 200: { description: 'Keys', schema: Joi.object({ keys: Joi.array().items(KeySchema) }).label('AdminKeyList') } }),
        },
        handler: (request) => ({ keys: keys.list((request.query as { account_id?: string }).account_id).map(keys.view) }),
      },
      {
        method: 'POST',
        path: '/admin/v1/keys',
        options: {
          ...base,
          description: 'Create a key for an account; the answer carries the secret, once',
          validate: {
            payload: Joi.object({
              account_id: Joi.string().required(),
              name: Joi.string().max(128).allow(''),
              scope: Joi.string().valid('api', 'app').default('api'),
            }).label('AdminKeyRequest'),
          },
          plugins: doc({ 201: { description: 'The key with its secret', schema: CreatedKeySchema } }, ['not_found']),
        },
        async handler(request, h) {
          const body = request.payload as { account_id: string; name?: string; scope: 'api' | 'app' };
          const { key, secret } = keys.create(accounts.get(body.account_id), { name: body.name, scope: body.scope });
          await app.store.flush();
          return h.response({ ...keys.view(key), secret }).code(201);
        },
      },
      {
        method: 'DELETE',
        path: '/admin/v1/keys/{id}',
        options: {
          ...base,
          description: 'Revoke any key',
          validate: { params: IdParam('key') },
          plugins: doc({ 204: { description: 'Revoked' } }, ['not_found']),
        },
        async handler(request, h) {
          keys.revoke(String(request.params.id));
          await app.store.flush();
          return h.response().code(204);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/jobs',
        options: {
          ...base,
          description: 'Jobs across accounts, newest first',
          validate: {
            query: Joi.object({
              status: Joi.string().valid(...JOB_STATUSES),
              account_id: Joi.string().max(80),
              limit: Joi.number().integer().min(1).max(500).default(50),
              cursor: Joi.string().max(200),
            }),
          },
          plugins: doc({
            200: {
              description: 'Jobs',
              schema: Joi.object({
                jobs: Joi.array().items(JobSchema.keys({ account_id: Joi.string() })),
                next_cursor: Joi.string().allow(null),
              }).label('AdminJobList'),
            },
          }),
        },
        handler(request) {
          const q = request.query as { status?: JobStatus; account_id?: string; limit: number; cursor?: string };
          const { page, next } = jobs.list({ accountId: q.account_id, status: q.status, limit: q.limit, cursor: q.cursor });
          const url = app.baseUrl(request);
          return { jobs: page.map((job) => ({ ...jobs.view(job, url), account_id: job.account_id })), next_cursor: next };
        },
      },
      {
        method: 'DELETE',
        path: '/admin/v1/jobs/{id}',
        options: {
          ...base,
          description: 'Cancel a queued/processing job (200) or delete an ended one (204)',
          validate: { params: IdParam('job') },
          plugins: doc({ 200: { description: 'Canceled', schema: JobSchema }, 204: { description: 'Deleted' } }, ['not_found']),
        },
        async handler(request, h) {
          const job = jobs.getOwned(String(request.params.id), undefined);
          const outcome = await jobs.cancelOrDelete(job);
          await app.store.flush();
          if ('canceled' in outcome) return jobs.view(outcome.canceled, app.baseUrl(request));
          return h.response().code(204);
        },
      },
      {
        method: 'POST',
        path: '/admin/v1/jobs/{id}/cancel',
        options: {
          ...base,
          description: 'Cancel a queued/processing job; an ended job is answered as it is (never deleted)',
          notes: 'Idempotent: unlike DELETE, a job that reached an end state before the call keeps its status and its result.',
          validate: { params: IdParam('job') },
          plugins: doc({ 200: { description: 'The job, canceled or as it ended', schema: JobSchema } }, ['not_found']),
        },
        async handler(request) {
          const job = jobs.cancelIfActive(jobs.getOwned(String(request.params.id), undefined));
          await app.store.flush();
          return jobs.view(job, app.baseUrl(request));
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/reports',
        options: {
          ...base,
          description: 'Reports, newest first',
          plugins: doc({
            200: { description: 'Reports', schema: Joi.object({ reports: Joi.array().items(ReportSchema) }).label('AdminReportList') },
          }),
        },
        handler: () => ({ reports: reports.list().map(reports.view) }),
      },
      {
        method: 'GET',
        path: '/admin/v1/webhooks',
        options: {
          ...base,
          description: 'All webhook endpoints',
          validate: { query: Joi.object({ account_id: Joi.string().max(80) }) },
          plugins: doc({
            200: { description: 'Endpoints', schema: Joi.object({ webhooks: Joi.array().items(WebhookSchema) }).label('AdminWebhookList') },
          }),
        },
        async handler(request) {
          const accountId = (request.query as { account_id?: string }).account_id;
          return { webhooks: webhooks.list(accountId).map((record) => webhooks.view(record, true)) };
        },
      },
      {
        method: 'POST',
        path: '/admin/v1/webhooks',
        options: {
          ...base,
          description: 'Register a webhook endpoint for an account',
          payload: WebhookPayloadOptions,
          validate: {
            payload: Joi.object({ account_id: Joi.string().max(80).required(), ...CreateWebhookPayload }).label('AdminWebhookRequest'),
          },
          plugins: doc({ 201: { description: 'The endpoint with its signing secret', schema: CreatedWebhookSchema } }, ['not_found']),
        },
        async handler(request, h) {
          const { account_id: accountId, ...input } = request.payload as {
            account_id: string;
            url: string;
            events?: string[];
            description?: string;
          };
          accounts.get(accountId);
          const { webhook, secret } = await webhooks.create(accountId, input);
          return h.response({ ...webhooks.view(webhook, true), secret }).code(201);
        },
      },
      {
        method: 'DELETE',
        path: '/admin/v1/webhooks/{id}',
        options: {
          ...base,
          description: 'Delete any webhook endpoint',
          validate: { params: IdParam('whk') },
          plugins: doc({ 204: { description: 'Deleted' } }, ['not_found']),
        },
        async handler(request, h) {
          await webhooks.remove(String(request.params.id));
          return h.response().code(204);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/webhooks/{id}/deliveries',
        options: {
          ...base,
          description: "Any endpoint's recent deliveries",
          validate: { params: IdParam('whk') },
          plugins: doc(
            {
              200: {
                description: 'Deliveries',
                schema: Joi.object({ deliveries: Joi.array().items(DeliverySchema) }).label('AdminDeliveryList'),
              },
            },
            ['not_found'],
          ),
        },
        async handler(request) {
          return { deliveries: webhooks.deliveries(String(request.params.id)).map(webhooks.deliveryView) };
        },
      },
      {
        method: 'POST',
        path: '/admin/v1/webhooks/{id}/test',
        options: {
          ...base,
          description: 'Send a test event to any endpoint',
          validate: { params: IdParam('whk') },
          plugins: doc({ 202: { description: 'The queued delivery', schema: DeliverySchema } }, ['not_found']),
        },
        async handler(request, h) {
          return h.response(webhooks.deliveryView(await webhooks.sendTest(String(request.params.id)))).code(202);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/stats',
        options: {
          ...base,
          description: 'Queue, workers, classifier provider, event-loop delay',
          validate: { query: Joi.object({ reset_event_loop: Joi.boolean().default(false) }) },
          plugins: doc({ 200: { description: 'Stats', schema: Joi.object().unknown(true).label('AdminStats') } }),
        },
        async handler(request) {
          const loop = app.eventLoop();
          const out = {
            version: app.version,
            queue_length: await jobs.waitingCount(),
            processing: jobs.processingCount,
            workers: app.pool.size,
            accounts: app.store.accounts.count(),
            jobs: Object.fromEntries(JOB_STATUSES.map((s) => [s, app.store.jobs.count((j) => j.status === s)])),
            classifier: await app.classifier(),
            event_loop_delay_ms: { max: loop.max_ms, p99: loop.p99_ms, mean: loop.mean_ms },
            memory_rss_bytes: process.memoryUsage().rss,
          };
          if ((request.query as { reset_event_loop: boolean }).reset_event_loop) loop.reset();
          return out;
        },
      },
    ]);
  },
};
