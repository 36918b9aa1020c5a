/** /v1/jobs: list, read, download, cancel/delete. */
import type { Plugin } from '@hapi/hapi';
import Joi from 'joi';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { JOB_STATUSES, type JobStatus } from '../adapters/store.js';
import { AUTH_CODES, IdParam, JobListSchema, JobSchema, responses } from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

/** A download name from the upload's name: safe ASCII for `filename`, UTF-8 for `filename*`. */
export function contentDisposition(uploadName: string): string {
  const stem = uploadName.replace(/\.[^.]*$/, '') || 'image';
  const ascii =
    stem
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\;%]/g, '_')
      .trim() || 'image';
  const utf8 = encodeURIComponent(`${stem}.svg`).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}.svg"; filename*=UTF-8''${utf8}`;
}

export const jobsPlugin: Plugin<{ app: AppContext }> = {
  name: 'jobs',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    const { jobs, retention } = app.services;

    server.route([
      {
        method: 'GET',
        path: '/v1/jobs',
        options: {
          auth: API_AUTH,
          tags: ['api', 'jobs'],
          description: 'List jobs, newest first, with cursor pagination',
          validate: {
            query: Joi.object({
              limit: Joi.number().integer().min(1).max(100).default(20),
              cursor: Joi.string().max(200).description('next_cursor of the previous page'),
              batch_id: Joi.string().max(128),
              status: Joi.string().valid(...JOB_STATUSES),
            }),
          },
          plugins: {
            'hapi-swagger': { responses: responses({ 200: { description: 'A page of jobs', schema: JobListSchema } }, AUTH_CODES) },
          },
        },
        handler(request) {
          const { account } = credentialsOf(request);
          const query = request.query as { limit: number; cursor?: string; batch_id?: string; status?: JobStatus };
          const { page, next } = jobs.list({
            accountId: account.id,
            limit: query.limit,
            cursor: query.cursor,
            batchId: query.batch_id,
            status: query.status,
          });
          const base = app.baseUrl(request);
          return { jobs: page.map((job) => jobs.view(job, base)), next_cursor: next };
        },
      },
      {
        method: 'GET',
        path: '/v1/jobs/{id}',
        options: {
          auth: API_AUTH,
          tags: ['api', 'jobs'],
          description: 'Read a job',
          validate: { params: IdParam('job') },
          plugins: {
            'hapi-swagger': { responses: responses({ 200: { description: 'The job', schema: JobSchema } }, [...AUTH_CODES, 'not_found']) },
          },
        },
        handler(request) {
          const { account } = credentialsOf(request);
          return jobs.view(jobs.getOwned(String(request.params.id), account.id), app.baseUrl(request));
        },
      },
      {
        method: 'GET',
        path: '/v1/jobs/{id}/download',
        options: {
          auth: API_AUTH,
          tags: ['api', 'jobs'],
          description: 'Download the SVG (attachment, image/svg+xml)',
          notes:
            'retention=none: the file is deleted as it is served (one download); the job then reads expired. ' +
            'A failed or canceled job has no result: 409 not_ready with details.status.',
          validate: { params: IdParam('job') },
          plugins: {
            'hapi-swagger': {
              produces: ['image/svg+xml'],
              responses: responses({ 200: { description: 'The SVG file' } }, [...AUTH_CODES, 'not_found', 'not_ready', 'result_expired']),
            },
          },
        },
        async handler(request, h) {
          const { account } = credentialsOf(request);
          const job = jobs.getOwned(String(request.params.id), account.id);
          const { stream, bytes } = await retention.openResult(job);
          return (
            h
              .response(stream)
              .type('image/svg+xml')
              .bytes(bytes)
              .header('content-disposition', contentDisposition(job.file_name))
              .header('x-content-type-options', 'nosniff')
              // An SVG can carry script: never let a browser run it in our origin.
              .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
              .header('cache-control', 'private, no-store')
          );
        },
      },
      {
        method: 'DELETE',
        path: '/v1/jobs/{id}',
        options: {
          auth: API_AUTH,
          tags: ['api', 'jobs'],
          description: 'Cancel a queued/processing job (200 with the job) or delete an ended one with its result (204)',
          validate: { params: IdParam('job') },
          plugins: {
            'hapi-swagger': {
              responses: responses({ 200: { description: 'Canceled: the job', schema: JobSchema }, 204: { description: 'Deleted' } }, [
                ...AUTH_CODES,
                'not_found',
              ]),
            },
          },
        },
        async handler(request, h) {
          const { account } = credentialsOf(request);
          const job = jobs.getOwned(String(request.params.id), account.id);
          const outcome = await jobs.cancelOrDelete(job);
          await app.store.flush();
          if ('canceled' in outcome) return h.response(jobs.view(outcome.canceled, app.baseUrl(request))).code(200);
          return h.response().code(204);
        },
      },
    ]);
  },
};
