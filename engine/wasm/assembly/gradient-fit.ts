/**
 * The gradient fitter's candidates (engine/fit/gradient.ts) in AssemblyScript: the flat fill's
 * residual, then the linear, radial, isophote and elliptical candidates, each binned into a colour
 * profile, reduced to stops, its stops solved in least squares and its residual measured. The
 * arithmetic is the TypeScript's, step for step and in the same order, so the numbers are its
 * numbers. The few transcendental functions (an angle and its cosine and sine per candidate) are
 * JavaScript's own, imported: WebAssembly has none, and a library's could differ in the last bit.
 *
 * The caller (engine/wasm/gradient-fit.ts) writes a region's samples (positions, colours, luma
 * slopes) into this module's memory, or, where it has copied the image's rows in, the sampled
 * pixels' indices for `sampleImage` and `slopesFromImage` to read them there; everything else the
 * fit reads or writes lives in the layout set by `layout`, whose size does not depend on the image.
 */

import { f64At, setF64 } from './lib/memory';

// @ts-ignore: decorator
@external("env", "atan2")
declare function atan2(y: f64, x: f64): f64;
// @ts-ignore: decorator
@external("env", "cos")
declare function cos(x: f64): f64;
// @ts-ignore: decorator
@external("env", "sin")
declare function sin(x: f64): f64;
// @ts-ignore: decorator
@external("env", "pow")
declare function pow(x: f64, y: f64): f64;

/** Bins of a ramp's colour profile: about 43 samples a bin at MAX_SAMPLES (engine/fit/gradient.ts). */
const PROFILE_BINS: i32 = 24;
/** Stops closer than this (RGB distance) to a straight blend between their neighbours are dropped. */
const STOP_TOLERANCE: f64 = 6;
/** End colours closer than this are not a ramp anyone sees. */
const MIN_RAMP: f64 = 10;
/** Luma steps above this many times the median step are edges (anti-aliasing, a neighbour), not the ramp. */
const EDGE_STEP_FACTOR: f64 = 3;
/** Ellipses flatter than this (minor ÷ major axis) are left to the linear candidate. */
const MIN_ELLIPSE_RATIO: f64 = 0.15;
/** Rings this close to round (minor ÷ major) are circles: the circular candidates paint them. */
const ROUND_RATIO: f64 = 0.95;

/** What `choose` leaves in the output block (indices of doubles). */
const OUT_KIND: i32 = 0;
const OUT_RESIDUAL: i32 = 1;
/** Linear: mx, my, lo, hi, dx, dy. Radial: cx, cy, lo, hi, angle, ratio (ellipse only). */
const OUT_PARAMS: i32 = 2;
const OUT_STOP_COUNT: i32 = 8;
const OUT_STOP_POS: i32 = 9;
const OUT_STOP_COL: i32 = 13;
/** Doubles in a candidate's block: the output's, then its span of colours and its profile. */
const OUT_SPAN: i32 = 25;
const OUT_PROFILE_COUNT: i32 = 26;
const OUT_PROFILE: i32 = 27;
const CANDIDATE_DOUBLES: i32 = OUT_PROFILE + 3 * PROFILE_BINS;

const NO_FILL: i32 = 0;
const LINEAR: i32 = 1;
const RADIAL: i32 = 2;
const ELLIPTICAL: i32 = 3;

// the layout (byte offsets), set once by `layout`
let sx: usize = 0,
  sy: usize = 0,
  sr: usize = 0,
  sg: usize = 0,
  sb: usize = 0,
  sgx: usize = 0,
  sgy: usize = 0;
let workT: usize = 0,
  workMagnitude: usize = 0,
  workSelection: usize = 0,
  workAlong: usize = 0,
  workWeight: usize = 0,
  workSegment: usize = 0;
let binSums: usize = 0,
  binCounts: usize = 0,
  profilePos: usize = 0,
  profileCol: usize = 0,
  system: usize = 0,
  right: usize = 0,
  red: usize = 0,
  green: usize = 0,
  blue: usize = 0,
  eliminated: usize = 0,
  stopOffsets: usize = 0,
  stopColours: usize = 0;
/** The image's pixels (`imageChannels` bytes each; only the rows the caller copied are read) and the sampled pixels' indices. */
let imageAt: usize = 0,
  imageWidth: i32 = 0,
  imageHeight: i32 = 0,
  imageChannels: i32 = 0,
  indicesAt: usize = 0;
/**
 * Luma levels by which a pixel's two steps along a row or column may differ (its second difference)
 * before its gradient is left out of the centre's fit (engine/fit/gradient.ts KINK_STEP).
 */
const KINK_STEP: f64 = 6;
/** The candidate being made, and the best so far (which `choose` leaves for the caller). */
let current: usize = 0,
  best: usize = 0;

// the fit in progress
let n: i32 = 0;
let bound: f64 = 0;
let mx: f64 = 0,
  my: f64 = 0,
  extent: f64 = NaN;
