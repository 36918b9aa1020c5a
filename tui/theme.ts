/**
 * Colours that read on light and dark terminals alike: never white or black text, never a
 * background colour; emphasis by bold, dim and inverse, and a few named hues whose terminal
 * palettes keep them legible on both (yellow is left out: it vanishes on white).
 */
import type { JobStatus } from '../client/admin.js';

export type Hue = 'green' | 'red' | 'cyan' | 'magenta' | 'blue';

export const STATUS_HUE: Record<JobStatus, Hue | undefined> = {
  queued: undefined,
  processing: 'cyan',
  completed: 'green',
  failed: 'red',
  canceled: undefined,
  expired: undefined,
};

export const DELIVERY_HUE: Record<string, Hue | undefined> = {
  delivered: 'green',
  failed: 'red',
  pending: 'magenta',
};

export const DANGER: Hue = 'red';
export const SUCCESS: Hue = 'green';
