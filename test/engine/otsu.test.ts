import t from 'tap';
import { otsuSplitScores } from '../../engine/otsu.js';

t.test('a split scores wB·wF·(mB − mF)²; a split with an empty class scores -1', async (t) => {
  const hist = new Float64Array(256);
  hist[0] = 2;
  hist[10] = 2;
  const scores = otsuSplitScores(hist, 4);
  // every split in the gap puts the two 0s against the two 10s: 2·2·(0 − 10)²
  for (let split = 0; split < 10; split++) t.equal(scores[split], 400, `split ${split}`);
  for (let split = 10; split < 256; split++) t.equal(scores[split], -1, `split ${split}`);
});

t.test('an uneven histogram: the weighted means, and the best split between the two modes', async (t) => {
  const hist = new Int32Array(256);
  hist[20] = 3;
  hist[30] = 1;
  hist[200] = 4;
  const scores = otsuSplitScores(hist, 8);
  // levels 0..20 (three 20s) against 30 and the four 200s: mean 20 vs 166
  t.equal(scores[20], 3 * 5 * (20 - 166) * (20 - 166));
  // levels 0..30 against the four 200s: mean 22.5 vs 200
  t.equal(scores[30], 4 * 4 * (22.5 - 200) * (22.5 - 200));
  t.ok(scores[30] > scores[20] && scores[30] === scores[199] && scores[199] > scores[19]);
  t.equal(scores[19], -1, 'nothing at or below 19');
});
