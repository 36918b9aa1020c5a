/**
 * The output controls (issue #17): what is done to a kept VectorDocument before it is written.
 * Each control is one function over the document; renderDocument (engine/svg/render.ts) applies them.
 */
import type { OutputControls, SizeUnit } from '../types.js';
import type { SvgFrame, VectorDocument } from './document.js';

/** CSS units per inch: the root's width and height in mm, cm, in or pt come from px at `dpi`. */
const PER_INCH: Record<Exclude<SizeUnit, 'px'>, number> = { mm: 25.4, cm: 2.54, in: 1, pt: 72 };

/** A length in `unit` with at most 3 decimals (a micrometre in mm), no trailing zeros. */
function lengthText(value: number, unit: SizeUnit): string {
  const text = String(Number(value.toFixed(3)));
  return unit === 'px' ? text : `${text}${unit}`;
}

/**
 * The root's width and height: both given, as given; one given, the other from the drawing's aspect
 * (the viewBox never changes, so the drawing scales uniformly); none, the pixel size in `unit` at `dpi`.
 */
export function frameFor(document: VectorDocument, controls: OutputControls): SvgFrame {
  const { displayWidth, displayHeight } = document;
  const { unit } = controls;
  let { width, height } = controls;
  if (width === null && height === null) {
    const scale = unit === 'px' ? 1 : PER_INCH[unit] / controls.dpi;
    width = displayWidth * scale;
    height = displayHeight * scale;
  } else if (width === null) {
    width = ((height as number) * displayWidth) / displayHeight;
  } else if (height === null) {
    height = (width * displayHeight) / displayWidth;
  }
  return { width: lengthText(width, unit), height: lengthText(height as number, unit), layers: controls.groupBy === 'color' };
}
