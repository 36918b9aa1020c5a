/**
 * Public types of the engine. The server, the CLI, the app and the benchmark code against these;
 * the stages inside engine/ have their own typed inputs and outputs.
 */
import type { VectorDocument } from './svg/document.js';

export type { VectorDocument };

export const IMAGE_CLASSES = ['clipart', 'photo', 'scan', 'blueprint'] as const;
export type ImageClass = (typeof IMAGE_CLASSES)[number];

export const IMAGE_TYPES = ['auto', ...IMAGE_CLASSES] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

export const DETAIL_LEVELS = ['low', 'medium', 'high'] as const;
export type Detail = (typeof DETAIL_LEVELS)[number];

export const SMOOTHING_LEVELS = ['off', 'light', 'strong', 'maximum'] as const;
export type Smoothing = (typeof SMOOTHING_LEVELS)[number];

export const GRADIENT_MODES = ['auto', 'smooth', 'stepped'] as const;
type Gradients = (typeof GRADIENT_MODES)[number];

export const TRACE_STYLES = ['fill', 'centerline'] as const;
type TraceStyle = (typeof TRACE_STYLES)[number];

export type InputFormat = 'png' | 'jpeg' | 'webp' | 'avif' | 'bmp';

export const BACKGROUND_MODES = ['keep', 'remove'] as const;
export const GROUPINGS = ['none', 'color'] as const;
export const SIZE_UNITS = ['px', 'mm', 'cm', 'in', 'pt'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];
export const STROKE_ORDERS = ['none', 'plotter'] as const;

/**
 * What is done to the traced geometry on its way to SVG (engine/svg/controls.ts): applied to the
 * kept VectorDocument, so a job can be drawn again with other controls without tracing again.
 */
export interface OutputControls {
  /** At most this many distinct fill colours (gradient stops count); null: as traced. */
  maxColors: number | null;
  /** Every colour snaps to the nearest of these (lower-case #rrggbb); null: as traced. */
  palette: string[] | null;
  /** 'remove': the background colour's shapes at the border left out; '#rrggbb': that colour's shapes left out. */
  background: 'keep' | 'remove' | string;
  /** 'color': one Inkscape layer per colour. */
  groupBy: (typeof GROUPINGS)[number];
  /** The root's width/height in `unit`; null: from the other side (aspect kept), or the pixel size. */
  width: number | null;
  height: number | null;
  unit: SizeUnit;
  /** Pixels per inch, for converting between px and the physical units. */
  dpi: number;
  /** Centerline only: 'plotter' orders, reverses and joins strokes to cut pen-up travel. */
  strokeOrder: (typeof STROKE_ORDERS)[number];
}

export const DEFAULT_OUTPUT_CONTROLS: Readonly<OutputControls> = Object.freeze({
  maxColors: null,
  palette: null,
  background: 'keep',
  groupBy: 'none',
  width: null,
  height: null,
  unit: 'px',
  dpi: 96,
  strokeOrder: 'none',
});

/** The user-facing options, as the contract's form fields name them (already bucketed). */
export interface TraceOptions {
  imageType: ImageType;
  detail: Detail;
  smoothing: Smoothing;
  gradients: Gradients;
  traceStyle: TraceStyle;
  closeSeams: boolean;
  output: OutputControls;
}

export const DEFAULT_TRACE_OPTIONS: Readonly<TraceOptions> = Object.freeze({
  imageType: 'auto',
  detail: 'high',
  smoothing: 'strong',
  gradients: 'smooth',
  traceStyle: 'fill',
  closeSeams: true,
  output: DEFAULT_OUTPUT_CONTROLS,
});

/** Decoded image: 8-bit straight (non-premultiplied) RGBA, row-major, no padding. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array; // length = width * height * 4
}

/**
 * Decoded image as the fill pipeline reads it: RGBA as above, or (channels 3) RGB for a file that
 * has no alpha channel at all, which then needs no fourth byte per pixel made and carried along.
 */
export interface RasterImage {
  width: number;
  height: number;
  /** width * height * (channels ?? 4) bytes */
  data: Uint8Array;
  /** 3: RGB, every pixel opaque; 4 (or absent): straight RGBA. */
  channels?: 3 | 4;
}

export interface ImageProbe {
  format: InputFormat;
  width: number;
  height: number;
  megapixels: number; // width*height / 1e6
}

export type StageName = 'decode' | 'classify' | 'prepare' | 'segment' | 'fit' | 'write';

export interface Progress {
  stage: StageName;
  /** 0..1 over the whole trace, weighted by stage. */
  fraction: number;
}

export interface TraceHooks {
  onProgress?: (progress: Progress) => void;
  /** Aborting rejects with VectorizeError('canceled') at the next stage or row-block boundary. */
  signal?: AbortSignal;
  /** Hard decode limit in pixels (bomb guard). Defaults to ENGINE_MAX_PIXELS. */
  maxPixels?: number;
}

export interface TraceStats {
  bytes: number;
  /** Shapes written: <path>, <circle> and <ellipse> elements. */
  paths: number;
  /** Path segments (lines + curves), as the benchmark counts nodes. */
  nodes: number;
  ms: Partial<Record<StageName, number>>;
  /** Centerline: pen-up travel (px) between the strokes as traced, and as written (stroke_order). */
  penUpBefore?: number;
  penUpAfter?: number;
}

export interface TraceResult {
  svg: string;
  /** The class the engine used: given explicitly or classified. */
  mode: ImageClass;
  width: number;
  height: number;
  megapixels: number;
  format: InputFormat;
  stats: TraceStats;
  /** What was drawn before the output controls: renderDocument(document, controls) draws it again. */
  document: VectorDocument;
}

/**
 * Default decode limit when the caller sets none (the CLI): 50 MP, checked from the header before
 * any pixel memory is spent, so a small file that claims 60 MP fails at once with
 * `megapixels_exceeded`. The server passes the plan's own maximum instead (up to 100 MP).
 */
export const ENGINE_MAX_PIXELS = 50_000_000;