let trustedLimit: f64 = 0;
let hasTrusted: bool = false;
let hasBest: bool = false;

/** Bytes the layout takes for `capacity` samples (the caller places it at `base`). */
export function layoutBytes(capacity: i32): i32 {
  const arrays = 12 * 8 * capacity + ((capacity + 7) & ~7);
  const small = 8 * (3 * PROFILE_BINS + PROFILE_BINS + PROFILE_BINS + 3 * PROFILE_BINS + 16 + 4 * 4 + 16 + 4 + 12);
  return arrays + small + 2 * 8 * CANDIDATE_DOUBLES;
}

/**
 * Lays the fit's arrays out from `base` for up to `capacity` samples: the seven sample arrays
 * first (x, y, r, g, b, gx, gy, each `capacity` doubles, which the caller fills), then the work
 * arrays, the small systems and the two candidate blocks. Returns where the best candidate's
 * block starts.
 */
export function layout(base: usize, capacity: i32): usize {
  const bytes = <usize>capacity << 3;
  sx = base;
  sy = sx + bytes;
  sr = sy + bytes;
  sg = sr + bytes;
  sb = sg + bytes;
  sgx = sb + bytes;
  sgy = sgx + bytes;
  workT = sgy + bytes;
  workMagnitude = workT + bytes;
  workSelection = workMagnitude + bytes;
  workAlong = workSelection + bytes;
  workWeight = workAlong + bytes;
  workSegment = workWeight + bytes;
  binSums = workSegment + ((<usize>capacity + 7) & ~7);
  binCounts = binSums + 8 * 3 * PROFILE_BINS;
  profilePos = binCounts + 8 * PROFILE_BINS;
  profileCol = profilePos + 8 * PROFILE_BINS;
  system = profileCol + 8 * 3 * PROFILE_BINS;
  right = system + 8 * 16;
  red = right + 8 * 4;
  green = red + 8 * 4;
  blue = green + 8 * 4;
  eliminated = blue + 8 * 4;
  stopOffsets = eliminated + 8 * 16;
  stopColours = stopOffsets + 8 * 4;
  current = stopColours + 8 * 12;
  best = current + 8 * CANDIDATE_DOUBLES;
  return best;
}

/** Where the image's pixels and the sampled pixels' indices lie. */
export function setImage(at: usize, width: i32, height: i32, channels: i32, indices: usize): void {
  imageAt = at;
  imageWidth = width;
  imageHeight = height;
  imageChannels = channels;
  indicesAt = indices;
}

/** engine/fit/gradient.ts sample from the image here: each sampled pixel's centre and colour. */
export function sampleImage(count: i32): void {
  for (let k = 0; k < count; k++) {
    const p = load<i32>(indicesAt + (<usize>k << 2));
    const row = p / imageWidth;
    setF64(sx, k, <f64>(p - row * imageWidth) + 0.5);
    setF64(sy, k, <f64>row + 0.5);
    const o = imageAt + <usize>(imageChannels * p);
    setF64(sr, k, <f64>load<u8>(o));
    setF64(sg, k, <f64>load<u8>(o, 1));
    setF64(sb, k, <f64>load<u8>(o, 2));
  }
}

@inline
function lumaAt(q: i32): f64 {
  const o = imageAt + <usize>(imageChannels * q);
  return luma601(<f64>load<u8>(o), <f64>load<u8>(o, 1), <f64>load<u8>(o, 2));
}

/**
 * engine/fit/gradient.ts addSlopes from the image here: the luma slopes at the samples (central
 * differences; 0 on the image's border, NaN beside an edge, where the two steps differ by more
 * than KINK_STEP).
 */
export function slopesFromImage(count: i32): void {
  const width = imageWidth;
  for (let k = 0; k < count; k++) {
    const p = load<i32>(indicesAt + (<usize>k << 2));
    const row = p / width,
      column = p - row * width;
    if (!(column > 0 && row > 0 && column + 1 < width && row + 1 < imageHeight)) {
      setF64(sgx, k, 0);
      setF64(sgy, k, 0);
      continue;
    }
    const here = lumaAt(p),
      left = lumaAt(p - 1),
      right = lumaAt(p + 1),
      above = lumaAt(p - width),
      below = lumaAt(p + width);
    const kinked = Math.abs(right - 2 * here + left) > KINK_STEP || Math.abs(below - 2 * here + above) > KINK_STEP;
    setF64(sgx, k, kinked ? NaN : right - left);
    setF64(sgy, k, kinked ? NaN : below - above);
  }
}

/** The mean RGB distance of the samples from their mean colour. */
export function flatResidual(count: i32): f64 {
  let mr: f64 = 0,
    mg: f64 = 0,
    mb: f64 = 0;
  for (let i = 0; i < count; i++) {
    mr += f64At(sr, i);
    mg += f64At(sg, i);
    mb += f64At(sb, i);
  }
  mr /= <f64>count;
  mg /= <f64>count;
  mb /= <f64>count;
  let sum: f64 = 0;
  for (let i = 0; i < count; i++) {
    const dr = f64At(sr, i) - mr,
      dg = f64At(sg, i) - mg,
      db = f64At(sb, i) - mb;
    sum += Math.sqrt(dr * dr + dg * dg + db * db);
  }
  return sum / <f64>count;
}

