/**
 * Gradient fills: a region whose colour ramps is written as one linear or radial gradient instead
 * of being banded into many flat shapes (photos: PSNR up, bytes down).
 *
 * Linear: least squares of each channel as an affine function of (x, y); the ramp runs along the
 * dominant direction of the three channel gradients. Radial: luma as a + b·r² + c·x + d·y (an
 * isotropic paraboloid) gives the centre; colour is then a function of the distance from it. In
 * both cases the colour profile along the ramp is averaged in bins and reduced to 2–4 stops by
 * Douglas–Peucker in colour space, so a gently curved ramp still costs few bytes. The candidate with
 * the lowest per-pixel residual wins, and only when it clearly beats a flat fill.
 */
import type { RasterImage } from '../types.js';
import { hypot3 } from '../hypot.js';
import { luma601 } from '../luma.js';
import {
  BEST_PARAMS,
  BEST_RESIDUAL,
  BEST_STOP_COLOURS,
  BEST_STOP_COUNT,
  BEST_STOP_OFFSETS,
  ELLIPTICAL,
  gradientFitKernel,
  holdsRows,
  isHeld,
  LINEAR,
  NO_FILL,
  type GradientFitKernel,
} from '../wasm/gradient-fit.js';

type Rgb = [number, number, number];

/** `opacity` (0–1) only where a stop fades to transparent (fadeToBeneath); absent: opaque. */
type GradientStop = { offset: number; color: string; opacity?: number };

export type GradientFill =
  | { type: 'linear'; x1: number; y1: number; x2: number; y2: number; stops: GradientStop[] }
  | {
      type: 'radial';
      cx: number;
      cy: number;
      /** The radius along x (before `ellipse` turns it). */
      r: number;
      stops: GradientStop[];
      /** Elliptical rings: the radius along y is r·ratio, the axes turned by `angle` degrees. */
      ellipse?: { ratio: number; angle: number };
    };

/**
 * Samples used per region: enough for a stable fit, bounded so huge regions stay cheap. 1 024 is
 * about 43 a profile bin; against 2 048 (and 8 192 before it), clean.cjs and measure.mjs moved by at
 * most 0.15 dB on any public clip-art image, either way (photos unchanged), while the fits took 0.6
 * of the time (docs/performance.md).
 */
const MAX_SAMPLES = 1_024;
/** A gradient must remove at least this share of the flat fill's residual to be worth its bytes. */
const MIN_IMPROVEMENT = 0.35;
/** Stops closer than this (RGB distance) to a straight blend between their neighbours are dropped. */
const STOP_TOLERANCE = 6;
/** End colours closer than this are not a ramp anyone sees. */
const MIN_RAMP = 10;

/**
 * Every how many of a region's pixels (in scan order) one is sampled: all of them up to
 * MAX_SAMPLES, evenly thinned above that. A region of `pixelCount` pixels gets
 * ceil(pixelCount / step) samples, the first pixel always among them.
 */
export function gradientSampleStep(pixelCount: number): number {
  return Math.max(1, Math.ceil(pixelCount / MAX_SAMPLES));
}

/**
 * The gradient for the pixels listed (indices into the image, in scan order; thinned by
 * gradientSampleStep, so a caller that already thinned them passes at most MAX_SAMPLES and every
 * one is used), or null for a flat fill.
 */
export function fitGradient(image: RasterImage, pixelIndices: Int32Array, settings: { maxResidual: number }): GradientFill | null {
  return choosePaint(image, pixelIndices, settings.maxResidual).fill;
}

/** A fade must end at most this opaque at the shape's edge: what shows there is mostly what lies beneath. */
const MAX_EDGE_OPACITY = 0.35;

/**
 * A radial ramp towards the colour of the shape beneath it (a soft shadow on a flat ground, a
 * highlight on a flat body) drawn as the artist draws it: one colour fading to transparent, the
 * stops that colour at falling opacity, the last one fully transparent (the rings carried out to
 * where the fade reaches 0). Over that flat colour it paints what the opaque stops paint. Null
 * when the stops do not lie on the line from `beneath` to one colour, or end far from `beneath`.
 */
