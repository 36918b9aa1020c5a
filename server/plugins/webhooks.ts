/**
 * /v1/webhooks (and their admin twins under /admin/v1/webhooks): register endpoints, list and
 * delete them, read each endpoint's recent deliveries, send a test event. Job moves on the event
 * bus become `processing.*` deliveries; the dispatcher runs while the server runs.
 */
import type { Plugin, Request, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import type { JobEvent, JobEventName } from '../events.js';
import { AUTH_CODES, IdParam, responses } from '../schemas.js';
import { AddressPolicy } from '../webhooks/address-policy.js';
import { WebhookSender, systemResolver, type Resolver } from '../webhooks/sender.js';
import { WEBHOOK_EVENTS, WebhookService, type DeliveryRecord, type WebhookEventKind, type WebhookRecord } from '../webhooks/service.js';
import { StoreWebhookRepository } from '../webhooks/store-repository.js';
import { ADMIN_AUTH } from './admin.js';

const optionsSchema = Joi.object({
  app: Joi.object().required(),
  /** Injected DNS for tests; the system resolver otherwise. */
  resolve: Joi.function(),
  /** How often stored deliveries are looked at besides the wake-ups at each due retry. */
  pollMs: Joi.number().integer().min(10),
});

export interface WebhooksPluginOptions {
  app: AppContext;
  resolve?: Resolver;
  pollMs?: number;
}

/** Contract §3/§6: the moves that announce themselves, and the kind each becomes. */
const EVENT_FOR_MOVE: Partial<Record<JobEventName, WebhookEventKind>> = {
  'job.started': 'processing.started',
  'job.completed': 'processing.completed',
  'job.failed': 'processing.failed',
};

const WebhookSchema = Joi.object({
  id: Joi.string().example('whk_3kTMd8Qx0pWc1vJzR7aYfE'),
  url: Joi.string(),
  events: Joi.array().items(Joi.string().valid(...WEBHOOK_EVENTS)),
  description: Joi.string().allow(''),
  account_id: Joi.string(),
  created_at: Joi.string().isoDate(),
}).label('Webhook');

const CreatedWebhookSchema = WebhookSchema.keys({
  secret: Joi.string().description('The signing secret (HMAC-SHA256 key of X-Service-Signature), shown only in this answer.'),
}).label('CreatedWebhook');

const AttemptSchema = Joi.object({
  attempt: Joi.number().integer(),
  status: Joi.number().integer().allow(null).description('HTTP status answered, null when none came'),
  ok: Joi.boolean(),
  duration_ms: Joi.number().integer(),
  error: Joi.string(),
  at: Joi.string().isoDate(),
}).label('DeliveryAttempt');

const DeliverySchema = Joi.object({
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
  log: Joi.array().items(AttemptSchema),
}).label('Delivery');

const CreateWebhookPayload = {
  url: Joi.string().max(2048).required().description('http(s) URL whose every address is public (or allow-listed by the operator)'),
  events: Joi.array().items(Joi.string().valid(...WEBHOOK_EVENTS)).min(1).unique().description('Event kinds to receive; all when omitted'),
  description: Joi.string().trim().max(200).allow(''),
};

function webhookView(record: WebhookRecord, withAccount = false) {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    ...(record.description ? { description: record.description } : {}),
    ...(withAccount ? { account_id: record.account_id } : {}),
    created_at: record.created_at,
  };
}

function deliveryView(record: DeliveryRecord) {
  const last = record.log.at(-1);
  return {
    id: record.id,
    webhook_id: record.webhook_id,
    event: record.event.event,
    event_id: record.event.id,
    job_id: record.event.data.job_id,
    status: record.state,
    attempts: record.attempts,
    last_status_code: last?.status ?? null,
    last_error: last?.error ?? null,
    created_at: record.created_at,
    next_attempt_at: record.state === 'pending' ? record.next_attempt_at : null,
    log: record.log.map(({ attempt, status, ok, duration_ms, error, at }) => ({ attempt, status, ok, duration_ms, ...(error ? { error } : {}), at })),
  };
}

