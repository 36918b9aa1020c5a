/**
 * OpenAPI 3.0 generated from the route schemas (hapi-swagger) at /v3/api-docs, Swagger UI at
 * /docs/swagger. Both are open (docs/api.md, "Authentication and keys"). Each route lists its error codes per status.
 */
import type { Plugin } from '@hapi/hapi';
import Inert from '@hapi/inert';
import Vision from '@hapi/vision';
import HapiSwagger from 'hapi-swagger';
import Joi from 'joi';
import type { AppContext } from '../context.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const docsPlugin: Plugin<{ app: AppContext }> = {
  name: 'docs',
  dependencies: [],
  async register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    await server.register([
      // `once`: the front-end plugin registers inert as well.
      { plugin: Inert, once: true },
      { plugin: Vision, once: true },
      {
        plugin: HapiSwagger,
        options: {
          OAS: 'v3.0',
          info: {
            title: 'Vectorize API',
            version: app.version,
            description: [
              'Image-to-SVG vectorization. Submit with POST /v1/vectorize (202, queued), poll GET /v1/jobs/{id}, download the SVG.',
              'Every /v1 call needs `Authorization: Bearer service_sk_live_…`.',
              'Errors: `{ "error": { "code", "message", "details" } }`; clients switch on `code`. 429 and 503 carry Retry-After.',
              "Another account's job, folder, key or report answers 404 not_found, never 403.",
              'A known path asked with a method it does not take answers 405 method_not_allowed with an `Allow` header.',
            ].join('\n\n'),
          },
          jsonPath: '/v3/api-docs',
          jsonRoutePath: '/v3/api-docs',
          documentationPath: '/docs/swagger',
          swaggerUIPath: '/docs/swagger/ui/',
          routesBasePath: '/docs/swagger/ui/',
          securityDefinitions: {
            bearer: { type: 'apiKey', name: 'Authorization', in: 'header', description: 'Bearer service_sk_live_…' },
          },
          security: [{ bearer: [] }],
          grouping: 'tags',
          sortEndpoints: 'ordered',
          auth: false,
        },
      },
    ]);
  },
};
