import t from 'tap';
import { SparePool, spareSharedBuffers } from '../../engine/scratch.js';

t.test('a buffer given back is taken again when large enough, once', async (t) => {
  const spare = spareSharedBuffers(1024);
  const first = spare.take(100);
  t.equal(first.byteLength, 100);
  spare.giveBack(first);
  t.equal(spare.take(80), first, 'large enough: the same buffer');
  t.not(spare.take(80), first, 'taken already: a new one');
  spare.giveBack(first);
  const bigger = spare.take(200);
  t.not(bigger, first, 'too small: a new one');
  t.equal(bigger.byteLength, 200);
});

t.test('the larger of two is kept, and nothing over the cap', async (t) => {
  const spare = spareSharedBuffers(1000);
  const small = new SharedArrayBuffer(100),
    large = new SharedArrayBuffer(500);
  spare.giveBack(large);
  spare.giveBack(small);
  t.equal(spare.take(50), large, 'the smaller one did not replace the larger');
  spare.giveBack(new SharedArrayBuffer(2000));
  t.not(spare.take(50).byteLength, 2000, 'over the cap: not kept');
});

t.test('a pool of chunks keeps up to its count, hands back the last one given, and drops the rest', async (t) => {
  const pool = new SparePool((bytes) => new Float64Array(bytes / 8), 2, 800);
  const [a, b, c] = [pool.take(800), pool.take(800), pool.take(800)];
  t.ok(a !== b && b !== c && a !== c, 'an empty pool makes new chunks');
  pool.giveBack(a);
  pool.giveBack(b);
  pool.giveBack(c);
  t.equal(pool.take(800), b, 'full at two: the third was dropped, the last kept comes first');
  t.equal(pool.take(800), a);
  t.not(pool.take(800), c, 'empty again: a new chunk');
});
