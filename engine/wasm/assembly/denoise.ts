/**
 * The prepare stage's denoise pass (engine/prepare/index.ts smoothSimilar) in AssemblyScript: a
 * 3×3 sigma filter, each pixel the mean of itself and the neighbours within `range` of its colour,
 * rounded as the TypeScript pass rounded it (the same whole-number sums and the same division), so
 * the same bytes. The caller (engine/wasm/denoise.ts) hands rows over in bands, each with the row
 * above and below it, so this module's memory stays a band's size whatever the image's.
 *
 * Inside an opaque image, for the ranges the engine uses, the pass runs 8 pixels at a time in
 * 16-bit SIMD lanes, on the band split into one plane a channel (a neighbour's channel is then one
 * widening load): the scalar pass spent ~28 ns a pixel on a 1.37 MP photo, nearly all of it in the
 * nine distances and their branches, which lanes take as masks; the lanes take ~3.6 (the copies in
 * and out included). Each lane step is exact (LANE_RANGE and RECIPROCAL_LOW say why), so the bytes
 * are the scalar pass's; borders, transparent images, images under 10 pixels wide and ranges past
 * LANE_RANGE keep the scalar code.
 */

/**
 * The widest range the lanes take. A channel's difference d is at most 255 apart, so d² ≤ 65025
 * is exact in an unsigned 16-bit lane; the three squares are added saturating at 65535, which
 * only happens to sums already over range² while range² ≤ 65025 < 65535, so the unsigned
 * compare with range² decides as the scalar one does.
 */
const LANE_RANGE = 255;

/**
 * The rounded mean (i32)(sum / count + 0.5) in lanes: i16x8.q15mulr_sat_s(sum, b) is
 * (sum·b + 2^14) >> 15, and with b = ceil(2^15 / count) (32767 for count 1) it equals the
 * scalar division's result for every sum 0..2295 (9 × 255) and count 1..9, as
 * test/engine/wasm/denoise.test.ts checks exhaustively. b by count (index), its low bytes and its
 * high bytes, looked up with swizzles: 0, 32767, 16384, 10923, 8192, 6554, 5462, 4682, 4096, 3641.
 */
const RECIPROCAL_LOW = i8x16(0, -1, 0x00, -0x55, 0x00, -0x66, 0x56, 0x4a, 0x00, 0x39, 0, 0, 0, 0, 0, 0);
const RECIPROCAL_HIGH = i8x16(0, 0x7f, 0x40, 0x2a, 0x20, 0x19, 0x15, 0x12, 0x10, 0x0e, 0, 0, 0, 0, 0, 0);

/**
 * Smooths rows y0 to y1 - 1 of an image `height` rows high into `out` (3 bytes a pixel, row y0 at
 * its start). `rgb` and `clear` (a byte a pixel, 1 transparent; 0 for an opaque image) hold the
 * rows from max(0, y0 - 1) to min(height, y1 + 1). A transparent pixel keeps its colour and is
 * nobody's neighbour. `scratch` holds 3 bytes a pixel of those rows, and 32 more.
 */
