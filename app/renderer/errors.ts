/**
 * The contract's error codes in plain words for designers. The code itself is always shown beside
 * the words (support and the API docs speak in codes); messages from the server are reworded over
 * time, so the front end never shows them as the main text.
 */
import { MAX_UPLOAD_BYTES } from '../../server/limits.js';

const PLAIN_WORDS: Record<string, string> = {
  missing_file: 'No file reached the server.',
  unreadable_file: 'This file could not be read as an image.',
  empty_file: 'This file is empty.',
  batch_limit_exceeded: 'Your plan converts one file per batch.',
  invalid_batch_id: 'The batch name is too long or has odd characters.',
  invalid_folder_name: 'The folder name is too long or has odd characters.',
  unsupported_output_format: 'Only SVG output is available.',
  unauthorized: 'The API key was not accepted.',
  quota_exhausted: 'No conversions are left on your plan.',
  megapixels_exceeded: 'The image has more pixels than your plan allows.',
  high_detail_not_included: 'High detail is not included in your plan; pick medium or low.',
  forbidden: 'This key may not convert images on your plan.',
  not_found: 'The conversion no longer exists on the server.',
  method_not_allowed: 'The server does not take this request on that address.',
  not_ready: 'The result is not ready yet.',
  idempotency_key_reuse: 'This upload clashed with an earlier one; add the file again.',
  request_in_progress: 'The same upload is still being handled.',
  result_expired: 'The result expired and was deleted; re-run to convert again.',
  file_too_large: `The file is over the ${MAX_UPLOAD_BYTES / 1024 ** 2} MiB upload limit.`,
  unsupported_format: 'Only PNG, JPEG, WebP, AVIF and BMP images can be converted.',
  too_many_active_jobs: 'Too many conversions are running at once.',
  daily_fuse_tripped: 'Your daily limit of conversions is reached; try again tomorrow.',
  queue_full: 'The server is busy; try again in a few minutes.',
  storage_full: 'The server is out of disk space.',
  unavailable: 'The server cannot reach its database or storage right now; try again shortly.',
  invalid_parameter: 'A setting had a value the server does not accept.',
  canceled: 'The conversion was canceled.',
  internal_error: 'Something went wrong on the server.',
  unreachable: 'Cannot reach the Vectorize server.',
};

export interface PlainError {
  code: string;
  words: string;
}

export function plainWords(code: string, details: Record<string, unknown> = {}): string {
  const words = PLAIN_WORDS[code] ?? 'Something went wrong.';
  if (code === 'quota_exhausted' && typeof details.reset_at === 'string') {
    const date = new Date(details.reset_at);
    if (!Number.isNaN(date.getTime())) return `${words} It resets on ${date.toISOString().slice(0, 10)}.`;
  }
  if (code === 'invalid_parameter' && typeof details.field === 'string') {
    return `${words} (${details.field})`;
  }
  return words;
}

/** Turns anything thrown by the client (ApiError, UnreachableError, a plain Error) into code + words. */
export function toPlainError(error: unknown): PlainError {
  if (error && typeof error === 'object') {
    const record = error as { name?: string; code?: unknown; details?: unknown };
    if (record.name === 'UnreachableError') return { code: 'unreachable', words: plainWords('unreachable') };
    if (typeof record.code === 'string') {
      const details = record.details && typeof record.details === 'object' ? (record.details as Record<string, unknown>) : {};
      return { code: record.code, words: plainWords(record.code, details) };
    }
  }
  return { code: 'internal_error', words: plainWords('internal_error') };
}

export function describeError(error: PlainError): string {
  return `${error.words} (${error.code})`;
}
