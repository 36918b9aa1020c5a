/** POST /v1/jobs/{id}/report: flag a result; admins read reports in the TUI. */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { AUTH_CODES, IdParam, ReportSchema, responses } from '../schemas.js';
import { REPORT_REASONS } from '../services/reports.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

export const reportsPlugin: Plugin<{ app: AppContext }> = {
  name: 'reports',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    server.route({
      method: 'POST',
      path: '/v1/jobs/{id}/report',
      options: {
        auth: API_AUTH,
        tags: ['api', 'reports'],
        description: 'Report a problem with a job',
        payload: { allow: 'application/json', maxBytes: 16 * 1024 },
        validate: {
          params: IdParam('job'),
          payload: Joi.object({
            reason: Joi.string()
              .trim()
              .min(1)
              .max(64)
              .required()
              .description(`Free text; suggested: ${REPORT_REASONS.join(', ')}`),
            message: Joi.string().allow('').max(4000).default(''),
          }).label('ReportRequest'),
        },
        plugins: {
          'hapi-swagger': {
            responses: responses({ 201: { description: 'The report', schema: ReportSchema } }, [...AUTH_CODES, 'not_found']),
          },
        },
      },
      async handler(request, h) {
        const { account } = credentialsOf(request);
        const job = app.services.jobs.getOwned(String(request.params.id), account.id);
        const body = request.payload as { reason: string; message: string };
        const report = app.services.reports.create(job, body.reason, body.message);
        await app.store.flush();
        return h.response(app.services.reports.view(report)).code(201);
      },
    });
  },
};
