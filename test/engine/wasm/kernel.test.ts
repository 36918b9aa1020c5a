import t from 'tap';
import { after, copyIn, COPY_SLACK, LAYOUT_START } from '../../../engine/wasm/kernel.js';

t.test('copyIn: a shared array lands where it lies as in its buffer modulo 8; a plain one where asked', async (t) => {
  const memory = new ArrayBuffer(1 << 16);
  const at = after(LAYOUT_START, 100);
  for (const offset of [0, 4, 8, 12]) {
    const shared = new Int32Array(new SharedArrayBuffer(4096), offset, 100).map((_, i) => i * 7 - 3);
    const placed = copyIn(memory, at, shared);
    t.equal((placed - shared.byteOffset) & 7, 0, `labels at byte ${offset}: the same place modulo 8`);
    t.ok(placed >= at && placed + 4 * 100 <= at + 4 * 100 + COPY_SLACK, 'within the slack');
    t.same(Array.from(new Int32Array(memory, placed, 100)), Array.from(shared), 'copied');
  }
  for (const offset of [0, 1, 3, 5, 7]) {
    const shared = new Uint8Array(new SharedArrayBuffer(4096), offset, 300).map((_, i) => (i * 31) & 255);
    const placed = copyIn(memory, at, shared);
    t.equal((placed - shared.byteOffset) & 7, 0, `bytes at ${offset}: the same place modulo 8`);
    t.same(Array.from(new Uint8Array(memory, placed, 300)), Array.from(shared), 'copied');
  }
  const plain = new Uint8Array(new ArrayBuffer(64), 3, 20).fill(9);
  t.equal(copyIn(memory, at, plain), at, 'a plain array goes where asked (V8 copies it at full speed anywhere)');
});
