import t from 'tap';
import { hypot, hypot3 } from '../../engine/hypot.js';

// The copies must give Math.hypot's exact bits, or traces would change when they replaced it.
const special = [0, -0, 1, -1, 0.5, 3, 4, 255, Math.SQRT2, 1e-300, 1e300, 2 ** -1074, Infinity, -Infinity, NaN];

t.test('two numbers: same bits as Math.hypot, edge cases included', async (t) => {
  let mismatches = 0;
  for (const a of special) for (const b of special) if (!Object.is(hypot(a, b), Math.hypot(a, b))) mismatches++;
  // Deterministic pseudo-random pixel-scale values (a fixed LCG, no Math.random: the test repeats).
  let seed = 12345;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 64;
  for (let i = 0; i < 200_000; i++) {
    const a = next(),
      b = next();
    if (!Object.is(hypot(a, b), Math.hypot(a, b))) mismatches++;
  }
  t.equal(mismatches, 0);
  t.equal(hypot(3, 4), 5);
});

t.test('three numbers: same bits as Math.hypot', async (t) => {
  let mismatches = 0;
  for (const a of special)
    for (const b of special) for (const c of special) if (!Object.is(hypot3(a, b, c), Math.hypot(a, b, c))) mismatches++;
  let seed = 777;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) % 511) - 255;
  for (let i = 0; i < 200_000; i++) {
    const a = next(),
      b = next(),
      c = next();
    if (!Object.is(hypot3(a, b, c), Math.hypot(a, b, c))) mismatches++;
  }
  t.equal(mismatches, 0);
});
