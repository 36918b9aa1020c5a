/**
 * The one error vocabulary of Vectorize. Every layer (engine, server, CLI, app, TUI) throws or
 * carries `VectorizeError`; the server maps `code` to an HTTP status in one place
 * (server/http-errors.ts), the CLI prints `message` on one line.
 */
export const ERROR_CODES = [
  // contract §7
  'missing_file',
  'unreadable_file',
  'empty_file',
  'batch_limit_exceeded',
  'invalid_batch_id',
  'invalid_folder_name',
  'unsupported_output_format',
  'unauthorized',
  'quota_exhausted',
  'megapixels_exceeded',
  'high_detail_not_included',
  'forbidden',
  'not_found',
  'not_ready',
  'idempotency_key_reuse',
  'request_in_progress',
  'result_expired',
  'file_too_large',
  'unsupported_format',
  'too_many_active_jobs',
  'daily_fuse_tripped',
  'queue_full',
  'storage_full',
  // decisions.md §3: every 400 the contract does not name
  'invalid_parameter',
  // house codes
  'method_not_allowed',
  'canceled',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorDetails = Record<string, unknown>;

export class VectorizeError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VectorizeError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isVectorizeError(value: unknown): value is VectorizeError {
  return value instanceof VectorizeError;
}
