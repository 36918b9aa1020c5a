import t from 'tap';
import { SpareSharedBuffer } from '../../engine/spare-buffer.js';

t.test('a buffer given back is taken again when large enough, once', async (t) => {
  const spare = new SpareSharedBuffer(1024);
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
  const spare = new SpareSharedBuffer(1000);
  const small = new SharedArrayBuffer(100), large = new SharedArrayBuffer(500);
  spare.giveBack(large);
  spare.giveBack(small);
  t.equal(spare.take(50), large, 'the smaller one did not replace the larger');
  spare.giveBack(new SharedArrayBuffer(2000));
  t.not(spare.take(50).byteLength, 2000, 'over the cap: not kept');
});
