import t from 'tap';
import { kthSmallest, sortIndices } from '../../engine/select.js';

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

t.test('sortIndices: the order a typed array sort gives, in place', async (t) => {
  const next = lcg(977);
  let mismatches = 0,
    notInPlace = 0;
  for (const length of [0, 1, 2, 3, 17, 1000, 5000]) {
    // one digit (below 2¹¹), two, three, and the largest index there is: every pass count
    for (const spread of [2, 2048, 1 << 22, 2 ** 31]) {
      const values = Int32Array.from({ length }, () => Math.min(2 ** 31 - 1, Math.floor(next() * spread)));
      const expected = Int32Array.from(values).sort();
      const sorted = sortIndices(values);
      if (sorted !== values) notInPlace++;
      for (let i = 0; i < length; i++) if (sorted[i] !== expected[i]) mismatches++;
    }
  }
  t.equal(mismatches, 0);
  t.equal(notInPlace, 0);
  t.same([...sortIndices(Int32Array.of(5, 5, 0, 2 ** 31 - 1, 3, 0))], [0, 0, 3, 5, 5, 2 ** 31 - 1]);
  t.same([...sortIndices(Int32Array.from({ length: 4096 }, (_, i) => 4095 - i))].slice(0, 3), [0, 1, 2]);
});

t.test('sortIndices refuses a negative number', async (t) => {
  t.throws(() => sortIndices(Int32Array.of(3, -1, 2)), RangeError);
});
