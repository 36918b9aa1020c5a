/**
 * How well one smooth colour field paints a set of pixels, from sums that add when two sets join.
 *
 * Each channel is fitted, in least squares, by a cubic surface in the pixel position (ten terms
 * xⁱyʲ, i + j ≤ 3): a linear ramp, a radial or elliptical highlight, a ramp that levels off. The
 * fit and its residual need only the power sums Σ xⁱyʲ (i + j ≤ 6), the channels' sums Σ v·xⁱyʲ
 * (i + j ≤ 3) and Σ v², and the sums of two pixel sets add once they are taken about the same
 * point. Judging whether two regions paint as one is then a 10×10 elimination, whatever their
 * size, instead of a pass over their pixels.
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
// addRun's sums are written out for this degree
if (DEGREE !== 3) throw new Error('colour-moments: addRun is written for a cubic');
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

/**
 * Adds a run of `count` pixels of one row to the sums at `at`: the first at (x, y) about the set's
 * reference point, its colours from `data` (`channels` per pixel) from pixel `first` on. The run's
 * sums along x are taken first and spread over the powers of y once, so a pixel costs a few
 * dozen operations however many power sums there are.
 */
export function addRun(
  sums: Float64Array,
  at: number,
  x: number,
  y: number,
  count: number,
  data: Uint8Array,
  channels: number,
  first: number,
): void {
  // Written out for DEGREE 3, the sums in locals: the same products added in the same order as a
  // loop over the powers would (so the same bits), without a load and store per power and pixel.
  // Every number here is a double from the start (the sums from -0, the positions by way of a
  // half): as small integers, V8 compiled integer arithmetic that overflowed on the fourth and
  // higher powers and fell back to the interpreter, in one process 247 times in three rounds of the
  // corpus with the same optimised code. -0 + v is v, and x + ½ − ½ is x, so the sums are the same.
  let x0 = -0,
    x1 = -0,
    x2 = -0,
    x3 = -0,
    x4 = -0,
    x5 = -0,
    x6 = -0;
  let r0 = -0,
    r1 = -0,
    r2 = -0,
    r3 = -0,
    g0 = -0,
    g1 = -0,
    g2 = -0,
    g3 = -0,
    b0 = -0,
    b1 = -0,
    b2 = -0,
    b3 = -0;
  let squares = -0;
  for (let t = 0, o = channels * first; t < count; t++, o += channels) {
    const r = data[o],
      g = data[o + 1],
      b = data[o + 2];
    squares += r * r + g * g + b * b;
    const at = x + t + 0.5 - 0.5;
    const w2 = at * at,
      w3 = w2 * at,
      w4 = w3 * at,
      w5 = w4 * at;
    x0 += 1;
    x1 += at;
    x2 += w2;
    x3 += w3;
    x4 += w4;
    x5 += w5;
    x6 += w5 * at;
    r0 += r;
    r1 += r * at;
    r2 += r * w2;
    r3 += r * w3;
    g0 += g;
    g1 += g * at;
    g2 += g * w2;
    g3 += g * w3;
    b0 += b;
    b1 += b * at;
    b2 += b * w2;
    b3 += b * w3;
  }
  // The run's sums spread over the powers of y (Σ xⁱyʲ = yʲ·Σ xⁱ along a row), written out for
  // DEGREE 3: each sum gets the same one product as a loop over POWERS would add (the same bits),
  // without the index tables and the scratch array a short run (a noisy image has many) paid for.
  const y1 = y + 0.5 - 0.5,
    y2 = y1 * y,
    y3 = y2 * y,
    y4 = y3 * y,
    y5 = y4 * y,
    y6 = y5 * y;
  spreadTerms(sums, at, x0, x1, x2, x3, y1, y2, y3);
  sums[at + 10] += x4;
  sums[at + 11] += x3 * y1;
  sums[at + 12] += x2 * y2;
  sums[at + 13] += x1 * y3;
  sums[at + 14] += x0 * y4;
  sums[at + 15] += x5;
  sums[at + 16] += x4 * y1;
  sums[at + 17] += x3 * y2;
  sums[at + 18] += x2 * y3;
  sums[at + 19] += x1 * y4;
  sums[at + 20] += x0 * y5;
  sums[at + 21] += x6;
  sums[at + 22] += x5 * y1;
  sums[at + 23] += x4 * y2;
  sums[at + 24] += x3 * y3;
  sums[at + 25] += x2 * y4;
  sums[at + 26] += x1 * y5;
  sums[at + 27] += x0 * y6;
  spreadTerms(sums, at + COLOUR, r0, r1, r2, r3, y1, y2, y3);
  spreadTerms(sums, at + COLOUR + TERMS, g0, g1, g2, g3, y1, y2, y3);
  spreadTerms(sums, at + COLOUR + 2 * TERMS, b0, b1, b2, b3, y1, y2, y3);
  sums[at + SQUARES] += squares;
}

/**
 * Sums Σ v·xⁱ along a run (v0..v3: of 1, or of a channel) spread over the surface's terms xⁱyʲ
 * (i + j ≤ 3), in POWERS' order from `at`.
 */
function spreadTerms(
  sums: Float64Array,
  at: number,
  v0: number,
  v1: number,
  v2: number,
  v3: number,
  y1: number,
  y2: number,
  y3: number,
): void {
  sums[at] += v0;
  sums[at + 1] += v1;
  sums[at + 2] += v0 * y1;
  sums[at + 3] += v2;
  sums[at + 4] += v1 * y1;
  sums[at + 5] += v0 * y2;
  sums[at + 6] += v3;
  sums[at + 7] += v2 * y1;
  sums[at + 8] += v1 * y2;
  sums[at + 9] += v0 * y3;
}

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
