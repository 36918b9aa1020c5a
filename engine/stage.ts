/**
 * What every stage gets from the orchestrator: the caller's AbortSignal and a way to report how far
 * it is through its own work (0..1); the orchestrator turns that into whole-trace progress.
 */
import { VectorizeError } from './errors.js';

export interface StageContext {
  signal?: AbortSignal | undefined;
  /** Fraction of this stage done, 0..1. */
  progress(fraction: number): void;
}

export function checkAbort(context: { signal?: AbortSignal | undefined }): void {
  if (context.signal?.aborted) throw new VectorizeError('canceled', 'The trace was canceled.');
}

export const NO_CONTEXT: StageContext = { progress() {} };
