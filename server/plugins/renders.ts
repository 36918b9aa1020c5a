/** POST /v1/jobs/{id}/render: a completed job's kept geometry drawn again with other output controls. */
import type { Lifecycle, Plugin, Request } from '@hapi/hapi';
import Joi from 'joi';
import { validationFailAction, VectorizeError } from '../http-errors.js';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { AUTH_CODES, IdParam, JobSchema, OUTPUT_FIELDS_DOC, responses } from '../schemas.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

/** Nine short fields; a palette of 64 colours is 519 bytes. Anything far larger is not a re-render. */
export const MAX_RENDER_BODY_BYTES = 16 * 1024;

const renderDoc = Joi.object(OUTPUT_FIELDS_DOC)
  .unknown(true)
  // Documentation only: the render service validates the fields itself (invalid_parameter naming the field).
  .prefs({ noDefaults: true })
  .label('RenderForm');

/**
 * The id is refused like on every other job route (400 invalid_parameter naming `id`); the body's
 * fields are left to the render service, which names the field it refuses.
 */
const idOnlyFailAction: Lifecycle.Method = (request, h, error) => {
  const failed = error as { output?: { payload?: { validation?: { source?: string } } } } | undefined;
  return failed?.output?.payload?.validation?.source === 'params' ? validationFailAction(request, h, error) : h.continue;
};

/**
 * The body as field → text, whichever way it came: a form (multipart or URL-encoded) sends text,
 * JSON may send numbers and the palette as an array of colours.
 */
function readFields(payload: unknown): Record<string, string> {
  if (payload === null || payload === undefined || payload === '') return {};
  if (typeof payload !== 'object' || Buffer.isBuffer(payload))
    throw new VectorizeError('invalid_parameter', 'The body must be a form or a JSON object of fields.', { field: 'request' });
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload as Record<string, unknown>)) {
    if (typeof value === 'string') fields[name] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) fields[name] = String(value);
    else if (name === 'palette' && Array.isArray(value) && value.every((colour) => typeof colour === 'string'))
      fields[name] = value.join(',');
    else if (Buffer.isBuffer(value))
      throw new VectorizeError('invalid_parameter', `A re-render takes no file (\`${name}\`).`, { field: name });
    else if (Array.isArray(value)) throw new VectorizeError('invalid_parameter', `${name} was sent more than once.`, { field: name });
    else throw new VectorizeError('invalid_parameter', `${name} must be text or a number.`, { field: name });
  }
  return fields;
}

export const rendersPlugin: Plugin<{ app: AppContext }> = {
  name: 'renders',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    server.route({
      method: 'POST',
      path: '/v1/jobs/{id}/render',
      options: {
        auth: API_AUTH,
        tags: ['api', 'jobs'],
        description: "Draw a completed job's kept geometry again with other output controls; answers 202 with a new job",
        notes: [
          'Takes any of max_colors, palette, background, group_by, stroke_order and the size fields width, height, unit, dpi ' +
            "(form fields or a JSON object). The first job's output controls are kept except those given; the size fields " +
            'replace each other together. Nothing is traced again and no conversion is charged.',
          'The new job has source `render` and render_of naming the first job; poll and download it like any job.',
          'Checks: 400 id (over 80 characters, as on GET /v1/jobs/{id}) → 400 fields → ' +
            '404 job (another account’s answers the same) → 409 not_ready / 410 result_expired → ' +
            'Idempotency-Key → 429 too_many_active_jobs → 503 → 202. Below Pro the controls are replaced by their defaults.',
        ].join('\n'),
        payload: {
          parse: true,
          output: 'data',
          multipart: { output: 'data' },
          allow: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
          maxBytes: MAX_RENDER_BODY_BYTES,
        },
        validate: {
          params: IdParam('job'),
          headers: Joi.object({ 'idempotency-key': Joi.string().description('Optional; a UUID is a good value.') }).unknown(true),
          payload: renderDoc,
          failAction: idOnlyFailAction,
        },
        plugins: {
          'hapi-swagger': {
            payloadType: 'form',
            responses: responses(
              {
                202: { description: 'Accepted: the re-render, queued; `Location` is its URL', schema: JobSchema },
              },
              [
                ...AUTH_CODES,
                'not_found',
                'not_ready',
                'result_expired',
                'idempotency_key_reuse',
                'request_in_progress',
                'too_many_active_jobs',
                'queue_full',
                'storage_full',
              ],
            ),
          },
        },
        app: { maxFormBytes: MAX_RENDER_BODY_BYTES },
      },
      async handler(request: Request, h) {
        const { account } = credentialsOf(request);
        const idem = request.headers['idempotency-key'];
        const { job } = await app.services.renders.render({
          account,
          jobId: String(request.params.id),
          fields: readFields(request.payload),
          idempotencyKey: typeof idem === 'string' ? idem : undefined,
        });
        const base = app.baseUrl(request);
        return h.response(app.services.jobs.view(job, base)).code(202).location(`${base}/v1/jobs/${job.id}`);
      },
    });
  },
};
