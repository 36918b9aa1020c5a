/**
 * How well one smooth colour field paints a set of pixels, from sums that add when two sets join.
 *
 * Each channel is fitted, in least squares, by a cubic surface in the pixel position (ten terms
 * xⁱyʲ, i + j ≤ 3): a linear ramp, a radial or elliptical highlight, a ramp that levels off. The
 * fit and its residual need only the power sums Σ xⁱyʲ (i + j ≤ 6), the channels' sums Σ v·xⁱyʲ
 * (i + j ≤ 3) and Σ v², and the sums of two pixel sets add once they are taken about the same
 * point. Judging whether two regions paint as one is then a 10×10 elimination, whatever their
 * size, instead of a pass over their pixels. The pass that takes each region's sums runs in
 * WebAssembly (engine/wasm/assembly/moments.ts, run by run along the rows).
 *
 * Cubic, not quadratic or quartic (clean.cjs on the public clip art): a quadratic refuses the
 * joins of ramps whose profile bends (calculator 3.8x the artist's nodes), a quartic accepts
 * highlights inside larger ramps that the gradient fill then cannot draw (storm's 4x PSNR 2 dB lower).
 *
 * Sums are taken about a reference pixel of each set (not the image's origin), so the high powers
 * stay on the scale of the set itself and keep their precision when shifted.
 */

/** Degree of the surface fitted to each channel. */
const DEGREE = 3;
// the moments pass (engine/wasm/assembly/moments.ts) writes its sums out for this degree
if (DEGREE !== 3) throw new Error('colour-moments: the moments pass is written for a cubic');
/** The power sums xⁱyʲ, i + j ≤ 2·DEGREE, by degree: those up to DEGREE are also the surface's terms. */
const POWERS: ReadonlyArray<readonly [number, number]> = Array.from({ length: 2 * DEGREE + 1 }, (_, d) =>
  Array.from({ length: d + 1 }, (_, k) => [d - k, k] as const),
).flat();
const TERMS = ((DEGREE + 1) * (DEGREE + 2)) / 2;
const powerIndex = (i: number, j: number): number => POWERS.findIndex(([pi, pj]) => pi === i && pj === j);
/** Σ v·xⁱyʲ of channel c over the surface's terms start at COLOUR + TERMS·c. */
const COLOUR = POWERS.length;
const SQUARES = COLOUR + 3 * TERMS;
/** Numbers per set of sums. */
export const MOMENTS = SQUARES + 1;

/**
 * Shifting sums about one point to sums about another (x' = x + dx): Σ x'ⁱy'ʲ w =
 * Σₖ Σₗ C(i,k)·C(j,l)·dx^(i−k)·dy^(j−l)·Σ xᵏyˡ w. One entry per (output, input) pair.
 */
interface ShiftTerm {
  to: number;
  from: number;
  factor: number;
  xPower: number;
  yPower: number;
}
function shiftTerms(outputs: number, offset: number): ShiftTerm[] {
  const choose = (n: number, k: number): number => (k === 0 || k === n ? 1 : choose(n - 1, k - 1) + choose(n - 1, k));
  const terms: ShiftTerm[] = [];
  for (let to = 0; to < outputs; to++) {
    const [i, j] = POWERS[to];
    for (let k = 0; k <= i; k++) {
      for (let l = 0; l <= j; l++) {
        terms.push({ to: offset + to, from: offset + powerIndex(k, l), factor: choose(i, k) * choose(j, l), xPower: i - k, yPower: j - l });
      }
    }
  }
  return terms;
}
const SHIFT: ShiftTerm[] = [...shiftTerms(POWERS.length, 0), ...[0, 1, 2].flatMap((c) => shiftTerms(TERMS, COLOUR + TERMS * c))];
// The shift terms as typed columns: addShifted runs once or twice per judged join and per group's
// residual, and reading five fields of an object per term was most of its time.
const SHIFT_TO = Int32Array.from(SHIFT, (term) => term.to);
const SHIFT_FROM = Int32Array.from(SHIFT, (term) => term.from);
const SHIFT_FACTOR = Float64Array.from(SHIFT, (term) => term.factor);
const SHIFT_X = Int32Array.from(SHIFT, (term) => term.xPower);
const SHIFT_Y = Int32Array.from(SHIFT, (term) => term.yPower);
/** Per pair of surface terms (row-major), the power sum their product is, and its degree. */
const GRAM = Array.from({ length: TERMS * TERMS }, (_, k) => {
  const [ir, jr] = POWERS[Math.floor(k / TERMS)],
    [ic, jc] = POWERS[k % TERMS];
  return { power: powerIndex(ir + ic, jr + jc), degree: ir + jr + ic + jc };
});
const GRAM_POWER = Int32Array.from(GRAM, (entry) => entry.power);
const GRAM_DEGREE = Int32Array.from(GRAM, (entry) => entry.degree);

