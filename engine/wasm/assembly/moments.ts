/**
 * The gradient joins' moments pass (engine/segment/gradient-bands.ts measureMoments) in
 * AssemblyScript: each region's colour moments about its reference pixel, its clean pixels and its
 * edge pixels apart (engine/segment/colour-moments.ts says what the sums are), added run by run in
 * scan order with the same products in the same order, so they are the numbers the TypeScript pass
 * made. The caller (engine/wasm/moments.ts) hands the image over in bands of rows, each with the
 * row above and below it, so this module's memory stays a band's size whatever the image's.
 */

import { addTo, i32At, setI32 } from './lib/memory';

/** Sums per set of pixels (engine/segment/colour-moments.ts MOMENTS), and per region: clean, then edge. */
const MOMENTS: i32 = 59;
const BLOCK: i32 = 2 * MOMENTS;
/** Where the colour sums and the sum of squares start in a set's sums. */
const COLOUR: i32 = 28;
const TERMS: i32 = 10;
const SQUARES: i32 = 58;

/** The regions this pass measures (`mine`: their block, else -1): sums zeroed, no reference pixel yet. */
export function begin(mine: usize, regionCount: i32, sums: usize, refY: usize): void {
  for (let r = 0; r < regionCount; r++) {
    const block = i32At(mine, r);
    if (block < 0) continue;
    memory.fill(sums + (<usize>(block * BLOCK) << 3), 0, <usize>BLOCK << 3);
    setI32(refY, block, -1);
  }
}

/**
 * Rows y0 to y1 - 1. `labels` and `data` hold the rows from max(0, y0 - 1) to min(height, y1 + 1)
 * (channels bytes a pixel), `edges` gets a byte per pixel of rows y0..y1 - 1 (1: beside a pixel of
 * another region that steps hard; written for the measured regions' pixels only). For every run of
 * a measured region's pixels along a row a triple goes to `runs`: its place in the region's pixel
 * list (from `listed`, then advanced; -1 with `listed` 0), its first pixel and its length; with
 * `listed` 0, runs that follow on in scan order share one triple. Returns how many triples.
 */
export function measureBand(
  width: i32,
  height: i32,
  y0: i32,
  y1: i32,
  data: usize,
  channels: i32,
  labels: usize,
  mine: usize,
  sums: usize,
  refX: usize,
  refY: usize,
  edges: usize,
  hard2: f64,
  listed: usize,
  runs: usize,
): i32 {
  const firstRow = y0 > 0 ? y0 - 1 : 0;
  let written = 0;
  for (let y = y0; y < y1; y++) {
    const row = (y - firstRow) * width;
    // the rows above and below as offsets, 0 past the image's edge: a pixel is never across an edge from itself
    const up = y > 0 ? -width : 0,
      down = y + 1 < height ? width : 0;
    for (let x = 0; x < width; ) {
      const label = i32At(labels, row + x);
      let rowRunEnd = x + 1;
      while (rowRunEnd < width && i32At(labels, row + rowRunEnd) === label) rowRunEnd++;
      const block = i32At(mine, label);
      if (block < 0) {
        x = rowRunEnd;
        continue;
      }
      if (i32At(refY, block) < 0) {
        setI32(refX, block, x);
        setI32(refY, block, y);
      }
      const rx = i32At(refX, block),
        ry = i32At(refY, block);
      let at = -1;
      if (listed !== 0) {
        at = i32At(listed, label);
        setI32(listed, label, at + rowRunEnd - x);
      }
      // without lists only the edge flags are copied out by the triples: a run right after the last
      // one (along the row, or from a row's end to the next row's start) lengthens it, a third as
      // many copies on the drawings timed (the JavaScript side's per-triple copy was ~15% of the pass)
      if (listed === 0 && written > 0 && i32At(runs, 3 * written - 2) + i32At(runs, 3 * written - 1) === y * width + x) {
        setI32(runs, 3 * written - 1, i32At(runs, 3 * written - 1) + rowRunEnd - x);
      } else {
        setI32(runs, 3 * written, at);
        setI32(runs, 3 * written + 1, y * width + x);
        setI32(runs, 3 * written + 2, rowRunEnd - x);
        written++;
      }
      let start = x,
        startEdge = false;
      for (let t = x; t < rowRunEnd; t++) {
        const p = row + t;
        const edge =
          (t === x && t > 0 && stepsHard(data, channels, hard2, p, p - 1)) ||
          (t + 1 === rowRunEnd && t + 1 < width && stepsHard(data, channels, hard2, p, p + 1)) ||
          (i32At(labels, p + up) !== label && stepsHard(data, channels, hard2, p, p + up)) ||
          (i32At(labels, p + down) !== label && stepsHard(data, channels, hard2, p, p + down));
        store<u8>(edges + <usize>((y - y0) * width + t), edge ? 1 : 0);
        if (t === x) startEdge = edge;
        else if (edge !== startEdge) {
          addRun(sums, block * BLOCK + (startEdge ? MOMENTS : 0), start - rx, y - ry, t - start, data, channels, row + start);
          start = t;
          startEdge = edge;
        }
      }
      addRun(sums, block * BLOCK + (startEdge ? MOMENTS : 0), start - rx, y - ry, rowRunEnd - start, data, channels, row + start);
      x = rowRunEnd;
    }
  }
  return written;
}

