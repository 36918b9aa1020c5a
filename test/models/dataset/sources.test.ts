import t from 'tap';
import { bookScanAugment } from '../../../models/dataset/augment-scan.js';
import { heldOutBookScan } from '../../../models/dataset/heldout.js';
import { SYNTHETIC, checkSplits, type Source } from '../../../models/dataset/sources.js';

const source = (fields: Partial<Source>): Source => ({
  id: 'x',
  package: 'valgrind',
  class: 'scan',
  split: 'train',
  match: () => true,
  limit: 1,
  variants: 1,
  augment: bookScanAugment,
  ...fields,
});

t.test('checkSplits accepts held-out sources from their own packages and degradations', async (t) => {
  t.doesNotThrow(() =>
    checkSplits([
      source({ id: 'manual' }),
      source({ id: 'synthetic-art', package: SYNTHETIC }),
      source({ id: 'other-manual', package: 'libmpfr-doc', split: 'heldout', augment: heldOutBookScan }),
    ]),
  );
});

t.test('checkSplits refuses a held-out source that shares a package with training', async (t) => {
  t.throws(
    () => checkSplits([source({ id: 'manual' }), source({ id: 'same-manual', split: 'heldout' })]),
    /held-out source same-manual .* valgrind/,
  );
});

t.test('checkSplits refuses a synthetic held-out source: a generator is never a new source', async (t) => {
  t.throws(() => checkSplits([source({ id: 'art', package: SYNTHETIC, split: 'heldout' })]), /held-out source art is synthetic/);
});

t.test('checkSplits refuses a training source degraded by held-out-only code', async (t) => {
  t.throws(() => checkSplits([source({ id: 'leaky', augment: heldOutBookScan })]), /training source leaky uses a held-out degradation/);
});