/**
 * The best of the four candidates for `count` samples (their slopes written) whose residual is
 * below `startBound` (the flat fill's less the improvement a gradient must make, or less), as
 * engine/fit/gradient.ts choosePaint judges them: LINEAR, RADIAL or ELLIPTICAL with its block
 * filled in, or NO_FILL where none beats `flatLimit` or its colours span less than a ramp.
 */
export function choose(count: i32, startBound: f64, flatLimit: f64): i32 {
  n = count;
  bound = startBound;
  hasBest = false;
  sampleCentroid();
  trustedGradients();
  if (linearCandidate()) better();
  if (radialCandidate()) better();
  if (isophoteCandidate()) better();
  if (ellipticalCandidate()) better();
  if (!hasBest || f64At(best, OUT_RESIDUAL) > flatLimit) return NO_FILL;
  if (f64At(best, OUT_SPAN) < MIN_RAMP) return NO_FILL;
  return <i32>f64At(best, OUT_KIND);
}

/** The current candidate replaces the best when it is better (the earlier wins a tie), and lowers the bound. */
function better(): void {
  const residual = f64At(current, OUT_RESIDUAL);
  if (hasBest && !(residual < f64At(best, OUT_RESIDUAL))) return;
  if (residual < bound) bound = residual;
  memory.copy(best, current, <usize>CANDIDATE_DOUBLES << 3);
  hasBest = true;
  // how far the profile's colours reach from its ends (choosePaint's test, on the winner only)
  const profileCount = <i32>f64At(best, OUT_PROFILE_COUNT);
  let span: f64 = 0;
  if (profileCount > 0) {
    const first = best + (<usize>OUT_PROFILE << 3),
      last = first + (<usize>(3 * (profileCount - 1)) << 3);
    for (let k = 0; k < profileCount; k++) {
      const p = first + (<usize>(3 * k) << 3);
      span = Math.max(Math.max(span, colourDistance(p, first)), colourDistance(p, last));
    }
  }
  setF64(best, OUT_SPAN, span);
}

function sampleCentroid(): void {
  let x: f64 = 0,
    y: f64 = 0;
  for (let i = 0; i < n; i++) {
    x += f64At(sx, i);
    y += f64At(sy, i);
  }
  mx = x / <f64>n;
  my = y / <f64>n;
  extent = NaN;
}

function sampleExtent(): f64 {
  if (isNaN(extent)) {
    let reach: f64 = 0;
    for (let i = 0; i < n; i++) reach = Math.max(reach, Math.max(Math.abs(f64At(sx, i) - mx), Math.abs(f64At(sy, i) - my)));
    extent = reach;
  }
  return extent;
}

/** Unit direction of steepest colour change: principal eigenvector of Σ∇cᵀ∇c over the channels. */
function linearCandidate(): bool {
  let sxx: f64 = 0,
    sxy: f64 = 0,
    syy: f64 = 0;
  let sxr: f64 = 0,
    syr: f64 = 0,
    sxg: f64 = 0,
    syg: f64 = 0,
    sxb: f64 = 0,
    syb: f64 = 0;
  for (let i = 0; i < n; i++) {
    const dx = f64At(sx, i) - mx,
      dy = f64At(sy, i) - my;
    const r = f64At(sr, i),
      g = f64At(sg, i),
      b = f64At(sb, i);
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
    sxr += dx * r;
    syr += dy * r;
    sxg += dx * g;
    syg += dy * g;
    sxb += dx * b;
    syb += dy * b;
  }
  const det = sxx * syy - sxy * sxy;
  if (det <= 1e-9) return false;
  let jxx: f64 = 0,
    jxy: f64 = 0,
    jyy: f64 = 0;
  {
    const gx = (syy * sxr - sxy * syr) / det,
      gy = (sxx * syr - sxy * sxr) / det;
    jxx += gx * gx;
    jxy += gx * gy;
    jyy += gy * gy;
  }
  {
    const gx = (syy * sxg - sxy * syg) / det,
      gy = (sxx * syg - sxy * sxg) / det;
    jxx += gx * gx;
    jxy += gx * gy;
    jyy += gy * gy;
  }
  {
    const gx = (syy * sxb - sxy * syb) / det,
      gy = (sxx * syb - sxy * sxb) / det;
    jxx += gx * gx;
    jxy += gx * gy;
    jyy += gy * gy;
  }
  const angle = 0.5 * atan2(2 * jxy, jxx - jyy);
  const dx = cos(angle),
    dy = sin(angle);
  let low: f64 = Infinity,
    high: f64 = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = (f64At(sx, i) - mx) * dx + (f64At(sy, i) - my) * dy;
    setF64(workT, i, t);
    if (t < low) low = t;
    if (t > high) high = t;
  }
  if (high - low < 2) return false;
  profileFit(low, high);
  setF64(current, OUT_KIND, <f64>LINEAR);
  setParams(mx, my, low, high, dx, dy);
  return true;
}

