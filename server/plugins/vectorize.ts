/** POST /v1/vectorize: multipart upload → 202 with a queued job. */
import type { Plugin, Request } from '@hapi/hapi';
import Joi from 'joi';
import { rm } from 'node:fs/promises';
import { VectorizeError, type ApiErrorCode } from '../http-errors.js';
import { API_AUTH, credentialsOf } from '../auth.js';
import type { AppContext } from '../context.js';
import { AUTH_CODES, JobSchema, OUTPUT_FIELDS_DOC, responses } from '../schemas.js';
import { FORM_FIELDS, type UploadedFile } from '../services/submissions.js';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_TEXT } from '../limits.js';
import { RETENTIONS } from '../plans.js';

const optionsSchema = Joi.object({ app: Joi.object().required() });

/** Every code POST /v1/vectorize can answer, in the order its checks run (docs/api.md, "Order of checks"). */
export const SUBMIT_ERROR_CODES: ApiErrorCode[] = [
  'missing_file',
  'unreadable_file',
  'empty_file',
  'batch_limit_exceeded',
  'invalid_batch_id',
  'invalid_folder_name',
  'unsupported_output_format',
  ...AUTH_CODES,
  'quota_exhausted',
  'megapixels_exceeded',
  'high_detail_not_included',
  'idempotency_key_reuse',
  'request_in_progress',
  'file_too_large',
  'unsupported_format',
  'too_many_active_jobs',
  'daily_fuse_tripped',
  'queue_full',
  'storage_full',
];

/** Room for the multipart framing and the small fields around a maximal file. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

const formDoc = Joi.object({
  file: Joi.any()
    .meta({ swaggerType: 'file' })
    .description(`PNG, JPEG, WebP, AVIF or BMP; at most ${MAX_UPLOAD_TEXT}. Format is read from the bytes.`),
  image_type: Joi.string().valid('auto', 'clipart', 'photo', 'scan', 'blueprint').default('auto'),
  output_format: Joi.string().description('Only `svg`. EPS, PNG, PDF, DXF, AI … answer 400 unsupported_output_format.').default('svg'),
  retention: Joi.string()
    .valid(...RETENTIONS)
    .default('24h')
    .description('Lowered to the plan maximum; `none` = deleted after the first download.'),
  batch_id: Joi.string().description(
    '≤ 128 characters, no control characters. Groups files into a folder of at most ' +
      "the plan's `limits.batch_group` files (GET /v1/account).",
  ),
  folder_name: Joi.string().description('≤ 128 characters; needs batch_id; the first admitted file names the folder.'),
  detail: Joi.string()
    .description('low | medium | high, or a slider 1–100 (1–33 low, 34–66 medium, 67–100 high). Manual: Pro and above.')
    .default('high'),
  gradients: Joi.string().valid('auto', 'smooth', 'stepped').default('smooth').description('Manual: Pro and above.'),
  smoothing: Joi.string()
    .description('off | light | strong | maximum, or a slider 0–100 (0–24/25–49/50–74/75–100). Manual: Pro and above.')
    .default('strong'),
  trace_style: Joi.string().valid('fill', 'centerline').default('fill').description('Manual: Pro and above.'),
  close_seams: Joi.string().valid('true', 'false').default('true'),
  ...OUTPUT_FIELDS_DOC,
})
  .unknown(true)
  // Documentation only: the submission service validates the form itself, so each field keeps
  // its contract code (invalid_batch_id, unsupported_output_format …) and no default is injected
  // into the fingerprint.
  .prefs({ noDefaults: true })
  .label('VectorizeForm');

function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as UploadedFile).path === 'string' &&
    typeof (value as UploadedFile).bytes === 'number'
  );
}

/** Temp files hapi wrote for this request; all are removed when the request ends. */
function tempFiles(payload: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const value of Object.values(payload)) {
    for (const item of Array.isArray(value) ? value : [value]) if (isUploadedFile(item)) out.push(item.path);
  }
  return out;
}

function readForm(payload: Record<string, unknown>): { file: UploadedFile | undefined; fields: Record<string, string> } {
  let file: UploadedFile | undefined;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (Array.isArray(value)) throw new VectorizeError('invalid_parameter', `${name} was sent more than once.`, { field: name });
    if (name === 'file') {
      if (isUploadedFile(value)) file = value;
      continue;
    }
    if (isUploadedFile(value)) {
      // A file under another name is the commonest client mistake: name the right field.
      throw new VectorizeError('missing_file', `The image must be sent in the \`file\` field, not \`${name}\`.`, {
        field: 'file',
        got: name,
      });
    }
    if ((FORM_FIELDS as readonly string[]).includes(name) || typeof value === 'string') fields[name] = String(value);
  }
  return { file, fields };
}

export const vectorizePlugin: Plugin<{ app: AppContext }> = {
  name: 'vectorize',
  register(server, options) {
    Joi.assert(options, optionsSchema);
    const { app } = options;
    server.route({
      method: 'POST',
      path: '/v1/vectorize',
      options: {
        auth: API_AUTH,
        tags: ['api', 'jobs'],
        description: 'Submit an image; answers 202 with a queued job',
        notes: [
          'Checks run in this order: 400 form → Idempotency-Key (replay 202 / 409) → 415/400 bytes → 400 batch_limit_exceeded ' +
            '→ 402 → 429 → 503.',
          'Idempotency-Key: remembered 24 h per account; the fingerprint covers the file bytes and every form field.',
          'Manual fields (detail, gradients, smoothing, trace_style and the output controls max_colors, palette, background, ' +
            'group_by, width, height, unit, dpi, stroke_order) are replaced by their defaults on Trial and Lite; ' +
            "the job's options say what was applied.",
          'A field not listed here answers 400 invalid_parameter with details.field naming it ' +
            '(a misspelt option never falls back to its default silently).',
          "The 202 carries a Location header: the job's URL to poll.",
        ].join('\n'),
        payload: {
          output: 'file',
          parse: true,
          multipart: { output: 'file' },
          allow: 'multipart/form-data',
          maxBytes: MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES,
          uploads: app.blobs.tmpDir,
          timeout: false,
        },
        validate: {
          headers: Joi.object({ 'idempotency-key': Joi.string().description('Optional; a UUID is a good value.') }).unknown(true),
          payload: formDoc,
          failAction: 'ignore',
        },
        plugins: {
          'hapi-swagger': {
            payloadType: 'form',
            responses: responses(
              {
                202: {
                  description: 'Accepted: the job, queued (or the first job of an idempotent replay); `Location` is its URL',
                  schema: JobSchema,
                },
              },
              SUBMIT_ERROR_CODES,
            ),
          },
        },
        // A body that is not multipart at all has no file part (rather than an unsupported image).
        app: { on415: 'missing_file' },
      },
      async handler(request: Request, h) {
        const payload = (request.payload ?? {}) as Record<string, unknown>;
        const temps = typeof payload === 'object' ? tempFiles(payload) : [];
        try {
          const { file, fields } = readForm(typeof payload === 'object' ? payload : {});
          const { account, key } = credentialsOf(request);
          const idem = request.headers['idempotency-key'];
          const { job } = await app.services.submissions.submit({
            account,
            key,
            file,
            fields,
            idempotencyKey: typeof idem === 'string' ? idem : undefined,
          });
          const base = app.baseUrl(request);
          return h.response(app.services.jobs.view(job, base)).code(202).location(`${base}/v1/jobs/${job.id}`);
        } finally {
          await Promise.all(temps.map((path) => rm(path, { force: true })));
        }
      },
    });
  },
};
