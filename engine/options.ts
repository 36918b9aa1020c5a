import { VectorizeError } from './errors.js';
import {
  BACKGROUND_MODES,
  DEFAULT_OUTPUT_CONTROLS,
  DEFAULT_TRACE_OPTIONS,
  GROUPINGS,
  SIZE_UNITS,
  STROKE_ORDERS,
  type OutputControls,
  DETAIL_LEVELS,
  GRADIENT_MODES,
  IMAGE_TYPES,
  SMOOTHING_LEVELS,
  TRACE_STYLES,
  type Detail,
  type Smoothing,
  type TraceOptions,
} from './types.js';

/**
 * The output controls' form fields, as the API, the CLI and the page spell them (docs/api.md,
 * "Output controls"): one list, so a new control cannot reach one of them and not the others.
 */
export const OUTPUT_FIELDS = ['max_colors', 'palette', 'background', 'group_by', 'width', 'height', 'unit', 'dpi', 'stroke_order'] as const;
export type OutputField = (typeof OUTPUT_FIELDS)[number];

/** Raw option values as they arrive from a form field or a CLI flag (snake_case keys). */
export interface RawTraceOptions {
  image_type?: string | undefined;
  detail?: string | number | undefined;
  smoothing?: string | number | undefined;
  gradients?: string | undefined;
  trace_style?: string | undefined;
  close_seams?: string | boolean | undefined;
  max_colors?: string | number | undefined;
  palette?: string | undefined;
  background?: string | undefined;
  group_by?: string | undefined;
  width?: string | number | undefined;
  height?: string | number | undefined;
  unit?: string | undefined;
  dpi?: string | number | undefined;
  stroke_order?: string | undefined;
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

/** A whole number in [min, max], written in decimal digits (or given as a number). */
function wholeNumber(field: string, value: unknown, min: number, max: number): number | null {
  if (value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) return invalid(field, value, `a whole number ${min}–${max}`);
  return n;
}

/** Sizes are plain decimals ("100", "12.5"): no signs, exponents or units in the number. */
function positiveDecimal(field: string, value: unknown, max: number): number | null {
  if (value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}(\.\d{1,6})?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > max) return invalid(field, value, `a decimal number above 0, at most ${max}`);
  return n;
}

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
/** Brand palettes are a handful of colours; 64 covers any of them and bounds the snapping work. */
const MAX_PALETTE = 64;
/** Larger than any cutter bed or print in mm, and still a sane number of px. */
const MAX_SIZE = 100_000;

function parsePalette(value: unknown): string[] | null {
  if (value === undefined || value === '') return null;
  const allowed = `1–${MAX_PALETTE} comma-separated #rrggbb colours`;
  if (typeof value !== 'string') return invalid('palette', value, allowed);
  const colours = value.split(',').map((c) => c.trim());
  if (colours.length > MAX_PALETTE || !colours.every((c) => HEX_COLOUR.test(c))) return invalid('palette', value, allowed);
  return [...new Set(colours.map((c) => c.toLowerCase()))];
}

function parseBackground(value: unknown): OutputControls['background'] {
  if (value === undefined || value === '') return DEFAULT_OUTPUT_CONTROLS.background;
  if (typeof value === 'string' && (BACKGROUND_MODES as readonly string[]).includes(value)) return value;
  if (typeof value === 'string' && HEX_COLOUR.test(value)) return value.toLowerCase();
  return invalid('background', value, `one of ${BACKGROUND_MODES.join(', ')} or a #rrggbb colour`);
}

/** The output controls' fields (engine/svg/controls.ts); none given: the SVG as traced. */
export function parseOutputControls(raw: RawTraceOptions): OutputControls {
  const defaults = DEFAULT_OUTPUT_CONTROLS;
  return {
    maxColors: wholeNumber('max_colors', raw.max_colors, 2, 256),
    palette: parsePalette(raw.palette),
    background: parseBackground(raw.background),
    groupBy: pickEnum('group_by', raw.group_by, GROUPINGS, defaults.groupBy),
    width: positiveDecimal('width', raw.width, MAX_SIZE),
    height: positiveDecimal('height', raw.height, MAX_SIZE),
    unit: pickEnum('unit', raw.unit, SIZE_UNITS, defaults.unit),
    dpi: wholeNumber('dpi', raw.dpi, 1, 10_000) ?? defaults.dpi,
    strokeOrder: pickEnum('stroke_order', raw.stroke_order, STROKE_ORDERS, defaults.strokeOrder),
  };
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
    output: parseOutputControls(raw),
  };
}
