/**
 * Math.hypot for two and three numbers, bit for bit: the same steps V8's builtin takes (scale by the
 * largest magnitude, Kahan-sum the squares, square root, scale back), written in JavaScript so the
 * compiler inlines them. V8's Math.hypot is a C++ call that allocates for its arguments and its
 * result, about seven times slower (and on a small clip-art trace its garbage was a sixth of the
 * tracing thread's), and both curve fitters and the centerline graph call it per point. Same
 * results, so traces stay byte-identical.
 */

/*
 * Every early return hands back one of the doubles already in hand (an infinite one, a sum that is
 * NaN, the zero maximum), not the globals Infinity and NaN or the small integer 0: where a caller
 * inlines these, a return of another kind makes the result a tagged value, and every finite result
 * is then boxed into a heap number (straightRuns on storm's spans: 711 kB a trace and a third of its
 * time, against 88 kB). The values returned are the same.
 */
export function hypot(x: number, y: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y);
  if (ax === Infinity || ay === Infinity) return ax === Infinity ? ax : ay;
  if (ax !== ax || ay !== ay) return ax + ay;
  const max = ax < ay ? ay : ax;
  if (max === 0) return max;
  const nx = ax / max,
    ny = ay / max;
  // Kahan summation of two squares from zero: the compensation after the first is exactly 0.
  return Math.sqrt(nx * nx + ny * ny) * max;
}

export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) return ax === Infinity ? ax : ay === Infinity ? ay : az;
  if (ax !== ax || ay !== ay || az !== az) return ax + ay + az;
  let max = ax < ay ? ay : ax;
  if (max < az) max = az;
  if (max === 0) return max;
  const nx = ax / max,
    ny = ay / max,
    nz = az / max;
  // Kahan summation: exact for the first two squares; the third carries their rounding error.
  const sum = nx * nx + ny * ny;
  const compensation = sum - nx * nx - ny * ny;
  return Math.sqrt(sum + (nz * nz - compensation)) * max;
}
