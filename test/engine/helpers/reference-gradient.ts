/**
 * The gradient fitter's candidates as they were written in TypeScript (engine/fit/gradient.ts before
 * its candidates moved into WebAssembly, engine/wasm/assembly/gradient-fit.ts): the reference the
 * kernel is held to, number for number (test/engine/wasm/gradient-fit.test.ts).
 */
import type { RasterImage } from '../../../engine/types.js';
import { hypot3 } from '../../../engine/hypot.js';
import { scratchFloat64, scratchSlots, scratchUint8 } from '../../../engine/scratch.js';
import { luma601 } from '../../../engine/luma.js';
import { kthSmallest } from '../../../engine/select.js';
import { gradientSampleStep, type GradientFill } from '../../../engine/fit/gradient.js';

type GradientStop = { offset: number; color: string; opacity?: number };

export const PROFILE_BINS = 24;
const MIN_IMPROVEMENT = 0.35;
const STOP_TOLERANCE = 6;
const MIN_RAMP = 10;

interface Samples {
  x: Float64Array;
  y: Float64Array;
  r: Float64Array;
  g: Float64Array;
  b: Float64Array;
  gx: Float64Array;
  gy: Float64Array;
  n: number;
  bound: number;
}

/**
 * A candidate whose residual passes the flat fill's less MIN_IMPROVEMENT, or passes `bound` (at
 * most `maxResidual`), stops early and reports a number above it. The fill is exact all the same:
 * a candidate past the first would lose to the flat fill, one that passes neither is not stopped
 * and beats every stopped one. The residual is exact wherever it is at most `bound`.
 */
export function referenceChoosePaint(
  image: RasterImage,
  pixelIndices: Int32Array,
  maxResidual: number,
  bound = Infinity,
): { fill: GradientFill | null; residual: number } {
  const s = sample(image, pixelIndices, bound);
  if (s.n < 16) return { fill: null, residual: Infinity };
  const flat = flatResidual(s);
  if (flat <= maxResidual) return { fill: null, residual: flat };
  s.bound = Math.min(bound, flat * (1 - MIN_IMPROVEMENT));
  addSlopes(s, image);
  // every candidate is centred on the samples' mean position, taken once
  const centre = sampleCentroid(s);
  // the isophote and elliptical candidates trust the same gradients: selected once
  const trusted = trustedGradients(s);
  // In this order, the first of equal residuals winning; each made after the one before is judged
  // (better() tightens the bound its residual pass stops at).
  let best = better(s, null, linearCandidate(s, centre));
  best = better(s, best, radialCandidate(s, centre));
  best = better(s, best, isophoteCandidate(s, centre, trusted));
  best = better(s, best, ellipticalCandidate(s, centre, trusted));
  if (best === null || best.residual > flat * (1 - MIN_IMPROVEMENT)) return { fill: null, residual: flat };
  const first = best.profile[0],
    last = best.profile[best.profile.length - 1];
  let span = 0;
  for (const p of best.profile) span = Math.max(span, colourDistance(p, first), colourDistance(p, last));
  if (span < MIN_RAMP) return { fill: null, residual: flat };
  return { fill: best.fill(), residual: best.residual };
}

/**
 * The better of the best candidate so far and the next (the earlier on a tie). A later candidate
 * wins only below the best's residual, so the samples' bound drops to it: the residual pass of one
 * that could only tie or lose stops early.
 */
function better(s: Samples, best: Candidate | null, next: Candidate | null): Candidate | null {
  if (next === null || (best !== null && !(next.residual < best.residual))) return best;
  if (next.residual < s.bound) s.bound = next.residual;
  return next;
}

// ----------------------------------------------------------------------------------------------

/**
 * The samples' numbers live in seven scratch slots (../scratch.ts): a region's samples are read only
 * inside its fitGradient call, and new arrays per region cost more than the fit on a drawing
 * of many small ramps (paint stage 1.5x on the corpus's calculator).
 */
const SAMPLE = scratchSlots('gradient samples', Float64Array, ['x', 'y', 'r', 'g', 'b', 'gx', 'gy']);
/** Per-sample work arrays of one candidate (each candidate is done with them before the next starts). */
const WORK = scratchSlots('gradient work', Float64Array, ['t', 'magnitude', 'selection', 'along', 'weight']);
/** Per sample of one profile fit: the ramp segment (stops j − 1 and j) it lies on. */
const SEGMENT = scratchSlots('gradient work', Uint8Array, ['segment']);
/** A profile fit's per-bin colour sums and sample counts (one fit at a time on a thread; zeroed by each). */
const BIN_SUMS = new Float64Array(PROFILE_BINS * 3);
const BIN_COUNTS = new Float64Array(PROFILE_BINS);
/**
 * The small systems the candidates solve (4×4 normal equations, right-hand sides, solutions), kept
 * per thread: a fit made a dozen tiny typed arrays per candidate, and their allocation was a tenth
 * of a profile fit. Each is read only before the next candidate or profile fit writes it.
 */
