/**
 * The sub-pixel shifts of the boundary cracks (engine/boundary/subpixel.ts placeSubpixelEdges) in
 * AssemblyScript: for every crack of the chains listed, the two reference colours either side and
 * the coverage of the four pixels on its normal, with the same operations in the same order as the
 * TypeScript, so each shift is the same double. subpixel.ts keeps the rest (hard edges, junctions,
 * the moved points).
 */

/** Pixels read on each side of a crack (subpixel.ts SIDE_PIXELS). */
const SIDE_PIXELS: i32 = 2;
/** subpixel.ts MIN_CONTRAST, OFF_LINE_SHARE and MAX_SHIFT. */
const MIN_CONTRAST: f64 = 24;
const OFF_LINE_SHARE: f64 = 0.35;
const MAX_SHIFT: f64 = 0.5;
/** i32 per listed chain: where its points start (in doubles), how many points, closed (1) or not, its right and left regions. */
const CHAIN_FIELDS: i32 = 5;

/** The two colours of the crack at hand (subpixel.ts referenceColours): R's, R's minus L's, the contrast² and its off-line bound. */
let rr: f64 = 0,
  rg: f64 = 0,
  rb: f64 = 0,
  dr: f64 = 0,
  dg: f64 = 0,
  db: f64 = 0,
  contrast2: f64 = 0,
  offLine2: f64 = 0;

/**
 * Every crack of the `count` chains in `chains` gets its shift in `shifts`, chain after chain (a
 * closed chain has as many cracks as points, an open one one fewer). `points` holds the chains'
 * crack points (x, y doubles); `mean` each region's mean colour (three doubles).
 */
export function crackShifts(
  width: i32,
  height: i32,
  rgb: usize,
  labels: usize,
  mean: usize,
  points: usize,
  chains: usize,
  count: i32,
  shifts: usize,
): void {
  let out = shifts;
  for (let c = 0; c < count; c++) {
    const row = chains + (<usize>(c * CHAIN_FIELDS) << 2);
    const pts = points + (<usize>load<i32>(row) << 3);
    const n = load<i32>(row, 4),
      closed = load<i32>(row, 8) !== 0,
      right = load<i32>(row, 12),
      left = load<i32>(row, 16);
    const cracks = closed ? n : n - 1;
    for (let i = 0; i < cracks; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const x0 = load<f64>(pts + (<usize>(2 * i) << 3)),
        y0 = load<f64>(pts + (<usize>(2 * i + 1) << 3));
      const dx = load<f64>(pts + (<usize>(2 * j) << 3)) - x0,
        dy = load<f64>(pts + (<usize>(2 * j + 1) << 3)) - y0;
      // the left normal (towards L) is (dy, −dx) on screen; R's pixel lies against it
      const nx = dy,
        ny = -dx;
      const mx = x0 + dx / 2,
        my = y0 + dy / 2;
      const rx = <i32>Math.floor(mx - nx / 2),
        ry = <i32>Math.floor(my - ny / 2);
      const inx = <i32>nx,
        iny = <i32>ny;
      let e: f64 = 0;
      if (referenceColours(width, height, rgb, labels, mean, right, left, rx, ry, inx, iny)) {
        let sum: f64 = 0;
        for (let k = 0; k < SIDE_PIXELS; k++) {
          sum += coverageByRight(width, height, rgb, labels, right, left, rx - k * inx, ry - k * iny, 1);
          sum += coverageByRight(width, height, rgb, labels, right, left, rx + (k + 1) * inx, ry + (k + 1) * iny, 0);
        }
        e = sum - <f64>SIDE_PIXELS;
        e = e < -MAX_SHIFT ? -MAX_SHIFT : e > MAX_SHIFT ? MAX_SHIFT : e;
      }
      store<f64>(out, e);
      out += 8;
    }
  }
}

/** Pixel (x, y) when it lies in the image and belongs to `region`, else -1. */
@inline
function pixelOf(width: i32, height: i32, labels: usize, x: i32, y: i32, region: i32): i32 {
  if (x < 0 || y < 0 || x >= width || y >= height) return -1;
  const p = y * width + x;
  return load<i32>(labels + (<usize>p << 2)) === region ? p : -1;
}

/**
 * Each side's own colour just past the window when that pixel is still of its region, else the
 * region's mean, into the colours above; false when the two are too alike for a mix to say anything.
 */
@inline
function referenceColours(
  width: i32,
  height: i32,
  rgb: usize,
  labels: usize,
  mean: usize,
  right: i32,
  left: i32,
  x: i32,
  y: i32,
  nx: i32,
  ny: i32,
): bool {
  const farR = pixelOf(width, height, labels, x - SIDE_PIXELS * nx, y - SIDE_PIXELS * ny, right);
  const farL = pixelOf(width, height, labels, x + (SIDE_PIXELS + 1) * nx, y + (SIDE_PIXELS + 1) * ny, left);
  rr = channel(rgb, mean, farR, right, 0);
  rg = channel(rgb, mean, farR, right, 1);
  rb = channel(rgb, mean, farR, right, 2);
  const lr = channel(rgb, mean, farL, left, 0),
    lg = channel(rgb, mean, farL, left, 1),
    lb = channel(rgb, mean, farL, left, 2);
  dr = rr - lr;
  dg = rg - lg;
  db = rb - lb;
  contrast2 = dr * dr + dg * dg + db * db;
  offLine2 = OFF_LINE_SHARE * OFF_LINE_SHARE * contrast2;
  return contrast2 >= MIN_CONTRAST * MIN_CONTRAST;
}

/** Channel k of pixel `far`'s colour, or of `region`'s mean where `far` is -1. */
@inline
function channel(rgb: usize, mean: usize, far: i32, region: i32, k: i32): f64 {
  return far >= 0 ? <f64>load<u8>(rgb + <usize>(3 * far + k)) : load<f64>(mean + (<usize>(3 * region + k) << 3));
}

/** Coverage by R of pixel (x, y): `own` (1 on R's side, 0 on L's) unless it is a mix of the two colours. */
@inline
function coverageByRight(width: i32, height: i32, rgb: usize, labels: usize, right: i32, left: i32, x: i32, y: i32, own: f64): f64 {
  if (x < 0 || y < 0 || x >= width || y >= height) return own;
  const p = y * width + x;
  const l = load<i32>(labels + (<usize>p << 2));
  if (l !== right && l !== left) return own;
  // α = (c − c_L)·(c_R − c_L) / |c_R − c_L|², written from R's side: 1 − (c_R − c)·d/|d|²
  const o = rgb + <usize>(3 * p);
  const cr = rr - <f64>load<u8>(o),
    cg = rg - <f64>load<u8>(o, 1),
    cb = rb - <f64>load<u8>(o, 2);
  const along = (cr * dr + cg * dg + cb * db) / contrast2;
  const er = cr - along * dr,
    eg = cg - along * dg,
    eb = cb - along * db;
  if (er * er + eg * eg + eb * eb > offLine2) return own;
  const alpha = 1 - along;
  return alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
}