const xPowers = new Float64Array(2 * DEGREE + 1),
  yPowers = new Float64Array(2 * DEGREE + 1);

/** Adds the sums at `from` (about a point dx, dy from the target's reference) into those at `to`. */
export function addShifted(sums: Float64Array, to: number, source: Float64Array, from: number, dx: number, dy: number): void {
  xPowers[0] = yPowers[0] = 1;
  for (let k = 1; k <= 2 * DEGREE; k++) {
    xPowers[k] = xPowers[k - 1] * dx;
    yPowers[k] = yPowers[k - 1] * dy;
  }
  for (let k = 0; k < SHIFT_TO.length; k++)
    sums[to + SHIFT_TO[k]] += SHIFT_FACTOR[k] * xPowers[SHIFT_X[k]] * yPowers[SHIFT_Y[k]] * source[from + SHIFT_FROM[k]];
  sums[to + SQUARES] += source[from + SQUARES];
}

/** Relative size under which a pivot is dependent on the terms before it (a one-pixel-wide line has no x²). */
const DEPENDENT = 1e-9;
const centred = new Float64Array(MOMENTS);
const system = new Float64Array(TERMS * (TERMS + 3));
/** scale ** d for the degrees of the Gram entries (0 to 2·DEGREE): the same numbers, taken once a call. */
const scalePowers = new Float64Array(2 * DEGREE + 1);

/**
 * The root-mean-square RGB distance of the set's pixels from its best quadratic surface (per
 * channel), or Infinity for fewer than `minPixels` pixels.
 */
export function surfaceResidual(sums: Float64Array, at: number, minPixels: number): number {
  const n = sums[at];
  if (!(n >= minPixels)) return Infinity;
  // about the set's centroid, positions scaled to unit spread: the system is then well conditioned
  centred.fill(0);
  addShifted(centred, 0, sums, at, -sums[at + 1] / n, -sums[at + 2] / n);
  const spread = (centred[3] + centred[5]) / n;
  const scale = spread > 0 ? 1 / Math.sqrt(spread) : 1;
  for (let d = 0; d <= 2 * DEGREE; d++) scalePowers[d] = scale ** d;
  const width = TERMS + 3;
  for (let r = 0; r < TERMS; r++) {
    for (let c = 0; c < TERMS; c++) system[r * width + c] = centred[GRAM_POWER[r * TERMS + c]] * scalePowers[GRAM_DEGREE[r * TERMS + c]];
    const rowScale = scalePowers[GRAM_DEGREE[r * TERMS]];
    for (let ch = 0; ch < 3; ch++) system[r * width + TERMS + ch] = centred[COLOUR + TERMS * ch + r] * rowScale;
  }
  // Symmetric elimination: each term's pivot removes (its projected right-hand side)² / pivot
  // from the squared residual, so the residual needs no back substitution.
  let explained = 0;
  for (let k = 0; k < TERMS; k++) {
    const pivot = system[k * width + k];
    // against the term's own sum of squares before elimination: what is left of it once the terms before explain theirs
    const diagonal = k * TERMS + k;
    if (!(pivot > DEPENDENT * centred[GRAM_POWER[diagonal]] * scalePowers[GRAM_DEGREE[diagonal]])) continue;
    for (let ch = 0; ch < 3; ch++) explained += system[k * width + TERMS + ch] ** 2 / pivot;
    for (let r = k + 1; r < TERMS; r++) {
      const f = system[r * width + k] / pivot;
      if (f === 0) continue;
      for (let c = k; c < width; c++) system[r * width + c] -= f * system[k * width + c];
    }
  }
  return Math.sqrt(Math.max(0, sums[at + SQUARES] - explained) / n);
}
