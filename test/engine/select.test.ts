import t from 'tap';
import { kthSmallest } from '../../engine/select.js';

// Deterministic pseudo-random lists (a fixed LCG, no Math.random: the test repeats).
function lcg(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

t.test('every index of a list: the value a full sort puts there', async (t) => {
  const next = lcg(4242);
  let mismatches = 0;
  for (const length of [1, 2, 3, 5, 16, 17, 100, 1001]) {
    // few distinct values too (many ties with the pivot), as luma steps on a flat ramp have
    for (const spread of [1e6, 4, 1]) {
      const values = Float64Array.from({ length }, () => Math.floor(next() * spread));
      const sorted = Float64Array.from(values).sort();
      for (let k = 0; k < length; k++) if (kthSmallest(Float64Array.from(values), k) !== sorted[k]) mismatches++;
    }
  }
  t.equal(mismatches, 0);
});

t.test('sorted, reversed and constant lists (the pivot rule keeps them linear)', async (t) => {
  const ascending = Float64Array.from({ length: 8192 }, (_, i) => i * 0.5);
  t.equal(kthSmallest(Float64Array.from(ascending), 4096), 2048);
  t.equal(kthSmallest(Float64Array.from(ascending).reverse(), 4096), 2048);
  t.equal(kthSmallest(new Float64Array(8192).fill(7), 4096), 7);
  t.equal(kthSmallest(Float64Array.of(3, -1, 2), 0), -1);
  t.equal(kthSmallest(Float64Array.of(3, -1, 2), 2), 3);
});

t.test('an index outside the list is refused', async (t) => {
  t.throws(() => kthSmallest(new Float64Array(0), 0), RangeError);
  t.throws(() => kthSmallest(Float64Array.of(1, 2), 2), RangeError);
  t.throws(() => kthSmallest(Float64Array.of(1, 2), -1), RangeError);
});