export function fadeToBeneath(fill: GradientFill, beneath: string): GradientFill | null {
  if (fill.type !== 'radial' || fill.stops.length < 2) return null;
  const ground = rgbOf(beneath);
  const colours = fill.stops.map((stop) => rgbOf(stop.color));
  let strongest = colours[0];
  for (const c of colours) if (colourDistance(c, ground) > colourDistance(strongest, ground)) strongest = c;
  const axis: Rgb = [strongest[0] - ground[0], strongest[1] - ground[1], strongest[2] - ground[2]];
  const length2 = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
  if (length2 < MIN_RAMP * MIN_RAMP) return null;
  const opacity: number[] = [];
  for (const c of colours) {
    const a = ((c[0] - ground[0]) * axis[0] + (c[1] - ground[1]) * axis[1] + (c[2] - ground[2]) * axis[2]) / length2;
    const off = colourDistance(c, [ground[0] + a * axis[0], ground[1] + a * axis[1], ground[2] + a * axis[2]]);
    if (off > STOP_TOLERANCE || a < -0.05) return null;
    opacity.push(Math.min(1, Math.max(0, a)));
  }
  const last = opacity.length - 1;
  if (opacity[last] > MAX_EDGE_OPACITY || !(opacity[last - 1] > opacity[last])) return null;
  // where the last two stops' fade reaches 0, past the shape's edge (offset 1)
  const o1 = fill.stops[last - 1].offset,
    a1 = opacity[last - 1],
    a2 = opacity[last];
  const reach = 1 + (a2 * (1 - o1)) / (a1 - a2);
  const colour = hex(strongest);
  const stops: GradientStop[] = fill.stops.map((stop, k) => ({
    offset: Math.round((stop.offset / reach) * 1000) / 1000,
    color: colour,
    opacity: Math.round(opacity[k] * 1000) / 1000,
  }));
  if (reach > 1) stops.push({ offset: 1, color: colour, opacity: 0 });
  return { ...fill, r: round2(fill.r * reach), stops };
}

function rgbOf(colour: string): Rgb {
  const h = colour.length === 4 ? colour.replace(/[0-9a-f]/gi, (d) => d + d) : colour;
  return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
}

/**
 * The mean per-pixel RGB residual of the paint fitGradient chooses for these pixels (its gradient,
 * else their flat mean): how well one shape can paint them. Infinity for fewer than 16 samples.
 * A caller that only needs to know whether it is at most `bound` (at most `maxResidual`) gets some
 * number above `bound` where it is not: a candidate's residual pass stops once it is past it.
 */
export function paintResidual(image: RasterImage, pixelIndices: Int32Array, settings: { maxResidual: number }, bound = Infinity): number {
  return choosePaint(image, pixelIndices, settings.maxResidual, bound).residual;
}

/**
 * A candidate whose residual passes the flat fill's less MIN_IMPROVEMENT, or passes `bound` (at
 * most `maxResidual`), stops early and reports a number above it. The fill is exact all the same:
 * a candidate past the first would lose to the flat fill, one that passes neither is not stopped
 * and beats every stopped one. The residual is exact wherever it is at most `bound`.
 * The candidates (linear, radial, isophote, elliptical, in that order, the first of equal
 * residuals winning) are made and judged in WebAssembly (engine/wasm/assembly/gradient-fit.ts),
 * which also takes the samples and their slopes where the caller holds the image there
 * (withImageInKernel); otherwise this thread gathers them. This thread writes the winner's fill.
 */
function choosePaint(
  image: RasterImage,
  pixelIndices: Int32Array,
  maxResidual: number,
  bound = Infinity,
): { fill: GradientFill | null; residual: number } {
  const step = gradientSampleStep(pixelIndices.length);
  const n = Math.ceil(pixelIndices.length / step);
  if (n < 16) return { fill: null, residual: Infinity };
  // the rows copied in first: the kernel's memory may grow, and its views with it
  const inKernel = isHeld(image) && holdSampledRows(image, pixelIndices, step);
  const kernel = gradientFitKernel(MAX_SAMPLES);
  if (inKernel) {
    const { indices } = kernel;
    for (let k = 0, i = 0; i < pixelIndices.length; i += step, k++) indices[k] = pixelIndices[i];
    kernel.sampleImage(n);
  } else sample(kernel, image, pixelIndices, step);
  const flat = kernel.flatResidual(n);
  if (flat <= maxResidual) return { fill: null, residual: flat };
  if (inKernel) kernel.slopesFromImage(n);
  else addSlopes(kernel, n, image);
  const flatLimit = flat * (1 - MIN_IMPROVEMENT);
  const kind = kernel.choose(n, Math.min(bound, flatLimit), flatLimit);
  if (kind === NO_FILL) return { fill: null, residual: flat };
  return { fill: fillOf(kind, kernel.best), residual: kernel.best[BEST_RESIDUAL] };
}

