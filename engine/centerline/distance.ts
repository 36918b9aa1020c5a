/**
 * Exact Euclidean distance transform (Felzenszwalb & Huttenlocher 2012, "Distance transforms of
 * sampled functions"): two 1-D lower-envelope passes over typed arrays, O(pixels).
 */

const INF = 1e20;

/**
 * For every pixel, the Euclidean distance from its centre to the centre of the nearest pixel where
 * `seed` is 0. Pixels outside the image do not count as seeds, so a line running off the border is
 * measured by its in-image boundary only.
 */
export function distanceToZero(seed: Uint8Array, width: number, height: number): Float32Array {
  const n = width * height;
  const grid = new Float64Array(n);
  for (let i = 0; i < n; i++) grid[i] = seed[i] ? INF : 0;
  const longest = Math.max(width, height);
  const f = new Float64Array(longest);
  const d = new Float64Array(longest);
  const v = new Int32Array(longest);
  const z = new Float64Array(longest + 1);

  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) f[y] = grid[y * width + x];
    lowerEnvelope(f, height, d, v, z);
    for (let y = 0; y < height; y++) grid[y * width + x] = d[y];
  }
  const out = new Float32Array(n);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) f[x] = grid[row + x];
    lowerEnvelope(f, width, d, v, z);
    for (let x = 0; x < width; x++) out[row + x] = d[x] >= INF ? Infinity : Math.sqrt(d[x]);
  }
  return out;
}

function lowerEnvelope(f: Float64Array, len: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  // Rows that are all "far" stay far; skipping them keeps the arithmetic away from 1e20 overflow.
  let any = false;
  for (let q = 0; q < len; q++) if (f[q] < INF) { any = true; break; }
  if (!any) { for (let q = 0; q < len; q++) d[q] = INF; return; }
  let k = -1;
  for (let q = 0; q < len; q++) {
    if (f[q] >= INF) continue;
    if (k < 0) { k = 0; v[0] = q; z[0] = -INF; z[1] = INF; continue; }
    let s = 0;
    for (;;) {
      const p = v[k];
      s = (f[q] + q * q - (f[p] + p * p)) / (2 * (q - p));
      if (s <= z[k] && k > 0) k--;
      else break;
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  k = 0;
  for (let q = 0; q < len; q++) {
    while (z[k + 1] < q) k++;
    const p = v[k];
    d[q] = (q - p) * (q - p) + f[p];
  }
}