const SYSTEM = new Float64Array(16);
const RIGHT = new Float64Array(4);
const RED = new Float64Array(4);
const GREEN = new Float64Array(4);
const BLUE = new Float64Array(4);
/** solve4's copy of the matrix it eliminates in. */
const ELIMINATED = new Float64Array(16);
/** A profile fit's stop offsets and colours (at most four stops), in and out of leastSquaresStops. */
const STOP_OFFSETS = new Float64Array(4);
const STOP_COLOURS = new Float64Array(12);

function sample(image: RasterImage, pixelIndices: Int32Array, bound: number): Samples {
  const step = gradientSampleStep(pixelIndices.length);
  const n = Math.ceil(pixelIndices.length / step);
  const s: Samples = {
    x: scratchFloat64(SAMPLE.x, n),
    y: scratchFloat64(SAMPLE.y, n),
    r: scratchFloat64(SAMPLE.r, n),
    g: scratchFloat64(SAMPLE.g, n),
    b: scratchFloat64(SAMPLE.b, n),
    gx: scratchFloat64(SAMPLE.gx, n),
    gy: scratchFloat64(SAMPLE.gy, n),
    n,
    bound,
  };
  const { width, data } = image;
  const channels = image.channels ?? 4;
  for (let k = 0, i = 0; i < pixelIndices.length; i += step, k++) {
    const p = pixelIndices[i];
    // whole numbers below 2³¹: the row by truncation, the column by what is left (p % width, exactly)
    const row = (p / width) | 0;
    s.x[k] = p - row * width + 0.5;
    s.y[k] = row + 0.5;
    s.r[k] = data[channels * p];
    s.g[k] = data[channels * p + 1];
    s.b[k] = data[channels * p + 2];
  }
  return s;
}

/**
 * The luma slopes at the samples (sample() leaves them out: a region the flat test settles, over a
 * quarter of the joins' fits on clip art, never reads them, and they cost five lumas a sample).
 */
function addSlopes(s: Samples, image: RasterImage): void {
  const { width, height, data } = image;
  const channels = image.channels ?? 4;
  // Samples of a region under MAX_SAMPLES pixels are all its pixels in scan order: a sample right
  // after its left neighbour takes that one's own and right lumas as its left and own.
  let previous = -2,
    previousHere = 0,
    previousRight = 0;
  for (let k = 0; k < s.n; k++) {
    const px = s.x[k] - 0.5,
      py = s.y[k] - 0.5;
    const inside = px > 0 && py > 0 && px + 1 < width && py + 1 < height;
    if (!inside) {
      s.gx[k] = s.gy[k] = 0;
      continue;
    }
    const p = py * width + px;
    const follows = p === previous + 1;
    const here = follows ? previousRight : lumaAt(data, channels, p),
      left = follows ? previousHere : lumaAt(data, channels, p - 1),
      right = lumaAt(data, channels, p + 1),
      above = lumaAt(data, channels, p - width),
      below = lumaAt(data, channels, p + width);
    previous = p;
    previousHere = here;
    previousRight = right;
    // A ramp steps about evenly on both sides of a pixel; where it does not, one neighbour is across
    // an edge (an anti-aliased outline a pixel away) and the central difference points at the edge.
    const kinked = Math.abs(right - 2 * here + left) > KINK_STEP || Math.abs(below - 2 * here + above) > KINK_STEP;
    s.gx[k] = kinked ? NaN : right - left;
    s.gy[k] = kinked ? NaN : below - above;
  }
}

/**
 * Pixel q's luma. A function of its own, not a closure made per addSlopes call: a closure's calls
 * were not always inlined, and then each luma it returned was a heap number (2 MB of a storm trace
 * in some processes, none in others).
 */
function lumaAt(data: Uint8Array, channels: number, q: number): number {
  return luma601(data[channels * q], data[channels * q + 1], data[channels * q + 2]);
}

function flatResidual(s: Samples): number {
  let mr = 0,
    mg = 0,
    mb = 0;
  for (let i = 0; i < s.n; i++) {
    mr += s.r[i];
    mg += s.g[i];
    mb += s.b[i];
  }
  mr /= s.n;
  mg /= s.n;
  mb /= s.n;
  let sum = 0;
  for (let i = 0; i < s.n; i++) {
    const dr = s.r[i] - mr,
      dg = s.g[i] - mg,
      db = s.b[i] - mb;
    sum += Math.sqrt(dr * dr + dg * dg + db * db); // not Math.hypot: several times slower in V8
  }
  return sum / s.n;
}

type Rgb = [number, number, number];

