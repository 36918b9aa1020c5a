/**
 * Euclidean distance transform for line art, exact between pixel centres: a horizontal pass gives
 * each pixel its distance g to the nearest paper pixel in its row, then dt² = min over rows y' of
 * g(x, y')² + (y − y')², scanning outwards only while (y − y')² can still beat the best so far (the
 * second stage of Felzenszwalb–Huttenlocher done directly). Ink in line art is thin and sparse, so
 * this touches a few rows per ink pixel instead of sweeping whole columns; depths beyond `cap` are
 * reported as at least `cap`, which is all the filled-part test needs.
 */

/**
 * For a padded mask (1-pixel paper border), the distance from each ink pixel centre to the nearest
 * paper pixel centre (0 on paper), capped at `cap` (at most 255: row runs are kept in bytes).
 */
export function inkDepth(mask: Uint8Array, stride: number, rows: number, cap = 64): Float32Array {
  const n = stride * rows;
  cap = Math.min(cap, 255);
  const g = new Uint8Array(n);
  for (let y = 0; y < rows; y++) {
    const row = y * stride;
    let run = 0;
    for (let x = 0; x < stride; x++) {
      run = mask[row + x] ? Math.min(run + 1, cap) : 0;
      g[row + x] = run;
    }
    run = 0;
    for (let x = stride - 1; x >= 0; x--) {
      run = mask[row + x] ? Math.min(run + 1, cap) : 0;
      if (run < g[row + x]) g[row + x] = run;
    }
  }
  const out = new Float32Array(n);
  for (let p = stride; p < n - stride; p++) {
    const h = g[p];
    if (!h) continue;
    let best = h * h;
    for (let dy = 1; dy * dy < best; dy++) {
      const up = p - dy * stride,
        down = p + dy * stride;
      const dd = dy * dy;
      if (up >= 0) {
        const v = g[up];
        const c = v * v + dd;
        if (c < best) best = c;
      }
      if (down < n) {
        const v = g[down];
        const c = v * v + dd;
        if (c < best) best = c;
      }
    }
    out[p] = Math.sqrt(best);
  }
  return out;
}
