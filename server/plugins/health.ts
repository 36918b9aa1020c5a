/** GET /healthz: open, cheap, for load balancers and the TUI. */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import type { AppContext } from '../context.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const healthPlugin: Plugin<{ app: AppContext }> = {
  name: 'health',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    server.route({
      method: 'GET',
      path: '/healthz',
      options: {
        auth: false,
        tags: ['api', 'health'],
        description: 'Liveness and load: version, workers, queue, classifier provider',
        plugins: {
          'hapi-swagger': {
            responses: {
              200: {
                description: 'Healthy',
                schema: Joi.object({
                  status: Joi.string(),
                  version: Joi.string(),
                  workers: Joi.number(),
                  queue_length: Joi.number(),
                  processing: Joi.number(),
                  classifier: Joi.object().unknown(true),
                }).label('Health'),
              },
            },
          },
        },
      },
      async handler() {
        return {
          status: 'ok',
          version: app.version,
          workers: app.pool.size,
          queue_length: app.services.jobs.queueLength,
          processing: app.services.jobs.processingCount,
          classifier: await app.classifier(),
        };
      },
    });
  },
};