interface Candidate {
  /** Made for the winner only: the joins read just the residual. */
  fill(): GradientFill;
  residual: number;
  profile: Rgb[];
}

interface Centre {
  mx: number;
  my: number;
  /** How far the samples reach from the mean along x or y (NaN until a radial candidate asks). */
  extent: number;
}

/** The mean sample position: fits are centred on it for conditioning. */
function sampleCentroid(s: Samples): Centre {
  let mx = 0,
    my = 0;
  for (let i = 0; i < s.n; i++) {
    mx += s.x[i];
    my += s.y[i];
  }
  return { mx: mx / s.n, my: my / s.n, extent: NaN };
}

function sampleExtent(s: Samples, centre: Centre): number {
  if (Number.isNaN(centre.extent)) {
    const { mx, my } = centre;
    let extent = 0;
    for (let i = 0; i < s.n; i++) extent = Math.max(extent, Math.abs(s.x[i] - mx), Math.abs(s.y[i] - my));
    centre.extent = extent;
  }
  return centre.extent;
}

/** Unit direction of steepest colour change: principal eigenvector of Σ∇cᵀ∇c over the channels. */
function linearCandidate(s: Samples, { mx, my }: Centre): Candidate | null {
  // the position moments and the three channels' moment sums in one pass over the samples
  let sxx = 0,
    sxy = 0,
    syy = 0;
  let sxr = 0,
    syr = 0,
    sxg = 0,
    syg = 0,
    sxb = 0,
    syb = 0;
  for (let i = 0; i < s.n; i++) {
    const dx = s.x[i] - mx,
      dy = s.y[i] - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
    sxr += dx * s.r[i];
    syr += dy * s.r[i];
    sxg += dx * s.g[i];
    syg += dy * s.g[i];
    sxb += dx * s.b[i];
    syb += dy * s.b[i];
  }
  const det = sxx * syy - sxy * sxy;
  if (det <= 1e-9) return null;
  let jxx = 0,
    jxy = 0,
    jyy = 0;
  for (const [sxc, syc] of [
    [sxr, syr],
    [sxg, syg],
    [sxb, syb],
  ]) {
    const gx = (syy * sxc - sxy * syc) / det,
      gy = (sxx * syc - sxy * sxc) / det;
    jxx += gx * gx;
    jxy += gx * gy;
    jyy += gy * gy;
  }
  const angle = 0.5 * Math.atan2(2 * jxy, jxx - jyy);
  const dx = Math.cos(angle),
    dy = Math.sin(angle);
  const t = scratchFloat64(WORK.t, s.n);
  // the range in locals the closure below does not capture (see radialAround)
  let low = Infinity,
    high = -Infinity;
  for (let i = 0; i < s.n; i++) {
    t[i] = (s.x[i] - mx) * dx + (s.y[i] - my) * dy;
    if (t[i] < low) low = t[i];
    if (t[i] > high) high = t[i];
  }
  const lo = low,
    hi = high;
  if (hi - lo < 2) return null;
  const fit = profileFit(s, t, lo, hi);
  const fill = (): GradientFill => ({
    type: 'linear',
    x1: round2(mx + lo * dx),
    y1: round2(my + lo * dy),
    x2: round2(mx + hi * dx),
    y2: round2(my + hi * dy),
    stops: rampStops(fit),
  });
  return { fill, residual: fit.residual, profile: fit.profile };
}

function radialCandidate(s: Samples, centre: Centre): Candidate | null {
  const { mx, my } = centre;
  // luma = a + b·(x²+y²) + c·x + d·y, centred for conditioning; centre = (−c/2b, −d/2b)
  // Normal equations of the rows (1, r², x, y): the ten distinct sums in registers (the matrix is
  // symmetric and 1·v is v exactly, so these are the same numbers a full 4×4 loop adds up).
  let s01 = 0,
    s02 = 0,
    s03 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0,
    s22 = 0,
    s23 = 0,
    s33 = 0;
  let l0 = 0,
    l1 = 0,
    l2 = 0,
    l3 = 0;
  for (let i = 0; i < s.n; i++) {
    const x = s.x[i] - mx,
      y = s.y[i] - my;
    const q = x * x + y * y;
    const l = luma601(s.r[i], s.g[i], s.b[i]);
    l0 += l;
    l1 += q * l;
    l2 += x * l;
    l3 += y * l;
    s01 += q;
    s02 += x;
    s03 += y;
    s11 += q * q;
    s12 += q * x;
    s13 += q * y;
    s22 += x * x;
    s23 += x * y;
    s33 += y * y;
  }
  const ata = SYSTEM,
    coef = RIGHT;
  ata[0] = s.n;
  ata[1] = ata[4] = s01;
  ata[2] = ata[8] = s02;
  ata[3] = ata[12] = s03;
  ata[5] = s11;
  ata[6] = ata[9] = s12;
  ata[7] = ata[13] = s13;
  ata[10] = s22;
  ata[11] = ata[14] = s23;
  ata[15] = s33;
  setFour(coef, l0, l1, l2, l3);
  if (!solve4(ata, coef) || Math.abs(coef[1]) < 1e-9) return null;
  return radialAround(s, -coef[2] / (2 * coef[1]) + mx, -coef[3] / (2 * coef[1]) + my, centre);
}

