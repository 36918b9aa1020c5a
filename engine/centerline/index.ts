/**
 * PLACEHOLDER written by the fill-tracing core (issue 2) so the orchestrator typechecks before the
 * centerline helper's tracer lands. The centerline helper owns this file and replaces it whole.
 */
import { VectorizeError } from '../errors.js';
import type { RgbaImage } from '../types.js';

export interface CenterlineResult {
  svg: string;
  paths: number;
  nodes: number;
}

export async function traceCenterline(
  _image: RgbaImage,
  _hooks: { signal?: AbortSignal | undefined; onProgress?: ((fraction: number) => void) | undefined } = {},
): Promise<CenterlineResult> {
  throw new VectorizeError('invalid_parameter', 'centerline not available yet', { field: 'trace_style' });
}
