import t from 'tap';
import {
  declaredScratchSlots,
  grownFloat64Buffer,
  scratchFloat64,
  scratchFloat64Buffer,
  scratchInt32,
  scratchSlots,
  scratchUint8,
  scratchUint8Buffer,
  zeroedFloat64,
  zeroedUint8,
} from '../../engine/scratch.js';
import { FIT_PRESETS, fitChain } from '../../engine/fit/index.js';
// Loaded for its guard's slots, declared when the module loads.
import '../../engine/fit/chain.js';
import { boundaryChain, polygonChain, rasterise } from './helpers/chains.js';

// The tests' own slots: a fit never asks for them, so these tests cannot disturb (or be disturbed by) one.
const F64 = scratchSlots('scratch test', Float64Array, ['Zeroed', 'Grows', 'A', 'B', 'Whole', 'Filled']);
const I32 = scratchSlots('scratch test', Int32Array, ['Ints']);
const U8 = scratchSlots('scratch test', Uint8Array, ['Bytes', 'WholeBytes']);

t.test('a zeroed slot hands back a zeroed view of the asked length, whatever was written before', async (t) => {
  const first = scratchFloat64(F64.Zeroed, 10);
  first.fill(7);
  const again = zeroedFloat64(F64.Zeroed, 6);
  t.equal(again.length, 6);
  t.same([...again], [0, 0, 0, 0, 0, 0]);
  t.equal(again.buffer, first.buffer, 'the same memory is reused, not a new backing store');
});

t.test('a slot grows to a longer request and keeps the longer buffer', async (t) => {
  const small = scratchFloat64(F64.Grows, 4);
  const big = scratchFloat64(F64.Grows, 5000);
  t.equal(big.length, 5000);
  t.not(big.buffer, small.buffer);
  t.equal(scratchFloat64(F64.Grows, 100).buffer, big.buffer);
});

t.test("a buffer filled as it goes grows only when asked for more, keeping what it holds, and stays the slot's", async (t) => {
  const buffer = scratchFloat64Buffer(F64.Filled, 64);
  for (let i = 0; i < 64; i++) buffer[i] = i + 0.5;
  t.equal(grownFloat64Buffer(F64.Filled, buffer, 64, 64), buffer, 'long enough: the same array');
  const bigger = grownFloat64Buffer(F64.Filled, buffer, 40, 65);
  t.ok(bigger.length >= 65 && bigger !== buffer, `grown to ${bigger.length}`);
  t.same([...bigger.subarray(0, 40)], [...buffer.subarray(0, 40)], 'the numbers in use carried over');
  t.equal(scratchFloat64Buffer(F64.Filled, 1), bigger, 'the slot holds the grown buffer');
});

t.test('a whole-buffer request hands back the same array, grown when asked for more, keeping its numbers', async (t) => {
  const first = scratchFloat64Buffer(F64.Whole, 10);
  t.ok(first.length >= 10);
  first[3] = 42;
  t.equal(scratchFloat64Buffer(F64.Whole, 5), first, 'no new array, not even a view, for a shorter request');
  const grown = scratchFloat64Buffer(F64.Whole, 5000);
  t.ok(grown.length >= 5000);
  t.not(grown, first);
  t.equal(scratchFloat64(F64.Whole, 8).buffer, grown.buffer, 'views of the slot see the grown buffer');
  const bytes = scratchUint8Buffer(U8.WholeBytes, 3);
  bytes[2] = 9;
  t.equal(scratchUint8Buffer(U8.WholeBytes, 3)[2], 9, 'whatever was there stays there');
});

t.test('slots are independent, and each element type has its own', async (t) => {
  const a = scratchFloat64(F64.A, 8).fill(1);
  const b = scratchFloat64(F64.B, 8).fill(2);
  t.ok(a.every((v) => v === 1) && b.every((v) => v === 2), 'two float slots hold their own numbers');
  const ints = scratchInt32(I32.Ints, 3).fill(-5);
  const bytes = scratchUint8(U8.Bytes, 3).fill(200);
  t.same([...ints], [-5, -5, -5]);
  t.same([...zeroedUint8(U8.Bytes, 3)], [0, 0, 0]);
  t.not(bytes.buffer, ints.buffer);
  t.ok(
    a.every((v) => v === 1),
    'other types did not touch the float slot',
  );
});

t.test('fits share no state through the scratch slots: a chain fits the same before and after a bigger one', async (t) => {
  const settings = FIT_PRESETS.light;
  const small = boundaryChain(rasterise(30, 30, (x, y) => (x - 15) ** 2 + (y - 15) ** 2 < 64));
  const big = polygonChain(220, 160, [
    [10, 10],
    [200, 30],
    [150, 150],
    [40, 120],
  ]);
  const before = fitChain(small, true, settings);
  const other = fitChain(big, true, settings);
  const after = fitChain(small, true, settings);
  t.ok(big.length > 4 * small.length, 'the other chain is much longer, so the slots grow between the fits');
  t.same(after, before);
  t.same(fitChain(big, true, settings), other);
});

t.test('a slot name declared twice throws, so two call sites never share a slot by accident', async (t) => {
  t.ok(declaredScratchSlots().includes('fit.Mids'), "the fitter's slots are declared by name when it loads");
  t.ok(declaredScratchSlots().includes('fit guard.Loop'), "and the guard's, under their own names");
  t.throws(() => scratchSlots('fit', Float64Array, ['Mids']), /scratch slot fit\.Mids is declared twice/);
  t.throws(() => scratchSlots('scratch test', Uint8Array, ['New', 'New']), /scratch slot scratch test\.New is declared twice/);
});