/**
 * Luma levels by which a pixel's two steps along a row or column may differ (its second difference)
 * before its gradient is left out of the centre's fit: 8-bit rounding of a steep ramp leaves about
 * 2, a pixel 5 % covered by an anti-aliased outline beside it 9 and more.
 */
const KINK_STEP = 6;
/** Luma steps above this many times the median step are edges (anti-aliasing, a neighbour), not the ramp. */
const EDGE_STEP_FACTOR = 3;

interface TrustedGradients {
  magnitude: Float64Array;
  limit: number;
}
/**
 * The squared luma step at every sample, and the largest a ramp's own step may be: a sample is
 * trusted where its step is above 0 and at most `limit` (NaN, beside an edge, fails both tests).
 * Null when no sample steps.
 */
function trustedGradients(s: Samples): TrustedGradients | null {
  const magnitude = scratchFloat64(WORK.magnitude, s.n);
  // the median step of the samples with a gradient, selected from a copy (the callers read the
  // magnitudes in sample order)
  const selection = scratchFloat64(WORK.selection, s.n);
  let measured = 0;
  for (let i = 0; i < s.n; i++) {
    magnitude[i] = s.gx[i] * s.gx[i] + s.gy[i] * s.gy[i];
    if (!Number.isNaN(magnitude[i])) selection[measured++] = magnitude[i];
  }
  if (measured === 0) return null;
  const limit = EDGE_STEP_FACTOR * EDGE_STEP_FACTOR * kthSmallest(selection.subarray(0, measured), measured >> 1);
  return limit > 0 ? { magnitude, limit } : null;
}

/**
 * A radial ramp's centre from the direction the colour changes in: every pixel's luma gradient
 * points along the line through the centre, so the centre is the point nearest (least squares) to
 * all those lines. The paraboloid above finds it only where the profile is quadratic; on a cone
 * (colour linear in the distance) seen over a thin arc it puts the centre about twice too far out,
 * and the rings come out too flat.
 */
function isophoteCandidate(s: Samples, centre: Centre, trusted: TrustedGradients | null): Candidate | null {
  if (trusted === null) return null;
  const { mx, my } = centre;
  const { magnitude, limit } = trusted;
  // Σ n·nᵀ c = Σ n·(n·p) over the normals n = (−gy, gx), weighted by the step squared (its length)
  let axx = 0,
    axy = 0,
    ayy = 0,
    bx = 0,
    by = 0;
  for (let i = 0; i < s.n; i++) {
    if (!(magnitude[i] <= limit && magnitude[i] > 0)) continue;
    const nx = -s.gy[i],
      ny = s.gx[i];
    const x = s.x[i] - mx,
      y = s.y[i] - my;
    const along = nx * x + ny * y;
    axx += nx * nx;
    axy += nx * ny;
    ayy += ny * ny;
    bx += nx * along;
    by += ny * along;
  }
  const det = axx * ayy - axy * axy;
  // parallel lines (a linear ramp) meet nowhere
  if (!(det > 1e-6 * (axx + ayy) * (axx + ayy))) return null;
  return radialAround(s, (ayy * bx - axy * by) / det + mx, (axx * by - axy * bx) / det + my, centre);
}

/** Ellipses flatter than this (minor ÷ major axis) are left to the linear candidate. */
const MIN_ELLIPSE_RATIO = 0.15;
/** Rings this close to round (minor ÷ major) are circles: the circular candidates paint them. */
const ROUND_RATIO = 0.95;

/**
 * Elliptical rings (a soft shadow under an object, a highlight on an oval): colour a function of
 * dᵀ·Q·d, d the offset from the centre c. The luma gradient there is parallel to Q·d, so for
 * every sample gx·(Q·x − k)_y − gy·(Q·x − k)_x = 0 with k = Q·c: linear in Q's three entries and
 * k's two; with Q's trace fixed at 1 (its scale is free) four unknowns, by least squares over the
 * same gradients the isophote candidate trusts.
 */
