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
        description: 'Liveness and load: version, workers, queue, classifier provider, free storage',
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
                  storage: Joi.object({
                    free_bytes: Joi.number(),
                    min_free_bytes: Joi.number(),
                    low: Joi.boolean().description('true: uploads are refused with 503 storage_full until space is freed'),
                  }).label('Storage'),
                }).label('Health'),
              },
            },
          },
        },
      },
      async handler() {
        const freeBytes = await app.disk.freeBytes(app.blobs.root);
        const low = freeBytes < app.config.minFreeBytes;
        return {
          // Still 200: the process is alive and serves downloads and polls; only uploads wait.
          status: low ? 'low_storage' : 'ok',
          version: app.version,
          workers: app.pool.size,
          queue_length: app.services.jobs.queueLength,
          processing: app.services.jobs.processingCount,
          classifier: await app.classifier(),
          storage: { free_bytes: freeBytes, min_free_bytes: app.config.minFreeBytes, low },
        };
      },
    });
  },
};