/** The rows from the first sampled pixel's to the last's (and those beside them) into the kernel holding the image. */
function holdSampledRows(image: RasterImage, pixelIndices: Int32Array, step: number): boolean {
  let lowest = pixelIndices[0],
    highest = lowest;
  for (let i = step; i < pixelIndices.length; i += step) {
    const p = pixelIndices[i];
    if (p < lowest) lowest = p;
    if (p > highest) highest = p;
  }
  return holdsRows(image, Math.floor(lowest / image.width), Math.floor(highest / image.width), MAX_SAMPLES);
}

// ----------------------------------------------------------------------------------------------

/** The region's samples into the kernel's arrays: every step-th pixel, its centre and colour. */
function sample(kernel: GradientFitKernel, image: RasterImage, pixelIndices: Int32Array, step: number): void {
  const { x, y, r, g, b } = kernel;
  const { width, data } = image;
  const channels = image.channels ?? 4;
  for (let k = 0, i = 0; i < pixelIndices.length; i += step, k++) {
    const p = pixelIndices[i];
    // whole numbers below 2³¹: the row by truncation, the column by what is left (p % width, exactly)
    const row = (p / width) | 0;
    x[k] = p - row * width + 0.5;
    y[k] = row + 0.5;
    r[k] = data[channels * p];
    g[k] = data[channels * p + 1];
    b[k] = data[channels * p + 2];
  }
}

/**
 * Luma levels by which a pixel's two steps along a row or column may differ (its second difference)
 * before its gradient is left out of the centre's fit: 8-bit rounding of a steep ramp leaves about
 * 2, a pixel 5 % covered by an anti-aliased outline beside it 9 and more.
 */
const KINK_STEP = 6;

/**
 * The luma slopes at the samples (central differences; 0 on the image's border, NaN beside an
 * edge). sample() leaves them out: a region the flat test settles, over a quarter of the joins'
 * fits on clip art, never reads them, and they cost five lumas a sample.
 */
function addSlopes(kernel: GradientFitKernel, n: number, image: RasterImage): void {
  const { width, height, data } = image;
  const channels = image.channels ?? 4;
  const { x, y, gx, gy } = kernel;
  // Samples of a region under MAX_SAMPLES pixels are all its pixels in scan order: a sample right
  // after its left neighbour takes that one's own and right lumas as its left and own.
  let previous = -2,
    previousHere = 0,
    previousRight = 0;
  for (let k = 0; k < n; k++) {
    const px = x[k] - 0.5,
      py = y[k] - 0.5;
    const inside = px > 0 && py > 0 && px + 1 < width && py + 1 < height;
    if (!inside) {
      gx[k] = gy[k] = 0;
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
    gx[k] = kinked ? NaN : right - left;
    gy[k] = kinked ? NaN : below - above;
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

/**
 * The winner's fill from the kernel's block: a linear ramp between the samples' extremes along its
 * direction, or rings around the centre out to the farthest sample (the offsets scaled to the
 * radius: the profile spans only the radii the region covers). Stop offsets to a thousandth,
 * coordinates to a hundredth, colours in hex.
 */
function fillOf(kind: number, best: Float64Array): GradientFill {
  const p = BEST_PARAMS;
  const lo = best[p + 2],
    hi = best[p + 3];
  const stops: GradientStop[] = [];
  for (let k = 0; k < best[BEST_STOP_COUNT]; k++) {
    const c = BEST_STOP_COLOURS + 3 * k;
    stops.push({ offset: Math.round(best[BEST_STOP_OFFSETS + k] * 1000) / 1000, color: hex([best[c], best[c + 1], best[c + 2]]) });
  }
  if (kind === LINEAR) {
    const mx = best[p],
      my = best[p + 1],
      dx = best[p + 4],
      dy = best[p + 5];
    return {
      type: 'linear',
      x1: round2(mx + lo * dx),
      y1: round2(my + lo * dy),
      x2: round2(mx + hi * dx),
      y2: round2(my + hi * dy),
      stops,
    };
  }
  const radial: GradientFill = {
    type: 'radial',
    cx: round2(best[p]),
    cy: round2(best[p + 1]),
    r: round2(hi),
    stops: stops.map((stop) => ({ offset: Math.round(((lo + stop.offset * (hi - lo)) / hi) * 1000) / 1000, color: stop.color })),
  };
  if (kind === ELLIPTICAL) {
    // the axes are the same turned half a turn: the angle kept within (−90°, 90°]
    let degrees = (best[p + 4] * 180) / Math.PI;
    while (degrees > 90) degrees -= 180;
    while (degrees <= -90) degrees += 180;
    radial.ellipse = { ratio: Math.round(best[p + 5] * 1000) / 1000, angle: Math.round(degrees * 10) / 10 };
  }
  return radial;
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