function ellipticalCandidate(s: Samples, centre: Centre, trusted: TrustedGradients | null): Candidate | null {
  if (trusted === null) return null;
  const { mx, my } = centre;
  const { magnitude, limit } = trusted;
  // Q = [[a, b], [b, 1 − a]]: row (−gy·x − gx·y, gx·x − gy·y, gy, −gx) · (a, b, k1, k2) = −gx·y,
  // each row scaled to unit gradient so a steep ring does not outweigh a gentle one
  const ata = SYSTEM.fill(0),
    atb = RIGHT.fill(0);
  for (let i = 0; i < s.n; i++) {
    if (!(magnitude[i] <= limit && magnitude[i] > 0)) continue;
    const norm = Math.sqrt(magnitude[i]);
    const gx = s.gx[i] / norm,
      gy = s.gy[i] / norm;
    const x = s.x[i] - mx,
      y = s.y[i] - my;
    const row0 = -gy * x - gx * y,
      row1 = gx * x - gy * y,
      row2 = gy,
      row3 = -gx,
      rhs = -gx * y;
    ata[0] += row0 * row0;
    ata[1] += row0 * row1;
    ata[2] += row0 * row2;
    ata[3] += row0 * row3;
    ata[5] += row1 * row1;
    ata[6] += row1 * row2;
    ata[7] += row1 * row3;
    ata[10] += row2 * row2;
    ata[11] += row2 * row3;
    ata[15] += row3 * row3;
    atb[0] += row0 * rhs;
    atb[1] += row1 * rhs;
    atb[2] += row2 * rhs;
    atb[3] += row3 * rhs;
  }
  ata[4] = ata[1];
  ata[8] = ata[2];
  ata[9] = ata[6];
  ata[12] = ata[3];
  ata[13] = ata[7];
  ata[14] = ata[11];
  if (!solve4(ata, atb)) return null;
  const a = atb[0],
    b = atb[1],
    k1 = atb[2],
    k2 = atb[3];
  const c = 1 - a;
  const det = a * c - b * b;
  if (!(det > 0) || !(a > 0)) return null;
  // the centre c = Q⁻¹·k, and Q's axes: eigenvalues λ1 ≤ λ2 (the long axis lies along λ1's vector)
  const cx = (c * k1 - b * k2) / det + mx,
    cy = (a * k2 - b * k1) / det + my;
  const half = Math.sqrt(((a - c) / 2) ** 2 + b * b);
  const low = (a + c) / 2 - half,
    high = (a + c) / 2 + half;
  const ratio = Math.sqrt(low / high);
  if (!(ratio >= MIN_ELLIPSE_RATIO) || ratio > ROUND_RATIO) return null;
  // the long axis: eigenvector of λ1, (b, λ1 − a), or (λ1 − c, b)
  const angle = Math.abs(b) > 1e-12 ? Math.atan2(low - a, b) : a <= c ? 0 : Math.PI / 2;
  return radialAround(s, cx, cy, centre, { angle, ratio });
}

/**
 * The radial gradient around (cx, cy) through the samples, or null for a centre no ramp would use.
 * With `ellipse`, the rings' long axis lies at `angle` (radians) and short ÷ long is `ratio`.
 */
