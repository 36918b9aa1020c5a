import t from 'tap';
import { PairHeap } from './pair-heap.js';

function lcg(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

t.test('pops come out by key, ties by the smaller id', async (t) => {
  const random = lcg(11);
  const heap = new PairHeap(500);
  // few distinct keys, so most comparisons are ties
  const keys = new Float64Array(500);
  for (let id = 0; id < 500; id++) {
    keys[id] = Math.floor(random() * 8);
    heap.pushUnordered(keys[id], id);
  }
  heap.heapify();
  let previousKey = -Infinity,
    previousId = -1,
    outOfOrder = 0,
    popped = 0;
  while (heap.length > 0) {
    const key = heap.topKey,
      id = heap.pop();
    if (key !== keys[id]) outOfOrder++;
    if (key < previousKey || (key === previousKey && id < previousId)) outOfOrder++;
    previousKey = key;
    previousId = id;
    popped++;
  }
  t.equal(popped, 500);
  t.equal(outOfOrder, 0);
});

t.test('replaceTop gives the same pops as pop() then push()', async (t) => {
  // The segment merge re-queues a stale pair with replaceTop; merging is only deterministic
  // because the order of pops depends on the entries, not on how the heap got them.
  const random = lcg(5);
  const size = 300;
  const one = new PairHeap(size),
    other = new PairHeap(size);
  for (let id = 0; id < size; id++) {
    const key = Math.floor(random() * 50);
    one.pushUnordered(key, id);
    other.pushUnordered(key, id);
  }
  one.heapify();
  other.heapify();
  const seenOne: number[] = [],
    seenOther: number[] = [];
  let requeued = 0;
  while (one.length > 0) {
    seenOne.push(one.topId);
    seenOther.push(other.topId);
    if (random() < 0.6) {
      // re-queue the top under a new key (often a tie with others)
      const id = one.topId,
        key = one.topKey + Math.floor(random() * 20);
      one.replaceTop(key, id);
      other.pop();
      other.push(key, id);
      requeued++;
    } else {
      one.pop();
      other.pop();
    }
  }
  t.ok(requeued > size, 'many re-queues were exercised');
  t.equal(other.length, 0);
  t.same(seenOne, seenOther);
});
