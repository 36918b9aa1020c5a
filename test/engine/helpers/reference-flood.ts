import { PLANE_STRIDE } from '../../../engine/segment/index.js';

/**
 * The flood pixel by pixel, as floodSeeds (engine/segment/index.ts) defines it: seeds in scan
 * order, each the 8-connected component of unlabelled pixels of its kind (transparent or not)
 * within `tolerance` of the seed's colour (transparent ones whatever their colour), with its
 * moment sums.
 */
export function referenceFlood(width: number, height: number, rgb: Uint8Array, transparent: Uint8Array, tolerance: number) {
  const labels = new Int32Array(width * height).fill(-1);
  const sums: number[][] = [];
  for (let start = 0; start < width * height; start++) {
    if (labels[start] >= 0) continue;
    const label = sums.length;
    const s = new Array<number>(PLANE_STRIDE).fill(0);
    sums.push(s);
    const clear = transparent[start];
    const stack = [start];
    labels[start] = label;
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % width,
        y = (p - x) / width;
      const r = rgb[3 * p],
        g = rgb[3 * p + 1],
        b = rgb[3 * p + 2];
      const moments = [1, x, y, x * x, x * y, y * y, r, g, b, r * x, g * x, b * x, r * y, g * y, b * y, r * r + g * g + b * b];
      for (let k = 0; k < PLANE_STRIDE; k++) s[k] += moments[k];
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx,
            ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (labels[q] >= 0 || transparent[q] !== clear) continue;
          const dr = rgb[3 * q] - rgb[3 * start],
            dg = rgb[3 * q + 1] - rgb[3 * start + 1],
            db = rgb[3 * q + 2] - rgb[3 * start + 2];
          if (!clear && dr * dr + dg * dg + db * db > tolerance * tolerance) continue;
          labels[q] = label;
          stack.push(q);
        }
    }
  }
  return { labels, sums };
}
