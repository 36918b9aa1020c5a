/**
 * A crack's sub-pixel shift as engine/boundary/subpixel.ts defines it, written out plainly: the
 * crack from point i to the next, its left normal (towards L), R's pixel against it; the two
 * reference colours two pixels into R and three into L (each pixel's own colour where it is still
 * of its region, else the region's mean); the coverage by R of the two pixels on each side, each a
 * mix of the two colours unless it lies off the line between them; their sum less two, clamped to
 * half a pixel. 0 where the two colours are closer than 24.
 */
export function referenceCrackShift(
  image: { width: number; height: number; rgb: Uint8Array },
  labels: Int32Array,
  mean: Float64Array,
  chain: { points: Float64Array; right: number; left: number },
  i: number,
): number {
  const { width, height, rgb } = image;
  const { points, right, left } = chain;
  const count = points.length >> 1;
  const j = i + 1 === count ? 0 : i + 1;
  const x0 = points[2 * i],
    y0 = points[2 * i + 1];
  const dx = points[2 * j] - x0,
    dy = points[2 * j + 1] - y0;
  const nx = dy,
    ny = -dx;
  const rx = Math.floor(x0 + dx / 2 - nx / 2),
    ry = Math.floor(y0 + dy / 2 - ny / 2);
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height;
  const colour = (x: number, y: number, region: number): number[] =>
    inside(x, y) && labels[y * width + x] === region
      ? [rgb[3 * (y * width + x)], rgb[3 * (y * width + x) + 1], rgb[3 * (y * width + x) + 2]]
      : [mean[3 * region], mean[3 * region + 1], mean[3 * region + 2]];
  const r = colour(rx - 2 * nx, ry - 2 * ny, right),
    l = colour(rx + 3 * nx, ry + 3 * ny, left);
  const d = [r[0] - l[0], r[1] - l[1], r[2] - l[2]];
  const contrast2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  if (!(contrast2 >= 24 * 24)) return 0;
  const coverage = (x: number, y: number, own: number): number => {
    if (!inside(x, y)) return own;
    const p = y * width + x;
    if (labels[p] !== right && labels[p] !== left) return own;
    const c = [r[0] - rgb[3 * p], r[1] - rgb[3 * p + 1], r[2] - rgb[3 * p + 2]];
    const along = (c[0] * d[0] + c[1] * d[1] + c[2] * d[2]) / contrast2;
    const e = [c[0] - along * d[0], c[1] - along * d[1], c[2] - along * d[2]];
    if (e[0] * e[0] + e[1] * e[1] + e[2] * e[2] > 0.35 * 0.35 * contrast2) return own;
    return Math.min(1, Math.max(0, 1 - along));
  };
  let sum = 0;
  for (let k = 0; k < 2; k++) {
    sum += coverage(rx - k * nx, ry - k * ny, 1);
    sum += coverage(rx + (k + 1) * nx, ry + (k + 1) * ny, 0);
  }
  return Math.min(0.5, Math.max(-0.5, sum - 2));
}