@inline
function stepsHard(data: usize, channels: i32, hard2: f64, p: i32, q: i32): bool {
  const a = data + <usize>(channels * p),
    b = data + <usize>(channels * q);
  const dr = <i32>load<u8>(a) - <i32>load<u8>(b),
    dg = <i32>load<u8>(a, 1) - <i32>load<u8>(b, 1),
    db = <i32>load<u8>(a, 2) - <i32>load<u8>(b, 2);
  return <f64>(dr * dr + dg * dg + db * db) > hard2;
}

/**
 * Adds a run of `count` pixels of one row to the sums at `at` (engine/segment/colour-moments.ts
 * addRun, the same products in the same order): the first at (x, y) about the set's reference
 * pixel, its colours from pixel `first` of `data` on. The sums along x first, spread over the
 * powers of y once.
 *
 * Two sums a lane (f64x2): [r, g] and [b, 1] times 1, a, a², a³ give the colour sums and x0..x3
 * (1·v is v, so x1 += 1·a adds what x1 += a did), [a⁴, a⁵] gives x4 and x5; each lane is the
 * scalar operation on the same operands in the same order, rounded alike, and every lane starts
 * at -0.0 as the scalars did. The squares are whole numbers: the scalar f64 sum of them is exact
 * (under 2^53), so the same number as their sum in two i64 lanes ([r² + g², b²]) added at the end.
 * About 10% off the pass on the drawings timed; the same lanes with the squares in f64 and x4, x5
 * apart were no faster than the scalar loop.
 */
