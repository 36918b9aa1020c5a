import t from 'tap';
import { inkDepth } from '../../../engine/centerline/distance.js';

/** Brute force: distance from each ink pixel centre to the nearest paper pixel centre. */
function bruteForce(mask: Uint8Array, stride: number): Float32Array {
  const out = new Float32Array(mask.length);
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    const x = p % stride,
      y = (p - x) / stride;
    let best = Infinity;
    for (let q = 0; q < mask.length; q++) {
      if (mask[q]) continue;
      const qx = q % stride,
        qy = (q - qx) / stride;
      best = Math.min(best, (qx - x) ** 2 + (qy - y) ** 2);
    }
    out[p] = Math.sqrt(best);
  }
  return out;
}

t.test('matches a brute-force Euclidean distance transform on random padded masks', async (t) => {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (const density of [0.3, 0.7, 0.95]) {
    const stride = 23,
      rows = 17;
    const mask = new Uint8Array(stride * rows);
    for (let y = 1; y < rows - 1; y++) for (let x = 1; x < stride - 1; x++) mask[y * stride + x] = rand() < density ? 1 : 0;
    const fast = inkDepth(mask, stride, rows);
    const slow = bruteForce(mask, stride);
    let worst = 0;
    for (let i = 0; i < mask.length; i++) worst = Math.max(worst, Math.abs(fast[i] - slow[i]));
    t.ok(worst < 1e-5, `density ${density}: max error ${worst}`);
  }
});

t.test('caps depth inside large solid areas', async (t) => {
  const stride = 202,
    rows = 202;
  const mask = new Uint8Array(stride * rows);
  for (let y = 1; y < rows - 1; y++) for (let x = 1; x < stride - 1; x++) mask[y * stride + x] = 1;
  const d = inkDepth(mask, stride, rows, 16);
  t.equal(d[stride + 1], 1, 'corner pixel is 1 from the paper');
  t.equal(d[100 * stride + 100], 16, 'the centre reports the cap');
  t.equal(d[0], 0, 'paper is 0');
});
