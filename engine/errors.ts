/**
 * The engine's errors: what decoding, the pixel limit and tracing can refuse. Every layer that runs
 * the engine carries `VectorizeError`; the server widens the code to the API's vocabulary
 * (server/http-errors.ts owns that list and its HTTP statuses), the CLI prints `message` on one line.
 */
export const ENGINE_ERROR_CODES = [
  // decode
  'missing_file',
  'empty_file',
  'unreadable_file',
  'unsupported_format',
  // limits
  'megapixels_exceeded',
  // options and tracing
  'invalid_parameter',
  'canceled',
  'internal_error',
] as const;

export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

type ErrorDetails = Record<string, unknown>;

/** `Code` is never inferred from the argument, so a misspelt code is a type error in every layer. */
export class VectorizeError<Code extends string = EngineErrorCode> extends Error {
  readonly code: Code;
  readonly details: ErrorDetails;

  constructor(code: NoInfer<Code>, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VectorizeError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: Code; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isVectorizeError(value: unknown): value is VectorizeError<string> {
  return value instanceof VectorizeError;
}

export function isEngineErrorCode(code: unknown): code is EngineErrorCode {
  return (ENGINE_ERROR_CODES as readonly unknown[]).includes(code);
}