function addRun(sums: usize, at: i32, x: i32, y: i32, count: i32, data: usize, channels: i32, first: i32): void {
  const zero = f64x2.splat(-0.0);
  let rg0 = zero,
    rg1 = zero,
    rg2 = zero,
    rg3 = zero,
    bx0 = zero,
    bx1 = zero,
    bx2 = zero,
    bx3 = zero,
    x45 = zero;
  let x6: f64 = -0.0;
  let squares2 = i64x2.splat(0);
  const ones = i32x4.splat(1),
    rgbOnly = i32x4(0xffffff, 0, 0, 0);
  let o = data + <usize>(channels * first);
  for (let t = 0; t < count; t++, o += <usize>channels) {
    // the pixel's 4 bytes (the 4th another pixel's or past the band's with 3 channels, masked off)
    const px16 = i16x8.extend_low_i8x16_u(v128.and(v128.load32_zero(o), rgbOnly));
    squares2 = i64x2.add(squares2, i64x2.extend_low_i32x4_u(i32x4.dot_i16x8_s(px16, px16)));
    const px = i32x4.extend_low_i16x8_u(px16);
    const rg = f64x2.convert_low_i32x4_s(px),
      bx = f64x2.convert_low_i32x4_s(i32x4.shuffle(px, ones, 2, 4, 0, 0));
    const a = <f64>(x + t);
    const w2 = a * a,
      w3 = w2 * a,
      w4 = w3 * a,
      w5 = w4 * a;
    const av = f64x2.splat(a),
      w2v = f64x2.splat(w2),
      w3v = f64x2.splat(w3);
    x45 = f64x2.add(x45, f64x2(w4, w5));
    x6 += w5 * a;
    rg0 = f64x2.add(rg0, rg);
    rg1 = f64x2.add(rg1, f64x2.mul(rg, av));
    rg2 = f64x2.add(rg2, f64x2.mul(rg, w2v));
    rg3 = f64x2.add(rg3, f64x2.mul(rg, w3v));
    bx0 = f64x2.add(bx0, bx);
    bx1 = f64x2.add(bx1, f64x2.mul(bx, av));
    bx2 = f64x2.add(bx2, f64x2.mul(bx, w2v));
    bx3 = f64x2.add(bx3, f64x2.mul(bx, w3v));
  }
  const r0 = f64x2.extract_lane(rg0, 0),
    g0 = f64x2.extract_lane(rg0, 1),
    r1 = f64x2.extract_lane(rg1, 0),
    g1 = f64x2.extract_lane(rg1, 1),
    r2 = f64x2.extract_lane(rg2, 0),
    g2 = f64x2.extract_lane(rg2, 1),
    r3 = f64x2.extract_lane(rg3, 0),
    g3 = f64x2.extract_lane(rg3, 1),
    b0 = f64x2.extract_lane(bx0, 0),
    x0 = f64x2.extract_lane(bx0, 1),
    b1 = f64x2.extract_lane(bx1, 0),
    x1 = f64x2.extract_lane(bx1, 1),
    b2 = f64x2.extract_lane(bx2, 0),
    x2 = f64x2.extract_lane(bx2, 1),
    b3 = f64x2.extract_lane(bx3, 0),
    x3 = f64x2.extract_lane(bx3, 1),
    x4 = f64x2.extract_lane(x45, 0),
    x5 = f64x2.extract_lane(x45, 1);
  // -0.0 for no pixels, as the scalar sum left it
  const squares: f64 = count > 0 ? <f64>(i64x2.extract_lane(squares2, 0) + i64x2.extract_lane(squares2, 1)) : -0.0;
  const y1 = <f64>y,
    y2 = y1 * y1,
    y3 = y2 * y1,
    y4 = y3 * y1,
    y5 = y4 * y1,
    y6 = y5 * y1;
  spreadTerms(sums, at, x0, x1, x2, x3, y1, y2, y3);
  addTo(sums, at + 10, x4);
  addTo(sums, at + 11, x3 * y1);
  addTo(sums, at + 12, x2 * y2);
  addTo(sums, at + 13, x1 * y3);
  addTo(sums, at + 14, x0 * y4);
  addTo(sums, at + 15, x5);
  addTo(sums, at + 16, x4 * y1);
  addTo(sums, at + 17, x3 * y2);
  addTo(sums, at + 18, x2 * y3);
  addTo(sums, at + 19, x1 * y4);
  addTo(sums, at + 20, x0 * y5);
  addTo(sums, at + 21, x6);
  addTo(sums, at + 22, x5 * y1);
  addTo(sums, at + 23, x4 * y2);
  addTo(sums, at + 24, x3 * y3);
  addTo(sums, at + 25, x2 * y4);
  addTo(sums, at + 26, x1 * y5);
  addTo(sums, at + 27, x0 * y6);
  spreadTerms(sums, at + COLOUR, r0, r1, r2, r3, y1, y2, y3);
  spreadTerms(sums, at + COLOUR + TERMS, g0, g1, g2, g3, y1, y2, y3);
  spreadTerms(sums, at + COLOUR + 2 * TERMS, b0, b1, b2, b3, y1, y2, y3);
  addTo(sums, at + SQUARES, squares);
}

/** Σ v·xⁱ along a run (v0..v3) spread over the surface's terms xⁱyʲ (i + j ≤ 3), in POWERS' order from `at`. */
@inline
function spreadTerms(sums: usize, at: i32, v0: f64, v1: f64, v2: f64, v3: f64, y1: f64, y2: f64, y3: f64): void {
  addTo(sums, at, v0);
  addTo(sums, at + 1, v1);
  addTo(sums, at + 2, v0 * y1);
  addTo(sums, at + 3, v2);
  addTo(sums, at + 4, v1 * y1);
  addTo(sums, at + 5, v0 * y2);
  addTo(sums, at + 6, v3);
  addTo(sums, at + 7, v2 * y1);
  addTo(sums, at + 8, v1 * y2);
  addTo(sums, at + 9, v0 * y3);
}