@inline
function setParams(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64): void {
  setF64(current, OUT_PARAMS, a);
  setF64(current, OUT_PARAMS + 1, b);
  setF64(current, OUT_PARAMS + 2, c);
  setF64(current, OUT_PARAMS + 3, d);
  setF64(current, OUT_PARAMS + 4, e);
  setF64(current, OUT_PARAMS + 5, f);
}

@inline
function luma601(r: f64, g: f64, b: f64): f64 {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/**
 * Luma as a + b·(x²+y²) + c·x + d·y (an isotropic paraboloid, centred on the samples' mean for
 * conditioning): the centre is (−c/2b, −d/2b). The ten distinct sums of the normal equations.
 */
function radialCandidate(): bool {
  let s01: f64 = 0,
    s02: f64 = 0,
    s03: f64 = 0,
    s11: f64 = 0,
    s12: f64 = 0,
    s13: f64 = 0,
    s22: f64 = 0,
    s23: f64 = 0,
    s33: f64 = 0;
  let l0: f64 = 0,
    l1: f64 = 0,
    l2: f64 = 0,
    l3: f64 = 0;
  for (let i = 0; i < n; i++) {
    const x = f64At(sx, i) - mx,
      y = f64At(sy, i) - my;
    const q = x * x + y * y;
    const l = luma601(f64At(sr, i), f64At(sg, i), f64At(sb, i));
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
  setF64(system, 0, <f64>n);
  setF64(system, 1, s01);
  setF64(system, 4, s01);
  setF64(system, 2, s02);
  setF64(system, 8, s02);
  setF64(system, 3, s03);
  setF64(system, 12, s03);
  setF64(system, 5, s11);
  setF64(system, 6, s12);
  setF64(system, 9, s12);
  setF64(system, 7, s13);
  setF64(system, 13, s13);
  setF64(system, 10, s22);
  setF64(system, 11, s23);
  setF64(system, 14, s23);
  setF64(system, 15, s33);
  setFour(right, l0, l1, l2, l3);
  if (!solve4(system, right) || Math.abs(f64At(right, 1)) < 1e-9) return false;
  const c1 = f64At(right, 1);
  return radialAround(-f64At(right, 2) / (2 * c1) + mx, -f64At(right, 3) / (2 * c1) + my, false, 0, 0);
}

/** The squared luma step at every sample and the largest a ramp's own may be (hasTrusted false: none steps). */
function trustedGradients(): void {
  let measured = 0;
  for (let i = 0; i < n; i++) {
    const gx = f64At(sgx, i),
      gy = f64At(sgy, i);
    const magnitude = gx * gx + gy * gy;
    setF64(workMagnitude, i, magnitude);
    if (!isNaN(magnitude)) setF64(workSelection, measured++, magnitude);
  }
  hasTrusted = false;
  if (measured === 0) return;
  trustedLimit = EDGE_STEP_FACTOR * EDGE_STEP_FACTOR * kthSmallest(workSelection, measured, measured >> 1);
  hasTrusted = trustedLimit > 0;
}

/**
 * A radial ramp's centre from the direction the colour changes in: every trusted luma gradient
 * points along a line through the centre, so the centre is the point nearest (least squares) to
 * those lines. The paraboloid finds it only where the profile is quadratic; on a cone seen over a
 * thin arc it puts the centre about twice too far out.
 */
function isophoteCandidate(): bool {
  if (!hasTrusted) return false;
  const limit = trustedLimit;
  let axx: f64 = 0,
    axy: f64 = 0,
    ayy: f64 = 0,
    bx: f64 = 0,
    by: f64 = 0;
  for (let i = 0; i < n; i++) {
    const magnitude = f64At(workMagnitude, i);
    if (!(magnitude <= limit && magnitude > 0)) continue;
    const nx = -f64At(sgy, i),
      ny = f64At(sgx, i);
    const x = f64At(sx, i) - mx,
      y = f64At(sy, i) - my;
    const along = nx * x + ny * y;
    axx += nx * nx;
    axy += nx * ny;
    ayy += ny * ny;
    bx += nx * along;
    by += ny * along;
  }
  const det = axx * ayy - axy * axy;
  // parallel lines (a linear ramp) meet nowhere
  if (!(det > 1e-6 * (axx + ayy) * (axx + ayy))) return false;
  return radialAround((ayy * bx - axy * by) / det + mx, (axx * by - axy * bx) / det + my, false, 0, 0);
}

/**
 * Elliptical rings (a soft shadow, a highlight on an oval): colour a function of dᵀ·Q·d, d the
 * offset from the centre. The luma gradient is parallel to Q·d, which is linear in Q's entries and
 * Q·c; with Q's trace fixed at 1, four unknowns by least squares over the trusted gradients, each
 * row scaled to a unit gradient so a steep ring does not outweigh a gentle one.
 */
function ellipticalCandidate(): bool {
  if (!hasTrusted) return false;
  const limit = trustedLimit;
  let a00: f64 = 0,
    a01: f64 = 0,
    a02: f64 = 0,
    a03: f64 = 0,
    a11: f64 = 0,
    a12: f64 = 0,
    a13: f64 = 0,
    a22: f64 = 0,
    a23: f64 = 0,
    a33: f64 = 0;
  let b0: f64 = 0,
    b1: f64 = 0,
    b2: f64 = 0,
    b3: f64 = 0;
  for (let i = 0; i < n; i++) {
    const magnitude = f64At(workMagnitude, i);
    if (!(magnitude <= limit && magnitude > 0)) continue;
    const norm = Math.sqrt(magnitude);
    const gx = f64At(sgx, i) / norm,
      gy = f64At(sgy, i) / norm;
    const x = f64At(sx, i) - mx,
      y = f64At(sy, i) - my;
    const row0 = -gy * x - gx * y,
      row1 = gx * x - gy * y,
      row2 = gy,
      row3 = -gx,
      rhs = -gx * y;
    a00 += row0 * row0;
    a01 += row0 * row1;
    a02 += row0 * row2;
    a03 += row0 * row3;
    a11 += row1 * row1;
    a12 += row1 * row2;
    a13 += row1 * row3;
    a22 += row2 * row2;
    a23 += row2 * row3;
    a33 += row3 * row3;
    b0 += row0 * rhs;
    b1 += row1 * rhs;
    b2 += row2 * rhs;
    b3 += row3 * rhs;
  }
  setF64(system, 0, a00);
  setF64(system, 1, a01);
  setF64(system, 2, a02);
  setF64(system, 3, a03);
  setF64(system, 5, a11);
  setF64(system, 6, a12);
  setF64(system, 7, a13);
  setF64(system, 10, a22);
  setF64(system, 11, a23);
  setF64(system, 15, a33);
  setF64(system, 4, a01);
  setF64(system, 8, a02);
  setF64(system, 9, a12);
  setF64(system, 12, a03);
  setF64(system, 13, a13);
  setF64(system, 14, a23);
  setFour(right, b0, b1, b2, b3);
  if (!solve4(system, right)) return false;
  const a = f64At(right, 0),
    b = f64At(right, 1),
    k1 = f64At(right, 2),
    k2 = f64At(right, 3);
  const c = 1 - a;
  const det = a * c - b * b;
  if (!(det > 0) || !(a > 0)) return false;
  const cx = (c * k1 - b * k2) / det + mx,
    cy = (a * k2 - b * k1) / det + my;
  const half = Math.sqrt(pow((a - c) / 2, 2) + b * b);
  const low = (a + c) / 2 - half,
    high = (a + c) / 2 + half;
  const ratio = Math.sqrt(low / high);
  if (!(ratio >= MIN_ELLIPSE_RATIO) || ratio > ROUND_RATIO) return false;
  // the long axis: eigenvector of the smaller eigenvalue
  const angle = Math.abs(b) > 1e-12 ? atan2(low - a, b) : a <= c ? 0 : Math.PI / 2;
  return radialAround(cx, cy, true, angle, ratio);
}

/** The radial candidate around (cx, cy), circular or (`ellipse`) with its long axis at `angle`, short ÷ long `ratio`. */
function radialAround(cx: f64, cy: f64, ellipse: bool, angle: f64, ratio: f64): bool {
  if (!isFinite(cx) || !isFinite(cy)) return false;
  let low: f64 = Infinity,
    high: f64 = 0;
  if (!ellipse) {
    for (let i = 0; i < n; i++) {
      const dx = f64At(sx, i) - cx,
        dy = f64At(sy, i) - cy;
      const r = Math.sqrt(dx * dx + dy * dy);
      setF64(workT, i, r);
      if (r > high) high = r;
      if (r < low) low = r;
    }
  } else {
    const cosine = cos(angle),
      sine = sin(angle);
    for (let i = 0; i < n; i++) {
      const dx = f64At(sx, i) - cx,
        dy = f64At(sy, i) - cy;
      const along = dx * cosine + dy * sine,
        across = (dy * cosine - dx * sine) / ratio;
      const r = Math.sqrt(along * along + across * across);
      setF64(workT, i, r);
      if (r > high) high = r;
      if (r < low) low = r;
    }
  }
  // a centre far outside the region is a linear ramp in disguise, and a huge radius costs precision
  if (high < 2 || high - low < 2 || high > 4 * sampleExtent() + 4) return false;
  profileFit(low, high);
  setF64(current, OUT_KIND, <f64>(ellipse ? ELLIPTICAL : RADIAL));
  setParams(cx, cy, low, high, angle, ratio);
  return true;
}

/**
 * The current candidate's stops, profile and residual for the ramp parameter in workT over [lo, hi]:
 * the mean colour in bins along the ramp, reduced to 2–4 stops by Douglas–Peucker in colour space,
 * the stop colours then solved in least squares; the residual is the mean RGB distance of every
 * sample from the ramp the stops draw, its pass stopping once past the bound.
 */
function profileFit(lo: f64, hi: f64): void {
  binRamp(lo, hi);
  let bins = 0;
  for (let k = 0; k < PROFILE_BINS; k++) {
    const count = f64At(binCounts, k);
    if (count === 0) continue;
    setF64(profilePos, bins, (<f64>k + 0.5) / <f64>PROFILE_BINS);
    setF64(profileCol, 3 * bins, f64At(binSums, 3 * k) / count);
    setF64(profileCol, 3 * bins + 1, f64At(binSums, 3 * k + 1) / count);
    setF64(profileCol, 3 * bins + 2, f64At(binSums, 3 * k + 2) / count);
    bins++;
  }
  setF64(current, OUT_PROFILE_COUNT, <f64>bins);
  memory.copy(current + (<usize>OUT_PROFILE << 3), profileCol, <usize>(3 * bins) << 3);
  if (bins < 2) {
    setF64(current, OUT_STOP_COUNT, 0);
    setF64(current, OUT_RESIDUAL, Infinity);
    return;
  }
  // the kept bins (simplifyProfile), ascending
  let keep0 = 0,
    keep1 = bins - 1,
    keep2 = -1,
    keep3 = -1;
  let kept = 2;
  for (let round = 0; round < 2; round++) {
    let worst = -1;
    let worstErr = STOP_TOLERANCE;
    for (let seg = 0; seg + 1 < kept; seg++) {
      const a = seg === 0 ? keep0 : seg === 1 ? keep1 : keep2,
        b = seg === 0 ? keep1 : seg === 1 ? keep2 : keep3;
      for (let k = a + 1; k < b; k++) {
        const f = (f64At(profilePos, k) - f64At(profilePos, a)) / (f64At(profilePos, b) - f64At(profilePos, a));
        const ar = f64At(profileCol, 3 * a),
          ag = f64At(profileCol, 3 * a + 1),
          ab = f64At(profileCol, 3 * a + 2);
        const err = hypot3(
          f64At(profileCol, 3 * k) - (ar + f * (f64At(profileCol, 3 * b) - ar)),
          f64At(profileCol, 3 * k + 1) - (ag + f * (f64At(profileCol, 3 * b + 1) - ag)),
          f64At(profileCol, 3 * k + 2) - (ab + f * (f64At(profileCol, 3 * b + 2) - ab)),
        );
        if (err > worstErr) {
          worstErr = err;
          worst = k;
        }
      }
    }
    if (worst < 0) break;
    // inserted in order: the list stays sorted as keep.sort() left it
    if (kept === 2) {
      keep2 = keep1;
      keep1 = worst;
    } else if (worst < keep1) {
      keep3 = keep2;
      keep2 = keep1;
      keep1 = worst;
    } else if (worst < keep2) {
      keep3 = keep2;
      keep2 = worst;
    } else {
      keep3 = worst;
    }
    kept++;
  }
  // stops at the kept bins; bin means sit half a bin inside the ramp, so the end colours are
  // carried out to offsets 0 and 1 along it
  const sp = stopOffsets,
    sc = stopColours;
  for (let j = 0; j < kept; j++) {
    const k = j === 0 ? keep0 : j === 1 ? keep1 : j === 2 ? keep2 : keep3;
    setF64(sp, j, f64At(profilePos, k));
    setF64(sc, 3 * j, f64At(profileCol, 3 * k));
    setF64(sc, 3 * j + 1, f64At(profileCol, 3 * k + 1));
    setF64(sc, 3 * j + 2, f64At(profileCol, 3 * k + 2));
  }
  const last = kept - 1;
  extrapolate(0, 1, -f64At(sp, 0) / (f64At(sp, 1) - f64At(sp, 0)));
  extrapolate(last, last - 1, -(1 - f64At(sp, last)) / (f64At(sp, last) - f64At(sp, last - 1)));
  setF64(sp, 0, 0);
  setF64(sp, last, 1);
  leastSquaresStops(kept);
  setF64(current, OUT_STOP_COUNT, <f64>kept);
  for (let j = 0; j < kept; j++) {
    setF64(current, OUT_STOP_POS + j, f64At(sp, j));
    setF64(current, OUT_STOP_COL + 3 * j, f64At(sc, 3 * j));
    setF64(current, OUT_STOP_COL + 3 * j + 1, f64At(sc, 3 * j + 1));
    setF64(current, OUT_STOP_COL + 3 * j + 2, f64At(sc, 3 * j + 2));
  }
  // the residual of every sample from the ramp, each where the least squares placed it
  let residual: f64 = 0;
  for (let i = 0; i < n; i++) {
    const a = 3 * (<i32>load<u8>(workSegment + <usize>i) - 1),
      z = a + 3,
      w = f64At(workWeight, i);
    const dr = f64At(sr, i) - (f64At(sc, a) + w * (f64At(sc, z) - f64At(sc, a))),
      dg = f64At(sg, i) - (f64At(sc, a + 1) + w * (f64At(sc, z + 1) - f64At(sc, a + 1))),
      db = f64At(sb, i) - (f64At(sc, a + 2) + w * (f64At(sc, z + 2) - f64At(sc, a + 2)));
    residual += Math.sqrt(dr * dr + dg * dg + db * db);
    // the sum only grows: once its mean passes the bound, the final mean does too
    if ((i & 255) === 255 && residual / <f64>n > bound) break;
  }
  setF64(current, OUT_RESIDUAL, residual / <f64>n);
}

/** Stop `into`'s colour moved to a + (b − a)·f on the line through stops `into` and `other`, within 0–255. */
function extrapolate(into: i32, other: i32, f: f64): void {
  const sc = stopColours;
  for (let c = 0; c < 3; c++) {
    const a = f64At(sc, 3 * into + c),
      b = f64At(sc, 3 * other + c);
    setF64(sc, 3 * into + c, Math.max(0, Math.min(255, a + (b - a) * f)));
  }
}

/**
 * The samples' colour sums and counts per bin of workT over [lo, hi], each sample's place along the
 * ramp written to workAlong; neighbours in one bin summed in locals first (whole numbers: exact).
 */
function binRamp(lo: f64, hi: f64): void {
  const span = hi - lo;
  memory.fill(binSums, 0, 8 * 3 * PROFILE_BINS);
  memory.fill(binCounts, 0, 8 * PROFILE_BINS);
  let bin = -1;
  let r: f64 = 0,
    g: f64 = 0,
    b: f64 = 0,
    inBin: f64 = 0;
  for (let i = 0; i < n; i++) {
    const f = (f64At(workT, i) - lo) / span;
    setF64(workAlong, i, f);
    const k = <i32>Math.min(<f64>(PROFILE_BINS - 1), Math.floor(f * <f64>PROFILE_BINS));
    if (k !== bin) {
      if (bin >= 0) flushBin(bin, r, g, b, inBin);
      bin = k;
      r = g = b = inBin = 0;
    }
    r += f64At(sr, i);
    g += f64At(sg, i);
    b += f64At(sb, i);
    inBin++;
  }
  if (bin >= 0) flushBin(bin, r, g, b, inBin);
}

@inline
function flushBin(bin: i32, r: f64, g: f64, b: f64, count: f64): void {
  setF64(binSums, 3 * bin, f64At(binSums, 3 * bin) + r);
  setF64(binSums, 3 * bin + 1, f64At(binSums, 3 * bin + 1) + g);
  setF64(binSums, 3 * bin + 2, f64At(binSums, 3 * bin + 2) + b);
  setF64(binCounts, bin, f64At(binCounts, bin) + count);
}

/**
 * The `k` stop colours (in place) that paint the samples best for their offsets: the ramp is linear
 * in its stop colours, each sample a blend of the two stops around it, so they solve a small
 * tridiagonal system. A stop no sample weighs keeps its binned colour (then all do). Each
 * sample's segment and blend weight stay in workSegment and workWeight for the residual pass.
 */
function leastSquaresStops(k: i32): void {
  const sp = stopOffsets,
    sc = stopColours;
  let a00: f64 = 0,
    a01: f64 = 0,
    a11: f64 = 0,
    a12: f64 = 0,
    a22: f64 = 0,
    a23: f64 = 0,
    a33: f64 = 0;
  let r0: f64 = 0,
    g0: f64 = 0,
    b0: f64 = 0,
    r1: f64 = 0,
    g1: f64 = 0,
    b1: f64 = 0,
    r2: f64 = 0,
    g2: f64 = 0,
    b2: f64 = 0,
    r3: f64 = 0,
    g3: f64 = 0,
    b3: f64 = 0;
  for (let i = 0; i < n; i++) {
    const f = Math.min(1, Math.max(0, f64At(workAlong, i)));
    let j = 1;
    while (j < k - 1 && f > f64At(sp, j)) j++;
    let gap = f64At(sp, j) - f64At(sp, j - 1);
    if (gap === 0 || isNaN(gap)) gap = 1;
    const w = (f - f64At(sp, j - 1)) / gap,
      v = 1 - w;
    store<u8>(workSegment + <usize>i, <u8>j);
    setF64(workWeight, i, w);
    const rc = f64At(sr, i),
      gc = f64At(sg, i),
      bc = f64At(sb, i);
    if (j === 1) {
      a00 += v * v;
      a01 += v * w;
      a11 += w * w;
      r0 += v * rc;
      g0 += v * gc;
      b0 += v * bc;
      r1 += w * rc;
      g1 += w * gc;
      b1 += w * bc;
    } else if (j === 2) {
      a11 += v * v;
      a12 += v * w;
      a22 += w * w;
      r1 += v * rc;
      g1 += v * gc;
      b1 += v * bc;
      r2 += w * rc;
      g2 += w * gc;
      b2 += w * bc;
    } else {
      a22 += v * v;
      a23 += v * w;
      a33 += w * w;
      r2 += v * rc;
      g2 += v * gc;
      b2 += v * bc;
      r3 += w * rc;
      g3 += w * gc;
      b3 += w * bc;
    }
  }
  // padded to 4×4 with identity rows for the stops there are not
  memory.fill(system, 0, 8 * 16);
  setF64(system, 0, a00);
  setF64(system, 1, a01);
  setF64(system, 4, a01);
  setF64(system, 5, a11);
  setF64(system, 6, a12);
  setF64(system, 9, a12);
  setF64(system, 10, k > 2 ? a22 : 1);
  setF64(system, 11, a23);
  setF64(system, 14, a23);
  setF64(system, 15, k > 3 ? a33 : 1);
  for (let j = 0; j < k; j++) if (!(f64At(system, 5 * j) > 1e-6)) return;
  setFour(red, r0, r1, r2, r3);
  setFour(green, g0, g1, g2, g3);
  setFour(blue, b0, b1, b2, b3);
  // every channel solved before any stop colour is written: one that fails leaves them all as they were
  if (!solve4(system, red) || !solve4(system, green) || !solve4(system, blue)) return;
  for (let j = 0; j < k; j++) {
    setF64(sc, 3 * j, Math.max(0, Math.min(255, f64At(red, j))));
    setF64(sc, 3 * j + 1, Math.max(0, Math.min(255, f64At(green, j))));
    setF64(sc, 3 * j + 2, Math.max(0, Math.min(255, f64At(blue, j))));
  }
}

@inline
function setFour(into: usize, a: f64, b: f64, c: f64, d: f64): void {
  setF64(into, 0, a);
  setF64(into, 1, b);
  setF64(into, 2, c);
  setF64(into, 3, d);
}

/** Solves a·x = b (4×4, rows) for x in place of b by Gauss–Jordan with partial pivoting; `a` is left as it was. */
function solve4(a: usize, v: usize): bool {
  const m = eliminated;
  memory.copy(m, a, 8 * 16);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(f64At(m, 4 * r + c)) > Math.abs(f64At(m, 4 * p + c))) p = r;
    if (Math.abs(f64At(m, 4 * p + c)) < 1e-12) return false;
    if (p !== c) {
      for (let k = 0; k < 4; k++) {
        const tmp = f64At(m, 4 * c + k);
        setF64(m, 4 * c + k, f64At(m, 4 * p + k));
        setF64(m, 4 * p + k, tmp);
      }
      const tmp = f64At(v, c);
      setF64(v, c, f64At(v, p));
      setF64(v, p, tmp);
    }
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = f64At(m, 4 * r + c) / f64At(m, 4 * c + c);
      for (let k = c; k < 4; k++) setF64(m, 4 * r + k, f64At(m, 4 * r + k) - f * f64At(m, 4 * c + k));
      setF64(v, r, f64At(v, r) - f * f64At(v, c));
    }
  }
  for (let c = 0; c < 4; c++) setF64(v, c, f64At(v, c) / f64At(m, 4 * c + c));
  return true;
}

