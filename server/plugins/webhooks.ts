/**
 * PLACEHOLDER — owned by the webhooks work (issue 6), which replaces this file: it registers
 * GET/POST /v1/webhooks and DELETE /v1/webhooks/{id} (auth: API_AUTH from ../auth.js), keeps
 * records in app.store.webhooks / app.store.deliveries, and subscribes to app.events
 * ('job.started' | 'job.completed' | 'job.failed') to deliver `processing.*` events.
 * Until then the three routes are not registered (they answer 404 not_found).
 */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import type { AppContext } from '../context.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const webhooksPlugin: Plugin<{ app: AppContext }> = {
  name: 'webhooks',
  register(_server, options) {
    Joi.assert(options, optionsSchema);
  },
};
