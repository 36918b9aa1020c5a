/**
 * Which side each anti-aliasing band pixel goes to (engine/segment/antialias.ts
 * absorbAntialiasBands), in AssemblyScript: the distinct joinable regions in the pixel's 5×5
 * window (at most eight, in the window's reading order), then the pair whose line from one mean
 * colour to the other passes nearest the pixel's colour, relative to their contrast, the pixel
 * going to the one it is nearer to. The same tests and the same arithmetic in the same order as the
 * TypeScript, so the same choices. The caller (engine/wasm/band-sides.ts) hands the labels over in
 * bands of rows, each with the two rows above and below it.
 */

/** Neighbours are looked for this far (px, square window) around a band pixel. */
const REACH: i32 = 2;
/** At most this many distinct neighbour regions are weighed per band pixel. */
const MAX_CANDIDATES: i32 = 8;

/** The candidates of the pixel at hand (eight i32, in this module's memory from `scratch` on). */
@inline
function candidateAt(scratch: usize, k: i32): i32 {
  return load<i32>(scratch + (<usize>k << 2));
}

/**
 * For the `count` band pixels at `pixels` (image indices, rows y0 to y1 - 1, in scan order), each
 * one's new region or -1 into `movedTo`. `labels` and `rgb` (3 bytes a pixel) hold the rows from
 * `firstRow` on; `unjoinable` and `band` are a byte per region (1: another band or transparent; 1:
 * a band), `mean` three doubles per region. Returns how many pixels move.
 */
export function chooseSides(
  count: i32,
  pixels: usize,
  movedTo: usize,
  width: i32,
  height: i32,
  firstRow: i32,
  labels: usize,
  rgb: usize,
  unjoinable: usize,
  band: usize,
  mean: usize,
  minContrast2: f64,
  offLine2: f64,
  scratch: usize,
): i32 {
  let moves = 0;
  for (let i = 0; i < count; i++) {
    const p = load<i32>(pixels + (<usize>i << 2));
    store<i32>(movedTo + (<usize>i << 2), -1);
    const local = p - firstRow * width;
    if (load<u8>(band + <usize>load<i32>(labels + (<usize>local << 2))) === 0) continue;
    const x = p % width,
      y = (p - x) / width;
    // the window's rows and columns clipped to the image, read in the same order either way
    const top = y >= REACH ? -REACH : -y,
      bottom = y + REACH < height ? REACH : height - 1 - y,
      left = x >= REACH ? -REACH : -x,
      right = x + REACH < width ? REACH : width - 1 - x;
    let found = 0;
    for (let dy = top; dy <= bottom; dy++) {
      const row = local + dy * width;
      for (let dx = left; dx <= right; dx++) {
        const l = load<i32>(labels + (<usize>(row + dx) << 2));
        if (load<u8>(unjoinable + <usize>l) !== 0) continue;
        let seen = false;
        for (let k = 0; k < found; k++) if (candidateAt(scratch, k) === l) seen = true;
        if (!seen && found < MAX_CANDIDATES) {
          store<i32>(scratch + (<usize>found << 2), l);
          found++;
        }
      }
    }
    if (found < 2) continue;
    const c = rgb + <usize>(local * 3);
    const r = <f64>load<u8>(c),
      g = <f64>load<u8>(c, 1),
      b = <f64>load<u8>(c, 2);
    // the pair whose line passes nearest the pixel's colour, relative to their contrast
    let best = -1;
    let bestOff = Infinity;
    for (let a = 0; a < found; a++) {
      const A = mean + (<usize>(3 * candidateAt(scratch, a)) << 3);
      for (let j = a + 1; j < found; j++) {
        const C = mean + (<usize>(3 * candidateAt(scratch, j)) << 3);
        const dr = load<f64>(A) - load<f64>(C),
          dg = load<f64>(A, 8) - load<f64>(C, 8),
          db = load<f64>(A, 16) - load<f64>(C, 16);
        const contrast2 = dr * dr + dg * dg + db * db;
        if (contrast2 < minContrast2) continue;
        const pr = r - load<f64>(C),
          pg = g - load<f64>(C, 8),
          pb = b - load<f64>(C, 16);
        const alpha = (pr * dr + pg * dg + pb * db) / contrast2;
        if (alpha < 0 || alpha > 1) continue;
        const er = pr - alpha * dr,
          eg = pg - alpha * dg,
          eb = pb - alpha * db;
        const off = (er * er + eg * eg + eb * eb) / contrast2;
        if (off > offLine2 || off >= bestOff) continue;
        bestOff = off;
        best = alpha >= 0.5 ? candidateAt(scratch, a) : candidateAt(scratch, j);
      }
    }
    if (best >= 0) {
      store<i32>(movedTo + (<usize>i << 2), best);
      moves++;
    }
  }
  return moves;
}
