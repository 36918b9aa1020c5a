import { VectorizeError } from './errors.js';
import {
  DEFAULT_TRACE_OPTIONS,
  DETAIL_LEVELS,
  GRADIENT_MODES,
  IMAGE_TYPES,
  SMOOTHING_LEVELS,
  TRACE_STYLES,
  type Detail,
  type Smoothing,
  type TraceOptions,
} from './types.js';

/** Raw option values as they arrive from a form field or a CLI flag (snake_case keys). */
interface RawTraceOptions {
  image_type?: string | undefined;
  detail?: string | number | undefined;
  smoothing?: string | number | undefined;
  gradients?: string | undefined;
  trace_style?: string | undefined;
  close_seams?: string | boolean | undefined;
}

function invalid(field: string, value: unknown, allowed: string): never {
  throw new VectorizeError('invalid_parameter', `${field} must be ${allowed}; got ${JSON.stringify(value)}`, {
    field,
    allowed,
  });
}

function pickEnum<T extends string>(field: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return invalid(field, value, `one of ${allowed.join(', ')}`);
}

/** Slider numbers are integers written in decimal; "50.5", "1e2" or " 7" are not sliders. */
function sliderNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d{1,3}$/.test(value)) return Number(value);
  return undefined;
}

// Both sliders also take a number; the refusal says so, not only the named levels.
const DETAIL_ALLOWED = `one of ${DETAIL_LEVELS.join(', ')} or a number 1–100`;
const SMOOTHING_ALLOWED = `one of ${SMOOTHING_LEVELS.join(', ')} or a number 0–100`;

/** docs/api.md, "Sliders": detail 1–33 low, 34–66 medium, 67–100 high. */
export function bucketDetail(value: unknown): Detail {
  if (value === undefined || value === '') return DEFAULT_TRACE_OPTIONS.detail;
  const n = sliderNumber(value);
  if (n !== undefined) {
    if (n < 1 || n > 100) invalid('detail', value, DETAIL_ALLOWED);
    return n <= 33 ? 'low' : n <= 66 ? 'medium' : 'high';
  }
  if (typeof value === 'string' && (DETAIL_LEVELS as readonly string[]).includes(value)) return value as Detail;
  return invalid('detail', value, DETAIL_ALLOWED);
}

/** docs/api.md, "Sliders": smoothing 0–24 off, 25–49 light, 50–74 strong, 75–100 maximum. */
export function bucketSmoothing(value: unknown): Smoothing {
  if (value === undefined || value === '') return DEFAULT_TRACE_OPTIONS.smoothing;
  const n = sliderNumber(value);
  if (n !== undefined) {
    if (n < 0 || n > 100) invalid('smoothing', value, SMOOTHING_ALLOWED);
    return n <= 24 ? 'off' : n <= 49 ? 'light' : n <= 74 ? 'strong' : 'maximum';
  }
  if (typeof value === 'string' && (SMOOTHING_LEVELS as readonly string[]).includes(value)) return value as Smoothing;
  return invalid('smoothing', value, SMOOTHING_ALLOWED);
}

function parseBoolean(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return invalid(field, value, 'true or false');
}

/**
 * Turns raw form/CLI values into validated, bucketed TraceOptions. Unknown values answer
 * `invalid_parameter` with `details.field` (docs/api.md, "Sliders").
 */
export function parseTraceOptions(raw: RawTraceOptions): TraceOptions {
  return {
    imageType: pickEnum('image_type', raw.image_type, IMAGE_TYPES, DEFAULT_TRACE_OPTIONS.imageType),
    detail: bucketDetail(raw.detail),
    smoothing: bucketSmoothing(raw.smoothing),
    gradients: pickEnum('gradients', raw.gradients, GRADIENT_MODES, DEFAULT_TRACE_OPTIONS.gradients),
    traceStyle: pickEnum('trace_style', raw.trace_style, TRACE_STYLES, DEFAULT_TRACE_OPTIONS.traceStyle),
    closeSeams: parseBoolean('close_seams', raw.close_seams, DEFAULT_TRACE_OPTIONS.closeSeams),
  };
}