/** engine/select.ts kthSmallest over the first `count` doubles at `values` (reordered in place). */
function kthSmallest(values: usize, count: i32, k: i32): f64 {
  let lo = 0,
    hi = count - 1;
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    const a = f64At(values, lo),
      b = f64At(values, mid),
      c = f64At(values, hi);
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo,
      j = hi;
    while (i <= j) {
      while (f64At(values, i) < pivot) i++;
      while (f64At(values, j) > pivot) j--;
      if (i <= j) {
        const swap = f64At(values, i);
        setF64(values, i, f64At(values, j));
        setF64(values, j, swap);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return f64At(values, k);
  }
  return f64At(values, k);
}

/** engine/hypot.ts hypot3, the same steps (V8's Math.hypot's). */
function hypot3(x: f64, y: f64, z: f64): f64 {
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) return ax === Infinity ? ax : ay === Infinity ? ay : az;
  if (isNaN(ax) || isNaN(ay) || isNaN(az)) return ax + ay + az;
  let max = ax < ay ? ay : ax;
  if (max < az) max = az;
  if (max === 0) return max;
  const nx = ax / max,
    ny = ay / max,
    nz = az / max;
  const sum = nx * nx + ny * ny;
  const compensation = sum - nx * nx - ny * ny;
  return Math.sqrt(sum + (nz * nz - compensation)) * max;
}

/** The RGB distance between the colours (three doubles) at `a` and `b`. */
function colourDistance(a: usize, b: usize): f64 {
  return hypot3(load<f64>(a) - load<f64>(b), load<f64>(a, 8) - load<f64>(b, 8), load<f64>(a, 16) - load<f64>(b, 16));
}
