/** /v1/keys: list, create (secret shown once), revoke. Managing keys needs an `api`-scope key. */
import type { Plugin, Request } from '@hapi/hapi';
import Joi from 'joi';
import { VectorizeError } from '../http-errors.js';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { AUTH_CODES, CreatedKeySchema, IdParam, KeySchema, responses } from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

function requireApiScope(request: Request) {
  const { key } = credentialsOf(request);
  // An app key lives inside the desktop app; it must not mint or revoke the account's keys.
  if (key.scope !== 'api') throw new VectorizeError('forbidden', 'Managing keys needs an api-scope key.', { scope: key.scope });
}

export const keysPlugin: Plugin<{ app: AppContext }> = {
  name: 'keys',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    const { keys } = app.services;
    server.route([
      {
        method: 'GET',
        path: '/v1/keys',
        options: {
          auth: API_AUTH,
          tags: ['api', 'keys'],
          description: "List the account's keys (prefix and last 4 characters only)",
          plugins: {
            'hapi-swagger': {
              responses: responses(
                { 200: { description: 'Keys', schema: Joi.object({ keys: Joi.array().items(KeySchema) }).label('KeyList') } },
                AUTH_CODES,
              ),
            },
          },
        },
        handler(request) {
          const { account } = credentialsOf(request);
          return { keys: keys.list(account.id).map(keys.view) };
        },
      },
      {
        method: 'POST',
        path: '/v1/keys',
        options: {
          auth: API_AUTH,
          tags: ['api', 'keys'],
          description: 'Create a key; the answer carries the whole secret, once',
          payload: { allow: 'application/json', maxBytes: 16 * 1024, failAction: 'error' },
          validate: {
            payload: Joi.object({
              name: Joi.string().trim().max(128).allow(''),
              scope: Joi.string().valid('api', 'app').default('api'),
            })
              .allow(null)
              .label('KeyRequest'),
          },
          plugins: {
            'hapi-swagger': {
              responses: responses({ 201: { description: 'The key with its secret', schema: CreatedKeySchema } }, AUTH_CODES),
            },
          },
        },
        async handler(request, h) {
          requireApiScope(request);
          const { account } = credentialsOf(request);
          const body = (request.payload ?? {}) as { name?: string; scope?: 'api' | 'app' };
          const { key, secret } = keys.create(account, { name: body.name, scope: body.scope });
          await app.store.flush();
          return h.response({ ...keys.view(key), secret }).code(201);
        },
      },
      {
        method: 'DELETE',
        path: '/v1/keys/{id}',
        options: {
          auth: API_AUTH,
          tags: ['api', 'keys'],
          description: 'Revoke a key (it stops working at once)',
          validate: { params: IdParam('key') },
          plugins: { 'hapi-swagger': { responses: responses({ 204: { description: 'Revoked' } }, [...AUTH_CODES, 'not_found']) } },
        },
        async handler(request, h) {
          requireApiScope(request);
          const { account } = credentialsOf(request);
          keys.revoke(String(request.params.id), account.id);
          await app.store.flush();
          return h.response().code(204);
        },
      },
    ]);
  },
};
