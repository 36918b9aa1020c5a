/**
 * PLACEHOLDER — owned by the front-end work, which replaces this file: it serves the
 * drag-and-drop front end at `/` (open, no key) with @hapi/inert. Until then `/` answers a
 * short page pointing at the API docs.
 */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import type { AppContext } from '../context.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const frontendPlugin: Plugin<{ app: AppContext }> = {
  name: 'frontend',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    server.route({
      method: 'GET',
      path: '/',
      options: { auth: false },
      handler: (_request, h) =>
        h.response('<!doctype html><title>Vectorize</title><p>Vectorize API. See <a href="/docs/swagger">/docs/swagger</a>.</p>').type('text/html'),
    });
  },
};
