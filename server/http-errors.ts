/**
 * The API's error vocabulary and the ONE place where it meets HTTP. Every failure leaves the server as
 * `{ error: { code, message, details } }`: our own VectorizeErrors, hapi's 404/413/415, joi validation
 * (400 invalid_parameter with details.field) and anything unexpected (500). The codes and their
 * statuses are docs/api.md's error table.
 */
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { isVectorizeError, VectorizeError as EngineError, type EngineErrorCode } from '../engine/errors.js';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_TEXT } from './limits.js';
import type { Logger } from './log.js';

/** Every code the API answers with, and its status: this table is the list. */
export const HTTP_STATUS = {
  missing_file: 400,
  unreadable_file: 400,
  empty_file: 400,
  batch_limit_exceeded: 400,
  invalid_batch_id: 400,
  invalid_folder_name: 400,
  unsupported_output_format: 400,
  // every 400 the contract does not name
  invalid_parameter: 400,
  unauthorized: 401,
  // billing: the plan or its allowance refuses
  quota_exhausted: 402,
  megapixels_exceeded: 402,
  high_detail_not_included: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_ready: 409,
  idempotency_key_reuse: 409,
  request_in_progress: 409,
  result_expired: 410,
  file_too_large: 413,
  unsupported_format: 415,
  too_many_active_jobs: 429,
  daily_fuse_tripped: 429,
  queue_full: 503,
  storage_full: 503,
  unavailable: 503,
  canceled: 409,
  internal_error: 500,
} as const satisfies Record<EngineErrorCode, number> & Record<string, number>;

export type ApiErrorCode = keyof typeof HTTP_STATUS;

export const API_ERROR_CODES = Object.keys(HTTP_STATUS) as ApiErrorCode[];

/** The engine's error with the API's codes: what every part of the server throws. */
export class VectorizeError extends EngineError<ApiErrorCode> {}

export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === 'string' && Object.hasOwn(HTTP_STATUS, code);
}

/** Seconds a client should wait before retrying a 429/503 (or a 409 that clears by itself), by code. */
const RETRY_AFTER_S: Partial<Record<ApiErrorCode, number>> = {
  // The first request with the key is being accepted right now: it settles within a second.
  request_in_progress: 1,
  too_many_active_jobs: 5,
  daily_fuse_tripped: 3600,
  queue_full: 30,
  storage_full: 300,
  unavailable: 5,
};

export function statusOf(code: string): number {
  return isApiErrorCode(code) ? HTTP_STATUS[code] : 500;
}

/** Joi's path (e.g. ['limit']) or the header name as the field a client fixes. */
function validationField(error: { details?: { path?: (string | number)[]; context?: { key?: string } }[] }): string {
  const first = error.details?.[0];
  return String(first?.path?.join('.') || first?.context?.key || 'request');
}

/** Used as `routes.validate.failAction`: joi failures become 400 invalid_parameter. */
/** The one refusal of an upload over MAX_UPLOAD_BYTES, whether the service or hapi's payload limit finds it. */
export function uploadTooLarge(): VectorizeError {
  return new VectorizeError('file_too_large', `The upload is larger than ${MAX_UPLOAD_TEXT}.`, { max_bytes: MAX_UPLOAD_BYTES });
}

export function validationFailAction(_request: Request, _h: ResponseToolkit, error?: Error): never {
  const joi = error as (Error & { details?: { path?: (string | number)[]; message?: string; context?: { key?: string } }[] }) | undefined;
  const field = joi ? validationField(joi) : 'request';
  const message = joi?.details?.[0]?.message?.replace(/"/g, '') ?? 'Invalid request.';
  throw new VectorizeError('invalid_parameter', message, { field });
}

function fromBoom(response: {
  output: { statusCode: number; headers: Record<string, unknown> };
  message: string;
  data?: unknown;
}): VectorizeError {
  let status = response.output.statusCode;
  // A streamed (chunked) multipart body cut off at maxBytes surfaces as subtext's 400 "Invalid
  // multipart payload format" wrapping the 413: the client sent too much, say so.
  const cause = response.data as { output?: { statusCode?: number } } | undefined;
  if (status === 400 && cause?.output?.statusCode === 413) status = 413;
  switch (status) {
    case 400:
      return new VectorizeError('invalid_parameter', response.message || 'Bad request.', { field: 'request' });
    case 401:
      return new VectorizeError('unauthorized', 'A valid API key is required: Authorization: Bearer service_sk_live_…');
    case 403:
      return new VectorizeError('forbidden', 'This key may not make this call.');
    case 404:
    case 405:
      return new VectorizeError('not_found', 'No such resource.');
    case 413:
      return uploadTooLarge();
    case 415:
      return new VectorizeError('unsupported_format', 'The request body must be multipart/form-data (or JSON where documented).', {});
    default:
      return new VectorizeError('internal_error', 'Something went wrong on our side.');
  }
}

/**
 * The disk filled up under a write (an upload hapi was saving, the database, a moved upload).
 * hapi hands a failed upload write on as the error itself or wrapped in a Boom's data, so the
 * chain is followed a few links.
 */
function isDiskFull(error: unknown): boolean {
  let link = error;
  for (let depth = 0; depth < 4 && typeof link === 'object' && link !== null; depth++) {
    const code = (link as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    link = (link as { data?: unknown }).data ?? (link as { cause?: unknown }).cause;
  }
  return false;
}

export function toErrorBody(error: EngineError<string>) {
  return { error: { code: error.code, message: error.message, details: error.details } };
}

export function registerErrorMapping(server: Server, log: Logger): void {
  server.ext('onPreResponse', (request, h) => {
    const response = request.response as unknown as
      (Error & { isBoom?: boolean; output: { statusCode: number; headers: Record<string, unknown> }; data?: unknown }) | null;
    if (!response || !(response as { isBoom?: boolean }).isBoom) return h.continue;
    let error: EngineError<string>;
    if (isVectorizeError(response)) error = response;
    else if (isDiskFull(response)) {
      log.warn('storage full', { request_id: request.info.id, path: request.path, err: response.message });
      error = new VectorizeError('storage_full', 'The service ran out of storage; retry later.', {});
    } else {
      error = fromBoom(response);
      const routeApp = request.route.settings.app as { on415?: ApiErrorCode; maxFormBytes?: number } | undefined;
      if (response.output.statusCode === 415 && routeApp?.on415) {
        error = new VectorizeError(routeApp.on415, 'The request must be multipart/form-data with a `file` part.', { field: 'file' });
      }
      // A route that takes no file: an oversized body is a bad form, not a file too large.
      if (error.code === 'file_too_large' && routeApp?.maxFormBytes !== undefined) {
        error = new VectorizeError('invalid_parameter', `The request body is larger than ${routeApp.maxFormBytes} bytes.`, {
          field: 'request',
          max_bytes: routeApp.maxFormBytes,
        });
      }
      if (error.code === 'internal_error') {
        log.error('unhandled error', { request_id: request.info.id, path: request.path, err: response.message, stack: response.stack });
      }
    }
    const out = h.response(toErrorBody(error)).code(statusOf(error.code)).type('application/json');
    const retry = isApiErrorCode(error.code) ? RETRY_AFTER_S[error.code] : undefined;
    if (retry !== undefined) out.header('Retry-After', String(error.details.retry_after ?? retry));
    if (error.code === 'unauthorized') out.header('WWW-Authenticate', 'Bearer');
    return out.takeover();
  });
}