function radialAround(
  s: Samples,
  cx: number,
  cy: number,
  centre: Centre,
  ellipse: { angle: number; ratio: number } | null = null,
): Candidate | null {
  if (!Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  const t = scratchFloat64(WORK.t, s.n);
  // The loops track the range in locals of their own: `fill` below captures the range, and a
  // captured variable lives in the closure's context, where every new value of a double is a new
  // heap number (2 MB a storm trace, and the loop slowed by the allocation).
  let low = Infinity,
    high = 0;
  if (ellipse === null) {
    for (let i = 0; i < s.n; i++) {
      const dx = s.x[i] - cx,
        dy = s.y[i] - cy;
      const r = Math.sqrt(dx * dx + dy * dy);
      t[i] = r;
      if (r > high) high = r;
      if (r < low) low = r;
    }
  } else {
    const cos = Math.cos(ellipse.angle),
      sin = Math.sin(ellipse.angle),
      ratio = ellipse.ratio;
    for (let i = 0; i < s.n; i++) {
      const dx = s.x[i] - cx,
        dy = s.y[i] - cy;
      const along = dx * cos + dy * sin,
        across = (dy * cos - dx * sin) / ratio;
      const r = Math.sqrt(along * along + across * across);
      t[i] = r;
      if (r > high) high = r;
      if (r < low) low = r;
    }
  }
  const lo = low,
    hi = high;
  // a centre far outside the region is a linear ramp in disguise, and a huge radius costs precision
  if (hi < 2 || hi - lo < 2 || hi > 4 * sampleExtent(s, centre) + 4) return null;
  // The profile spans the radii the region covers (a ring around a highlight starts well out from
  // its centre): carried in to the centre, its end colour would clip at 0 or 255 and bend the ramp.
  const fit = profileFit(s, t, lo, hi);
  const fill = (): GradientFill => {
    const stops = rampStops(fit).map((stop) => ({
      offset: Math.round(((lo + stop.offset * (hi - lo)) / hi) * 1000) / 1000,
      color: stop.color,
    }));
    const radial: GradientFill = { type: 'radial', cx: round2(cx), cy: round2(cy), r: round2(hi), stops };
    if (ellipse) {
      // the axes are the same turned half a turn: the angle kept within (−90°, 90°]
      let degrees = (ellipse.angle * 180) / Math.PI;
      while (degrees > 90) degrees -= 180;
      while (degrees <= -90) degrees += 180;
      radial.ellipse = { ratio: Math.round(ellipse.ratio * 1000) / 1000, angle: Math.round(degrees * 10) / 10 };
    }
    return radial;
  };
  return { fill, residual: fit.residual, profile: fit.profile };
}

/**
 * Mean colour in bins of the ramp parameter t ∈ [lo, hi], reduced to 2–4 stops; the residual is
 * the mean RGB distance of every sample from the piecewise-linear ramp those stops draw.
 */
interface ProfileFit {
  /** Stop offsets along the ramp (0 to 1) and their colours. */
  stopPos: number[];
  stopCol: Rgb[];
  residual: number;
  profile: Rgb[];
}

/** A profile fit's stops as the SVG writes them (offsets to a thousandth, colours in hex). */
function rampStops(fit: ProfileFit): GradientStop[] {
  return fit.stopPos.map((offset, k) => ({ offset: Math.round(offset * 1000) / 1000, color: hex(fit.stopCol[k]) }));
}

function profileFit(s: Samples, t: Float64Array, lo: number, hi: number): ProfileFit {
  const bins = PROFILE_BINS;
  // each sample's place along the ramp (0 to 1), read by all three passes below
  const along = scratchFloat64(WORK.along, s.n);
  const { sum, count } = binRamp(s, t, lo, hi, along);
  const pos: number[] = [],
    col: Rgb[] = [];
  for (let k = 0; k < bins; k++) {
    if (count[k] === 0) continue;
    pos.push((k + 0.5) / bins);
    col.push([sum[3 * k] / count[k], sum[3 * k + 1] / count[k], sum[3 * k + 2] / count[k]]);
  }
  if (col.length < 2) return { stopPos: [], stopCol: [], residual: Infinity, profile: col };
  const keep = simplifyProfile(pos, col);
  const stopPos = keep.map((k) => pos[k]),
    stopCol = keep.map((k): Rgb => [...col[k]]);
  // bin means sit half a bin inside the ramp: carry the end colours out to t = 0 and 1 along the ramp
  const last = stopPos.length - 1;
  stopCol[0] = extrapolate(stopCol[0], stopCol[1], -stopPos[0] / (stopPos[1] - stopPos[0]));
  stopCol[last] = extrapolate(stopCol[last], stopCol[last - 1], -(1 - stopPos[last]) / (stopPos[last] - stopPos[last - 1]));
  stopPos[0] = 0;
  stopPos[last] = 1;
  // The ramp the stops draw, read inline so MAX_SAMPLES samples allocate nothing, from typed copies: the
  // stop arrays mix whole and fractional numbers, whose changing element kinds kept V8 deoptimising.
  let residual = 0;
  const stopCount = stopPos.length;
  const sp = STOP_OFFSETS,
    sc = STOP_COLOURS;
  for (let k = 0; k < stopCount; k++) {
    sp[k] = stopPos[k];
    sc[3 * k] = stopCol[k][0];
    sc[3 * k + 1] = stopCol[k][1];
    sc[3 * k + 2] = stopCol[k][2];
  }
  leastSquaresStops(s, along, sp, sc, stopCount);
  for (let k = 0; k < stopCount; k++) stopCol[k] = [sc[3 * k], sc[3 * k + 1], sc[3 * k + 2]];
  const { r, g, b } = s;
  // each sample on the ramp where the least squares placed it: its segment and blend weight
  const segment = scratchUint8(SEGMENT.segment, s.n),
    weight = scratchFloat64(WORK.weight, s.n);
  for (let i = 0; i < s.n; i++) {
    const a = 3 * (segment[i] - 1),
      z = a + 3,
      w = weight[i];
    const dr = r[i] - (sc[a] + w * (sc[z] - sc[a])),
      dg = g[i] - (sc[a + 1] + w * (sc[z + 1] - sc[a + 1])),
      db = b[i] - (sc[a + 2] + w * (sc[z + 2] - sc[a + 2]));
    residual += Math.sqrt(dr * dr + dg * dg + db * db);
    // the sum only grows: once its mean passes the bound, the final mean does too
    if ((i & 255) === 255 && residual / s.n > s.bound) break;
  }
  return { stopPos, stopCol, residual: residual / s.n, profile: col };
}

/**
 * The samples' colour sums and counts in PROFILE_BINS bins of the ramp parameter t ∈ [lo, hi], each
 * sample's place along the ramp (0 to 1) written to `along`. The sums live in BIN_SUMS and
 * BIN_COUNTS until the next call on this thread. Neighbouring samples mostly fall in the same bin:
 * their sums are kept in locals and added to the bin when the bin changes, instead of each sample
 * reading back what the one before wrote. Colours are whole numbers, so the sums are exact and the
 * same in any grouping.
 */
export function binRamp(
  s: Pick<Samples, 'n' | 'r' | 'g' | 'b'>,
  t: Float64Array,
  lo: number,
  hi: number,
  along: Float64Array,
): { sum: Float64Array; count: Float64Array } {
  const span = hi - lo;
  const bins = PROFILE_BINS;
  const sum = BIN_SUMS.fill(0),
    count = BIN_COUNTS.fill(0);
  const { r, g, b } = s;
  let bin = -1,
    red = 0,
    green = 0,
    blue = 0,
    inBin = 0;
  for (let i = 0; i < s.n; i++) {
    const f = (t[i] - lo) / span;
    along[i] = f;
    const k = Math.min(bins - 1, Math.floor(f * bins));
    if (k !== bin) {
      if (bin >= 0) {
        sum[3 * bin] += red;
        sum[3 * bin + 1] += green;
        sum[3 * bin + 2] += blue;
        count[bin] += inBin;
      }
      bin = k;
      red = green = blue = inBin = 0;
    }
    red += r[i];
    green += g[i];
    blue += b[i];
    inBin++;
  }
  if (bin >= 0) {
    sum[3 * bin] += red;
    sum[3 * bin + 1] += green;
    sum[3 * bin + 2] += blue;
    count[bin] += inBin;
  }
  return { sum, count };
}

/**
 * The stop colours (sc, in place) that paint the samples best for the stop offsets sp, in least
 * squares: the ramp is linear in its stop colours (each sample a blend of the two stops around
 * it), so they solve a small banded system. The binned means the offsets were chosen from sit
 * inside their bins, and a ramp drawn through them runs off the samples towards its ends (a cone's
 * apex, a ramp that levels off); the bin means stay where a stop has no samples to weigh it.
 * There are 2–4 stops (simplifyProfile keeps the ends and at most two more). Every sample's
 * segment and blend weight are left in the SEGMENT and WORK.weight slots for the residual pass.
 */
function leastSquaresStops(s: Samples, along: Float64Array, sp: Float64Array, sc: Float64Array, k: number): void {
  const segment = scratchUint8(SEGMENT.segment, s.n),
    weight = scratchFloat64(WORK.weight, s.n);
  // The normal equations (tridiagonal: a sample weighs only the two stops around it) summed in
  // locals, not in a matrix indexed per sample: each sum still takes the same terms in sample
  // order, so the same bits. aJJ: diagonal, aJK: beside it; rJ, gJ, bJ: stop J's right-hand sides.
  let a00 = 0,
    a01 = 0,
    a11 = 0,
    a12 = 0,
    a22 = 0,
    a23 = 0,
    a33 = 0;
  let r0 = 0,
    g0 = 0,
    b0 = 0,
    r1 = 0,
    g1 = 0,
    b1 = 0,
    r2 = 0,
    g2 = 0,
    b2 = 0,
    r3 = 0,
    g3 = 0,
    b3 = 0;
  const { r, g, b } = s;
  for (let i = 0; i < s.n; i++) {
    const f = Math.min(1, Math.max(0, along[i]));
    let j = 1;
    while (j < k - 1 && f > sp[j]) j++;
    const w = (f - sp[j - 1]) / (sp[j] - sp[j - 1] || 1),
      v = 1 - w;
    segment[i] = j;
    weight[i] = w;
    const red = r[i],
      green = g[i],
      blue = b[i];
    if (j === 1) {
      a00 += v * v;
      a01 += v * w;
      a11 += w * w;
      r0 += v * red;
      g0 += v * green;
      b0 += v * blue;
      r1 += w * red;
      g1 += w * green;
      b1 += w * blue;
    } else if (j === 2) {
      a11 += v * v;
      a12 += v * w;
      a22 += w * w;
      r1 += v * red;
      g1 += v * green;
      b1 += v * blue;
      r2 += w * red;
      g2 += w * green;
      b2 += w * blue;
    } else {
      a22 += v * v;
      a23 += v * w;
      a33 += w * w;
      r2 += v * red;
      g2 += v * green;
      b2 += v * blue;
      r3 += w * red;
      g3 += w * green;
      b3 += w * blue;
    }
  }
  // Padded to 4×4 with identity rows (solve4's size). The padding is chosen here, not written by a
  // loop over the unused stops afterwards: when V8 optimised this function on ramps of four stops,
  // that loop had never run, and every later ramp with fewer stops bailed out of the optimised code
  // there (storm traced again and again: five times a trace, the code never replaced), finishing
  // the fit in the interpreter.
  const ata = SYSTEM;
  ata[0] = a00;
  ata[1] = ata[4] = a01;
  ata[2] = ata[3] = ata[7] = ata[8] = ata[12] = ata[13] = 0;
  ata[5] = a11;
  ata[6] = ata[9] = a12;
  ata[10] = k > 2 ? a22 : 1;
  ata[11] = ata[14] = a23;
  ata[15] = k > 3 ? a33 : 1;
  for (let j = 0; j < k; j++) if (!(ata[5 * j] > 1e-6)) return;
  const reds = setFour(RED, r0, r1, r2, r3),
    greens = setFour(GREEN, g0, g1, g2, g3),
    blues = setFour(BLUE, b0, b1, b2, b3);
  // every channel solved before any stop colour is written: one that fails leaves them all as they were
  if (!solve4(ata, reds) || !solve4(ata, greens) || !solve4(ata, blues)) return;
  for (let j = 0; j < k; j++) {
    sc[3 * j] = Math.max(0, Math.min(255, reds[j]));
    sc[3 * j + 1] = Math.max(0, Math.min(255, greens[j]));
    sc[3 * j + 2] = Math.max(0, Math.min(255, blues[j]));
  }
}

/** Douglas–Peucker over the binned profile in (t, RGB): the ends plus at most two interior stops. */
function simplifyProfile(pos: number[], col: Rgb[]): number[] {
  const keep = [0, col.length - 1];
  for (let round = 0; round < 2; round++) {
    let worst = -1,
      worstErr = STOP_TOLERANCE;
    for (let seg = 0; seg + 1 < keep.length; seg++) {
      const a = keep[seg],
        b = keep[seg + 1];
      for (let k = a + 1; k < b; k++) {
        const f = (pos[k] - pos[a]) / (pos[b] - pos[a]);
        const err = hypot3(
          col[k][0] - (col[a][0] + f * (col[b][0] - col[a][0])),
          col[k][1] - (col[a][1] + f * (col[b][1] - col[a][1])),
          col[k][2] - (col[a][2] + f * (col[b][2] - col[a][2])),
        );
        if (err > worstErr) {
          worstErr = err;
          worst = k;
        }
      }
    }
    if (worst < 0) break;
    keep.push(worst);
    keep.sort((p, q) => p - q);
  }
  return keep;
}

/** Writes four numbers into a scratch vector (no array made for them) and returns it. */
function setFour(into: Float64Array, a: number, b: number, c: number, d: number): Float64Array {
  into[0] = a;
  into[1] = b;
  into[2] = c;
  into[3] = d;
  return into;
}

/**
 * Solves a·x = b (a 4×4, row by row) for x in place of b, by Gauss–Jordan elimination with partial
 * pivoting; false when a pivot is about 0 (then b holds nothing useful). `a` is left as it was.
 */
function solve4(a: Float64Array, b: Float64Array): boolean {
  const m = ELIMINATED,
    v = b;
  m.set(a);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(m[4 * r + c]) > Math.abs(m[4 * p + c])) p = r;
    if (Math.abs(m[4 * p + c]) < 1e-12) return false;
    if (p !== c) {
      for (let k = 0; k < 4; k++) {
        const tmp = m[4 * c + k];
        m[4 * c + k] = m[4 * p + k];
        m[4 * p + k] = tmp;
      }
      const tmp = v[c];
      v[c] = v[p];
      v[p] = tmp;
    }
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = m[4 * r + c] / m[4 * c + c];
      for (let k = c; k < 4; k++) m[4 * r + k] -= f * m[4 * c + k];
      v[r] -= f * v[c];
    }
  }
  for (let c = 0; c < 4; c++) v[c] /= m[4 * c + c];
  return true;
}

/** The colour at a + (b − a)·f on the line through a and b; f < 0 lies beyond a. */
function extrapolate(a: Rgb, b: Rgb, f: number): Rgb {
  const c = (i: number) => Math.max(0, Math.min(255, a[i] + (b[i] - a[i]) * f));
  return [c(0), c(1), c(2)];
}

function colourDistance(a: Rgb, b: Rgb): number {
  return hypot3(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function hex(c: Rgb): string {
  // `| 0` hands toString a small integer (never -0 or a double): V8 then keeps profileFit, which
  // inlines this, optimised instead of dropping it for "lost precision" on every other region.
  const h = (v: number) => (Math.max(0, Math.min(255, Math.round(v))) | 0).toString(16).padStart(2, '0');
  return `#${h(c[0])}${h(c[1])}${h(c[2])}`;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
