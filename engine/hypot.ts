/**
 * Math.hypot for two and three numbers, bit for bit: the same steps V8's builtin takes (scale by the
 * largest magnitude, Kahan-sum the squares, square root, scale back), written in JavaScript so the
 * compiler inlines them. V8's Math.hypot is a C++ call that allocates for its arguments and its
 * result, about seven times slower (and on a small clip-art trace its garbage was a sixth of the
 * tracing thread's), and both curve fitters and the centerline graph call it per point. Same
 * results, so traces stay byte-identical.
 */

export function hypot(x: number, y: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y);
  if (ax === Infinity || ay === Infinity) return Infinity;
  if (ax !== ax || ay !== ay) return NaN;
  const max = ax < ay ? ay : ax;
  if (max === 0) return 0;
  const nx = ax / max,
    ny = ay / max;
  // Kahan summation of two squares from zero: the compensation after the first is exactly 0.
  return Math.sqrt(nx * nx + ny * ny) * max;
}

export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (ax !== ax || ay !== ay || az !== az) return NaN;
  let max = ax < ay ? ay : ax;
  if (max < az) max = az;
  if (max === 0) return 0;
  const nx = ax / max,
    ny = ay / max,
    nz = az / max;
  // Kahan summation: exact for the first two squares; the third carries their rounding error.
  const sum = nx * nx + ny * ny;
  const compensation = sum - nx * nx - ny * ny;
  return Math.sqrt(sum + (nz * nz - compensation)) * max;
}
