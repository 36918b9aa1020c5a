/**
 * PLACEHOLDER written by the fill-tracing core (issue 2) so the orchestrator typechecks before the
 * fit helper's gradient fitting lands. The fit helper owns this file and replaces it whole; until
 * then no region gets a gradient (every fill stays flat).
 */
import type { RgbaImage } from '../types.js';

export type GradientFill =
  | { type: 'linear'; x1: number; y1: number; x2: number; y2: number; stops: Array<{ offset: number; color: string }> }
  | { type: 'radial'; cx: number; cy: number; r: number; stops: Array<{ offset: number; color: string }> };

export function fitGradient(_image: RgbaImage, _pixelIndices: Int32Array, _settings: { maxResidual: number }): GradientFill | null {
  return null;
}
