import { VectorizeError } from '../errors.js';
import type { InputFormat } from '../types.js';

const FORMAT_NAMES: Record<InputFormat, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', avif: 'AVIF', bmp: 'BMP' };

/** The one `unreadable_file` of the decode stage: the user hears "damaged", `details.reason` says how. */
export function unreadable(format: InputFormat, reason: string, cause?: unknown): VectorizeError {
  return new VectorizeError(
    'unreadable_file',
    `The ${FORMAT_NAMES[format]} file is damaged or truncated and cannot be read.`,
    { format, reason },
    cause === undefined ? undefined : { cause },
  );
}