export function smoothBand(
  rgb: usize,
  clear: usize,
  out: usize,
  scratch: usize,
  width: i32,
  height: i32,
  y0: i32,
  y1: i32,
  range: i32,
): void {
  const firstRow = y0 > 0 ? y0 - 1 : 0;
  // a row's lanes take 8 inner pixels at a time, so at least 8 of them
  if (clear === 0 && range <= LANE_RANGE && width >= 10) {
    smoothInLanes(rgb, out, scratch, width, height, firstRow, y0, y1, range);
    return;
  }
  const range2 = range * range;
  const stride = width * 3;
  for (let y = y0; y < y1; y++) {
    const local = (y - firstRow) * width;
    const written = out + <usize>((y - y0) * stride);
    for (let x = 0; x < width; x++) {
      const c = rgb + <usize>((local + x) * 3);
      const o = written + <usize>(x * 3);
      if (clear === 0 && x > 0 && x < width - 1 && y > 0 && y < height - 1) {
        // inside an opaque image: the nine samples without bounds or transparency checks
        const r0 = <i32>load<u8>(c),
          g0 = <i32>load<u8>(c, 1),
          b0 = <i32>load<u8>(c, 2);
        let sr = r0,
          sg = g0,
          sb = b0,
          count = 1;
        // (the lanes' fallback now) the eight neighbours written out: a loop over the offsets ran the
        // pass 1.1× slower than the TypeScript, their colours packed into one i64 a neighbour
        // 1.15–1.24× slower than this
        {
          const j = c + <usize>(-stride - 3);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(-stride);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(-stride + 3);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(-3);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(3);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(stride - 3);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(stride);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        {
          const j = c + <usize>(stride + 3);
          const r = <i32>load<u8>(j),
            g = <i32>load<u8>(j, 1),
            b = <i32>load<u8>(j, 2);
          const dr = r - r0,
            dg = g - g0,
            db = b - b0;
          if (dr * dr + dg * dg + db * db <= range2) {
            sr += r;
            sg += g;
            sb += b;
            count++;
          }
        }
        store<u8>(o, <u8>(<i32>(<f64>sr / <f64>count + 0.5)));
        store<u8>(o, <u8>(<i32>(<f64>sg / <f64>count + 0.5)), 1);
        store<u8>(o, <u8>(<i32>(<f64>sb / <f64>count + 0.5)), 2);
        continue;
      }
      smoothPixel(rgb, clear, o, width, height, firstRow, x, y, range2);
    }
  }
}

/**
 * One pixel with every bound and transparency checked: the border's pixels, and a transparent
 * image's. `o` is where its 3 bytes go.
 */
@inline
function smoothPixel(rgb: usize, clear: usize, o: usize, width: i32, height: i32, firstRow: i32, x: i32, y: i32, range2: i32): void {
  const c = rgb + <usize>(((y - firstRow) * width + x) * 3);
  const r0 = <i32>load<u8>(c),
    g0 = <i32>load<u8>(c, 1),
    b0 = <i32>load<u8>(c, 2);
  if (clear !== 0 && load<u8>(clear + <usize>((y - firstRow) * width + x)) !== 0) {
    store<u8>(o, <u8>r0);
    store<u8>(o, <u8>g0, 1);
    store<u8>(o, <u8>b0, 2);
    return;
  }
  let sr = 0,
    sg = 0,
    sb = 0,
    count = 0;
  const ya = y > 0 ? y - 1 : y,
    yb = y < height - 1 ? y + 1 : y;
  const xa = x > 0 ? x - 1 : x,
    xb = x < width - 1 ? x + 1 : x;
  for (let yy = ya; yy <= yb; yy++) {
    for (let xx = xa; xx <= xb; xx++) {
      const j = (yy - firstRow) * width + xx;
      if (clear !== 0 && load<u8>(clear + <usize>j) !== 0) continue;
      const q = rgb + <usize>(j * 3);
      const r = <i32>load<u8>(q),
        g = <i32>load<u8>(q, 1),
        b = <i32>load<u8>(q, 2);
      const dr = r - r0,
        dg = g - g0,
        db = b - b0;
      if (dr * dr + dg * dg + db * db > range2) continue;
      sr += r;
      sg += g;
      sb += b;
      count++;
    }
  }
  store<u8>(o, <u8>(<i32>(<f64>sr / <f64>count + 0.5)));
  store<u8>(o, <u8>(<i32>(<f64>sg / <f64>count + 0.5)), 1);
  store<u8>(o, <u8>(<i32>(<f64>sb / <f64>count + 0.5)), 2);
}

/**
 * smoothBand for an opaque image and a range up to LANE_RANGE: the band's rows split into one
 * plane a channel, then each row's inner pixels 8 at a time, woven back into RGB as they are
 * stored; the first and last pixel of a row, and the image's first and last row, one by one.
 * `scratch` holds the planes and, after them, the eight neighbours' offsets.
 */
function smoothInLanes(
  rgb: usize,
  out: usize,
  scratch: usize,
  width: i32,
  height: i32,
  firstRow: i32,
  y0: i32,
  y1: i32,
  range: i32,
): void {
  const held = <usize>(((y1 < height ? y1 + 1 : height) - firstRow) * width);
  const red = scratch,
    green = red + held,
    blue = green + held,
    offsets = blue + held;
  splitChannels(rgb, red, green, blue, held);
  // the neighbours in a loop over their offsets: written out (as the scalar pass has them), their
  // sums were left to the end by Binaryen and V8, which kept every neighbour's loads alive and
  // spilled them; the loop ran the pass 1.2× faster than that, and 1.1× faster than a loop over
  // pairs of opposite neighbours
  store<i32>(offsets, -width - 1);
  store<i32>(offsets, -width, 4);
  store<i32>(offsets, -width + 1, 8);
  store<i32>(offsets, -1, 12);
  store<i32>(offsets, 1, 16);
  store<i32>(offsets, width - 1, 20);
  store<i32>(offsets, width, 24);
  store<i32>(offsets, width + 1, 28);
  const range2 = range * range;
  const within = i16x8.splat(<i16>range2);
  const stride = width * 3;
  for (let y = y0; y < y1; y++) {
    const written = out + <usize>((y - y0) * stride);
    if (y === 0 || y === height - 1) {
      for (let x = 0; x < width; x++) smoothPixel(rgb, 0, written + <usize>(x * 3), width, height, firstRow, x, y, range2);
      continue;
    }
    const local = <usize>((y - firstRow) * width);
    for (let x = 1; ; x += 8) {
      // the last 8 end at the row's last inner pixel, overlapping the 8 before (the same means again)
      if (x > width - 9) x = width - 9;
      const at = local + <usize>x;
      const r = red + at,
        g = green + at,
        b = blue + at;
      const r0 = v128.load8x8_u(r),
        g0 = v128.load8x8_u(g),
        b0 = v128.load8x8_u(b);
      let sr = r0,
        sg = g0,
        sb = b0,
        count = i16x8.splat(1);
      for (let k: usize = 0; k < 32; k += 4) {
        const j = <usize>load<i32>(offsets + k);
        const nr = v128.load8x8_u(r + j),
          ng = v128.load8x8_u(g + j),
          nb = v128.load8x8_u(b + j);
        // -1 in the lanes whose neighbour counts, so subtracting it counts
        const near = nearMask(nr, ng, nb, r0, g0, b0, within);
        sr = i16x8.add(sr, v128.and(nr, near));
        sg = i16x8.add(sg, v128.and(ng, near));
        sb = i16x8.add(sb, v128.and(nb, near));
        count = i16x8.sub(count, near);
      }
      storeMeans(written + <usize>(x * 3), sr, sg, sb, count);
      if (x === width - 9) break;
    }
    smoothPixel(rgb, 0, written, width, height, firstRow, 0, y, range2);
    smoothPixel(rgb, 0, written + <usize>((width - 1) * 3), width, height, firstRow, width - 1, y, range2);
  }
}

/** -1 in the lanes whose neighbour colour (nr, ng, nb) lies within range of the pixel's (r0, g0, b0), else 0. */
@inline
function nearMask(nr: v128, ng: v128, nb: v128, r0: v128, g0: v128, b0: v128, within: v128): v128 {
  const dr = i16x8.sub(nr, r0),
    dg = i16x8.sub(ng, g0),
    db = i16x8.sub(nb, b0);
  // exact up to LANE_RANGE (see there)
  const distance2 = i16x8.add_sat_u(i16x8.add_sat_u(i16x8.mul(dr, dr), i16x8.mul(dg, dg)), i16x8.mul(db, db));
  return i16x8.le_u(distance2, within);
}

/**
 * 8 pixels' rounded means (sums and counts in 16-bit lanes) as 24 bytes of RGB at `o`: each
 * pixel's channels gathered into a 32-bit lane by unpacking, its fourth byte then squeezed out.
 */
@inline
function storeMeans(o: usize, sr: v128, sg: v128, sb: v128, count: v128): void {
  // b for each lane's count: the low byte from one table, the high byte from the other (a
  // swizzle index past 15 reads 0)
  const reciprocal = v128.or(
    i8x16.swizzle(RECIPROCAL_LOW, v128.or(count, i16x8.splat(<i16>0xff00))),
    i8x16.swizzle(RECIPROCAL_HIGH, v128.or(i16x8.shl(count, 8), i16x8.splat(0xff))),
  );
  // the means are 0..255, so red and green share a 16-bit lane and blue's high byte is 0
  const redGreen = v128.or(i16x8.q15mulr_sat_s(sr, reciprocal), i16x8.shl(i16x8.q15mulr_sat_s(sg, reciprocal), 8));
  const blue = i16x8.q15mulr_sat_s(sb, reciprocal);
  const first4 = i16x8.shuffle(redGreen, blue, 0, 8, 1, 9, 2, 10, 3, 11),
    last4 = i16x8.shuffle(redGreen, blue, 4, 12, 5, 13, 6, 14, 7, 15);
  const low = i8x16.shuffle(first4, first4, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0),
    high = i8x16.shuffle(last4, last4, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
  // the first store's last 4 bytes (no means) are overwritten by the second, which stops at the 24th
  v128.store(o, low);
  v128.store64_lane(o + 12, high, 0);
  v128.store32_lane(o + 20, high, 2);
}

/**
 * `pixels` RGB pixels from `rgb` into three planes, 16 at a time: four loads of 4 pixels, each
 * sorted into [r r r r g g g g b b b b -], then a 4×4 transpose of 32-bit lanes (one unpack
 * instruction each in V8, the sorts one byte shuffle each); gathering a plane from three 16-byte
 * loads with two-input shuffles (two byte shuffles and an or each in V8) took 0.7 ns a pixel
 * against this 0.3; weaving the means back that way, from planes, took 0.7 more.
 */
function splitChannels(rgb: usize, red: usize, green: usize, blue: usize, pixels: usize): void {
  let i: usize = 0;
  for (; i + 16 <= pixels; i += 16) {
    const p = rgb + i * 3;
    const a = v128.load(p),
      b = v128.load(p, 12),
      c = v128.load(p, 24),
      d = v128.load(p, 32);
    // the last load starts 4 bytes early, so as not to read past the 48
    const a4 = i8x16.shuffle(a, a, 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 0, 0, 0, 0),
      b4 = i8x16.shuffle(b, b, 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 0, 0, 0, 0),
      c4 = i8x16.shuffle(c, c, 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 0, 0, 0, 0),
      d4 = i8x16.shuffle(d, d, 4, 7, 10, 13, 5, 8, 11, 14, 6, 9, 12, 15, 0, 0, 0, 0);
    const redGreenLow = i32x4.shuffle(a4, b4, 0, 4, 1, 5),
      redGreenHigh = i32x4.shuffle(c4, d4, 0, 4, 1, 5),
      blueLow = i32x4.shuffle(a4, b4, 2, 6, 3, 7),
      blueHigh = i32x4.shuffle(c4, d4, 2, 6, 3, 7);
    v128.store(red + i, i64x2.shuffle(redGreenLow, redGreenHigh, 0, 2));
    v128.store(green + i, i64x2.shuffle(redGreenLow, redGreenHigh, 1, 3));
    v128.store(blue + i, i64x2.shuffle(blueLow, blueHigh, 0, 2));
  }
  for (; i < pixels; i++) {
    const p = rgb + i * 3;
    store<u8>(red + i, load<u8>(p));
    store<u8>(green + i, load<u8>(p, 1));
    store<u8>(blue + i, load<u8>(p, 2));
  }
}
