/**
 * The Newton step of Schneider's reparameterisation, shared by the curve fitters (./index.ts and
 * engine/centerline/fit.ts): each evaluates the cubic at t in its own way, and the order of those
 * products is part of what their golden SVGs pin, so only the step itself lives here.
 */

/**
 * Parameter t of cubic `b` (x,y of its four points) moved one Newton step towards the parameter of
 * the cubic's point nearest a data point, given (ex, ey) = the cubic's point at t minus that data
 * point; clamped to [0, 1]. Where the step is undefined (a flat second-order term), t itself.
 */
export function newtonParameter(b: Float64Array, t: number, ex: number, ey: number): number {
  const s = 1 - t;
  const d1x = 3 * (s * s * (b[2] - b[0]) + 2 * s * t * (b[4] - b[2]) + t * t * (b[6] - b[4]));
  const d1y = 3 * (s * s * (b[3] - b[1]) + 2 * s * t * (b[5] - b[3]) + t * t * (b[7] - b[5]));
  const d2x = 6 * (s * (b[4] - 2 * b[2] + b[0]) + t * (b[6] - 2 * b[4] + b[2]));
  const d2y = 6 * (s * (b[5] - 2 * b[3] + b[1]) + t * (b[7] - 2 * b[5] + b[3]));
  const num = ex * d1x + ey * d1y;
  const den = d1x * d1x + d1y * d1y + ex * d2x + ey * d2y;
  if (!(Math.abs(den) > 1e-12)) return t;
  const next = t - num / den;
  return next < 0 ? 0 : next > 1 ? 1 : next;
}
