/**
 * The prepare stage's denoise pass (engine/prepare/index.ts smoothSimilar) in AssemblyScript: a
 * 3×3 sigma filter, each pixel the mean of itself and the neighbours within `range` of its colour,
 * rounded as the TypeScript pass rounded it (the same whole-number sums and the same division), so
 * the same bytes. The caller (engine/wasm/denoise.ts) hands rows over in bands, each with the row
 * above and below it, so this module's memory stays a band's size whatever the image's.
 */

/**
 * Smooths rows y0 to y1 - 1 of an image `height` rows high into `out` (3 bytes a pixel, row y0 at
 * its start). `rgb` and `clear` (a byte a pixel, 1 transparent; 0 for an opaque image) hold the
 * rows from max(0, y0 - 1) to min(height, y1 + 1). A transparent pixel keeps its colour and is
 * nobody's neighbour.
 */
export function smoothBand(rgb: usize, clear: usize, out: usize, width: i32, height: i32, y0: i32, y1: i32, range: i32): void {
  const range2 = range * range;
  const stride = width * 3;
  const firstRow = y0 > 0 ? y0 - 1 : 0;
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
        // the eight neighbours written out: a loop over the offsets ran the pass 1.1× slower than the
        // TypeScript, their colours packed into one i64 a neighbour 1.15–1.24× slower than this
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
      const r0 = <i32>load<u8>(c),
        g0 = <i32>load<u8>(c, 1),
        b0 = <i32>load<u8>(c, 2);
      if (clear !== 0 && load<u8>(clear + <usize>(local + x)) !== 0) {
        store<u8>(o, <u8>r0);
        store<u8>(o, <u8>g0, 1);
        store<u8>(o, <u8>b0, 2);
        continue;
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
  }
}