export const webhooksPlugin: Plugin<WebhooksPluginOptions> = {
  name: 'webhooks',
  register(server, rawOptions) {
    Joi.assert(rawOptions, optionsSchema);
    const { app } = rawOptions;
    const resolve = rawOptions.resolve ?? systemResolver;
    const pollMs = rawOptions.pollMs ?? 5000;
    const policy = new AddressPolicy(app.config.webhookAllowCidrs.join(','));
    const service = new WebhookService({
      repository: new StoreWebhookRepository(app.store),
      sender: new WebhookSender({ policy, resolve }),
      policy,
      resolve,
      backoffMs: app.config.webhookBackoffMs,
      now: () => app.clock.now(),
      log: (level, message, fields) => app.log[level](message, fields),
    });
    server.expose('service', service);

    for (const [move, kind] of Object.entries(EVENT_FOR_MOVE) as Array<[JobEventName, WebhookEventKind]>) {
      app.events.on(move, (event: JobEvent) => {
        const { job } = event;
        const data = {
          job_id: job.id,
          status: job.status,
          // The receiver fetches the SVG straight away (with its API key); no request here, so the
          // public URL or the address the server listens on.
          ...(kind === 'processing.completed' ? { download_url: `${app.config.publicUrl ?? server.info.uri}/v1/jobs/${job.id}/download` } : {}),
          ...(kind === 'processing.failed' && job.error ? { error: { code: job.error.code } } : {}),
        };
        service.emit(job.account_id, kind, data).catch((error: Error) => {
          app.log.error('webhook event not recorded', { job_id: job.id, event: kind, error: error.message });
        });
      });
    }
    server.ext('onPostStart', () => service.start(pollMs));
    server.ext('onPreStop', () => service.stop());

    const ownerOf = (request: Request) => credentialsOf(request).account.id;
    const v1 = { auth: API_AUTH, tags: ['api', 'webhooks'] };
    const admin = { auth: ADMIN_AUTH, tags: ['api', 'admin'] };
    const doc = (success: Parameters<typeof responses>[0], notFound = false) => ({
      'hapi-swagger': { responses: responses(success, notFound ? [...AUTH_CODES, 'not_found'] : AUTH_CODES) },
    });
    const jsonPayload = { allow: 'application/json', maxBytes: 16 * 1024 } as const;

    const routes: ServerRoute[] = [
      {
        method: 'POST',
        path: '/v1/webhooks',
        options: {
          ...v1,
          description: 'Register a webhook endpoint; the answer carries the signing secret, once',
          notes: [
            'The URL must resolve only to public addresses; it is checked now and again at every delivery.',
            'Each delivery is a POST of `{ id, event, created_at, data: { job_id, status } }`; ' +
              'processing.completed adds `data.download_url` (VECTORIZE_PUBLIC_URL, else the address the server listens on), ' +
              'processing.failed `data.error.code`.',
          ].join('\n'),
          payload: jsonPayload,
          validate: { payload: Joi.object(CreateWebhookPayload).label('WebhookRequest') },
          plugins: doc({ 201: { description: 'The endpoint with its signing secret', schema: CreatedWebhookSchema } }),
        },
        async handler(request, h) {
          const record = await service.create(ownerOf(request), request.payload as { url: string; events?: string[]; description?: string });
          return h.response({ ...webhookView(record), secret: record.secret }).code(201);
        },
      },
      {
        method: 'GET',
        path: '/v1/webhooks',
        options: { ...v1, description: "List the account's webhook endpoints", plugins: doc({ 200: { description: 'Endpoints', schema: Joi.object({ webhooks: Joi.array().items(WebhookSchema) }).label('WebhookList') } }) },
        async handler(request) {
          return { webhooks: (await service.list(ownerOf(request))).map((record) => webhookView(record)) };
        },
      },
      {
        method: 'DELETE',
        path: '/v1/webhooks/{id}',
        options: { ...v1, description: 'Delete a webhook endpoint', validate: { params: IdParam('whk') }, plugins: doc({ 204: { description: 'Deleted' } }, true) },
        async handler(request, h) {
          await service.remove(String(request.params.id), ownerOf(request));
          return h.response().code(204);
        },
      },
      {
        method: 'GET',
        path: '/v1/webhooks/{id}/deliveries',
        options: { ...v1, description: "An endpoint's recent deliveries, newest first, with every attempt", validate: { params: IdParam('whk') }, plugins: doc({ 200: { description: 'Deliveries', schema: Joi.object({ deliveries: Joi.array().items(DeliverySchema) }).label('DeliveryList') } }, true) },
        async handler(request) {
          return { deliveries: (await service.deliveries(String(request.params.id), ownerOf(request))).map(deliveryView) };
        },
      },
      {
        method: 'POST',
        path: '/v1/webhooks/{id}/test',
        options: { ...v1, description: 'Send a test event (processing.completed for job_test) to the endpoint', validate: { params: IdParam('whk') }, plugins: doc({ 202: { description: 'The queued delivery', schema: DeliverySchema } }, true) },
        async handler(request, h) {
          return h.response(deliveryView(await service.sendTest(String(request.params.id), ownerOf(request)))).code(202);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/webhooks',
        options: { ...admin, description: 'All webhook endpoints', validate: { query: Joi.object({ account_id: Joi.string().max(80) }) }, plugins: doc({ 200: { description: 'Endpoints', schema: Joi.object({ webhooks: Joi.array().items(WebhookSchema) }).label('AdminWebhookList') } }) },
        async handler(request) {
          const accountId = (request.query as { account_id?: string }).account_id;
          return { webhooks: (await service.list(accountId)).map((record) => webhookView(record, true)) };
        },
      },
      {
        method: 'POST',
        path: '/admin/v1/webhooks',
        options: {
          ...admin,
          description: 'Register a webhook endpoint for an account',
          payload: jsonPayload,
          validate: { payload: Joi.object({ account_id: Joi.string().max(80).required(), ...CreateWebhookPayload }).label('AdminWebhookRequest') },
          plugins: doc({ 201: { description: 'The endpoint with its signing secret', schema: CreatedWebhookSchema } }, true),
        },
        async handler(request, h) {
          const { account_id: accountId, ...input } = request.payload as { account_id: string; url: string; events?: string[]; description?: string };
          app.services.accounts.get(accountId);
          const record = await service.create(accountId, input);
          return h.response({ ...webhookView(record, true), secret: record.secret }).code(201);
        },
      },
      {
        method: 'DELETE',
        path: '/admin/v1/webhooks/{id}',
        options: { ...admin, description: 'Delete any webhook endpoint', validate: { params: IdParam('whk') }, plugins: doc({ 204: { description: 'Deleted' } }, true) },
        async handler(request, h) {
          await service.remove(String(request.params.id));
          return h.response().code(204);
        },
      },
      {
        method: 'GET',
        path: '/admin/v1/webhooks/{id}/deliveries',
        options: { ...admin, description: "Any endpoint's recent deliveries", validate: { params: IdParam('whk') }, plugins: doc({ 200: { description: 'Deliveries', schema: Joi.object({ deliveries: Joi.array().items(DeliverySchema) }).label('AdminDeliveryList') } }, true) },
        async handler(request) {
          return { deliveries: (await service.deliveries(String(request.params.id))).map(deliveryView) };
        },
      },
      {
        method: 'POST',
        path: '/admin/v1/webhooks/{id}/test',
        options: { ...admin, description: 'Send a test event to any endpoint', validate: { params: IdParam('whk') }, plugins: doc({ 202: { description: 'The queued delivery', schema: DeliverySchema } }, true) },
        async handler(request, h) {
          return h.response(deliveryView(await service.sendTest(String(request.params.id)))).code(202);
        },
      },
    ];
    server.route(routes);
  },
};
