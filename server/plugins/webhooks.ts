/**
 * /v1/webhooks: register endpoints, list and delete them, read each endpoint's recent deliveries,
 * send a test event. The service (services/webhooks.ts) turns job moves into deliveries and
 * dispatches them; the admin twins of these routes live with the other admin routes.
 */
import type { Plugin, Request, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import {
  AUTH_CODES,
  CreateWebhookPayload,
  CreatedWebhookSchema,
  DeliverySchema,
  IdParam,
  WebhookPayloadOptions,
  WebhookSchema,
  responses,
} from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const webhooksPlugin: Plugin<{ app: AppContext }> = {
  name: 'webhooks',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { webhooks } = options.app.services;
    const ownerOf = (request: Request) => credentialsOf(request).account.id;
    const v1 = { auth: API_AUTH, tags: ['api', 'webhooks'] };
    const doc = (success: Parameters<typeof responses>[0], notFound = false) => ({
      'hapi-swagger': { responses: responses(success, notFound ? [...AUTH_CODES, 'not_found'] : AUTH_CODES) },
    });

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
          payload: WebhookPayloadOptions,
          validate: { payload: Joi.object(CreateWebhookPayload).label('WebhookRequest') },
          plugins: doc({ 201: { description: 'The endpoint with its signing secret', schema: CreatedWebhookSchema } }),
        },
        async handler(request, h) {
          const record = await webhooks.create(
            ownerOf(request),
            request.payload as { url: string; events?: string[]; description?: string },
          );
          return h.response({ ...webhooks.view(record.webhook), secret: record.secret }).code(201);
        },
      },
      {
        method: 'GET',
        path: '/v1/webhooks',
        options: {
          ...v1,
          description: "List the account's webhook endpoints",
          plugins: doc({
            200: { description: 'Endpoints', schema: Joi.object({ webhooks: Joi.array().items(WebhookSchema) }).label('WebhookList') },
          }),
        },
        async handler(request) {
          return { webhooks: webhooks.list(ownerOf(request)).map((record) => webhooks.view(record)) };
        },
      },
      {
        method: 'DELETE',
        path: '/v1/webhooks/{id}',
        options: {
          ...v1,
          description: 'Delete a webhook endpoint',
          validate: { params: IdParam('whk') },
          plugins: doc({ 204: { description: 'Deleted' } }, true),
        },
        async handler(request, h) {
          await webhooks.remove(String(request.params.id), ownerOf(request));
          return h.response().code(204);
        },
      },
      {
        method: 'GET',
        path: '/v1/webhooks/{id}/deliveries',
        options: {
          ...v1,
          description: "An endpoint's recent deliveries, newest first, with every attempt",
          validate: { params: IdParam('whk') },
          plugins: doc(
            {
              200: {
                description: 'Deliveries',
                schema: Joi.object({ deliveries: Joi.array().items(DeliverySchema) }).label('DeliveryList'),
              },
            },
            true,
          ),
        },
        async handler(request) {
          return { deliveries: webhooks.deliveries(String(request.params.id), ownerOf(request)).map(webhooks.deliveryView) };
        },
      },
      {
        method: 'POST',
        path: '/v1/webhooks/{id}/test',
        options: {
          ...v1,
          description: 'Send a test event (processing.completed for job_test) to the endpoint',
          validate: { params: IdParam('whk') },
          plugins: doc({ 202: { description: 'The queued delivery', schema: DeliverySchema } }, true),
        },
        async handler(request, h) {
          return h.response(webhooks.deliveryView(await webhooks.sendTest(String(request.params.id), ownerOf(request)))).code(202);
        },
      },
    ];
    server.route(routes);
  },
};
